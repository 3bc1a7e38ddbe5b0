package dev.storh.spring.data.types;

import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.util.List;

import dev.storh.spring.data.mapping.Document;
import dev.storh.spring.data.mapping.Indexed;

import org.springframework.data.annotation.CreatedDate;
import org.springframework.data.annotation.Id;
import org.springframework.data.annotation.LastModifiedDate;
import org.springframework.data.annotation.Version;

/**
 * A bookshop entity as a new user writes it: money as {@code BigDecimal}, dates, a nested
 * object, a list, {@code @Version}, auditing dates and a unique ISBN.
 */
@Document(collection = "books")
public class Book {

    @Id
    public String id;

    @Version
    public Long version;

    @Indexed(unique = true)
    public String isbn;

    public String title;

    @Indexed(range = true)
    public BigDecimal price;

    /** The same value as {@link #price}, without index, to compare index answers with a scan. */
    public BigDecimal listPrice;

    @Indexed(range = true)
    public LocalDate published;

    public Publisher publisher;

    public List<String> tags;

    @CreatedDate
    public Instant created;

    @LastModifiedDate
    public Instant modified;

    /** A nested value object. */
    public record Publisher(String name, String city) {
    }

    public Book() {
    }

    public Book(String isbn, String title, String price, LocalDate published) {
        this.isbn = isbn;
        this.title = title;
        this.price = new BigDecimal(price);
        this.listPrice = this.price;
        this.published = published;
        this.publisher = new Publisher("Polirom", "Iasi");
        this.tags = List.of("novel", "ro");
    }

}
