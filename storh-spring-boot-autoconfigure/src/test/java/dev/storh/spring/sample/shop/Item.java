package dev.storh.spring.sample.shop;

import dev.storh.spring.data.mapping.Document;
import dev.storh.spring.data.mapping.Indexed;

import org.springframework.data.annotation.Id;

/**
 * An item for sale.
 *
 * @param id the record id
 * @param title the title, range-indexed
 * @param price the price in cents, range-indexed; several items share a price
 * @param sku the stock-keeping unit: unique where set, any number of items have none
 * @param category the category
 * @param maker who makes it, stored as a nested object
 */
@Document(collection = "items")
public record Item(@Id String id, @Indexed(range = true) String title, @Indexed(range = true) Long price,
        @Indexed(unique = true) String sku, String category, Maker maker) {

    public static Item of(String title, long price, String sku, String category, String maker) {
        return new Item(null, title, price, sku, category, new Maker(maker, "SE"));
    }

    /**
     * @param name the maker's name
     * @param country the maker's country
     */
    public record Maker(String name, String country) {
    }

}
