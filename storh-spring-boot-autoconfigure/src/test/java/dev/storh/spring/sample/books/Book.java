package dev.storh.spring.sample.books;

import java.util.List;

import dev.storh.spring.data.mapping.Document;
import dev.storh.spring.data.mapping.Indexed;

import org.springframework.data.annotation.Id;

/**
 * A book with a nested publisher, tags and reviews.
 *
 * @param id the record id
 * @param title the title, range-indexed
 * @param publisher the publisher, stored as a nested object
 * @param tags free tags
 * @param reviews reviews, stored as a list of objects
 * @param pages the page count
 */
@Document(collection = "books")
public record Book(@Id String id, @Indexed(range = true) String title, Publisher publisher, List<String> tags,
        List<Review> reviews, Long pages) {

    /**
     * @param name the publisher's name
     * @param country the publisher's country
     */
    public record Publisher(String name, String country) {
    }

    /**
     * @param user who wrote it
     * @param rating one to five
     */
    public record Review(String user, Integer rating) {
    }

}
