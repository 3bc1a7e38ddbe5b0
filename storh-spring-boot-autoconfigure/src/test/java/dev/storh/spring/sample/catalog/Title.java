package dev.storh.spring.sample.catalog;

import java.util.List;

import dev.storh.spring.data.mapping.Document;
import dev.storh.spring.data.mapping.Indexed;

import org.springframework.data.annotation.Id;

/**
 * A title of the catalog.
 *
 * @param id the record id
 * @param name the title's name
 * @param author the author, indexed case-insensitively
 * @param isbn unique where set
 * @param year the year of publication, range-indexed
 * @param publisher the publisher, a nested object whose name is indexed (at {@code publisher.name})
 * @param tags indexed per element
 * @param reviews the reviews, whose ratings are indexed (at {@code reviews.rating})
 */
@Document(collection = "titles")
public record Title(@Id String id, String name, @Indexed(ignoreCase = true) String author, @Indexed(unique = true) String isbn,
        @Indexed(range = true) Long year, Publisher publisher, @Indexed List<String> tags, List<Review> reviews) {

    public static Title of(String name, String author, String isbn, long year, String publisher, List<String> tags,
            Long... ratings) {
        return new Title(null, name, author, isbn, year, new Publisher(publisher, "UK"), tags,
                java.util.Arrays.stream(ratings).map((r) -> new Review(r, "ok")).toList());
    }

    /**
     * @param name indexed
     * @param country not indexed
     */
    public record Publisher(@Indexed String name, String country) {
    }

    /**
     * @param rating indexed
     * @param text not indexed
     */
    public record Review(@Indexed Long rating, String text) {
    }

}
