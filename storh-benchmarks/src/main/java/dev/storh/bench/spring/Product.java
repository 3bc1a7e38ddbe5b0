package dev.storh.bench.spring;

import dev.storh.spring.data.mapping.Document;
import dev.storh.spring.data.mapping.Indexed;
import org.springframework.data.annotation.Id;

/**
 * The entity of the Spring side-by-side run: six indexed properties (three range, one unique).
 *
 * @param id the id, {@code null} before the first save
 * @param name a random name (range index: sorting)
 * @param category one of 20 categories
 * @param price in cents (range index)
 * @param sku unique
 * @param brand one of 50 brands
 * @param stock units in stock (range index)
 */
@Document(collection = "products")
public record Product(@Id String id, @Indexed(range = true) String name, @Indexed String category,
        @Indexed(range = true) long price, @Indexed(unique = true) String sku, @Indexed String brand,
        @Indexed(range = true) int stock) {
}
