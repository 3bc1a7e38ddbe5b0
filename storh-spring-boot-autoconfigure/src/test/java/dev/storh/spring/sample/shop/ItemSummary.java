package dev.storh.spring.sample.shop;

/**
 * A DTO projection of {@link Item}: properties matched by name.
 *
 * @param title the item's title
 * @param price the item's price
 */
public record ItemSummary(String title, Long price) {
}
