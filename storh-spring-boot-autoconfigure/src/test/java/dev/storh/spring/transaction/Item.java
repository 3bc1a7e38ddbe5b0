package dev.storh.spring.transaction;

import dev.storh.spring.data.mapping.Document;
import dev.storh.spring.data.mapping.Indexed;

import org.springframework.data.annotation.Id;

/**
 * One record of a crash-test transaction: transaction {@code txn} wrote {@code of} items.
 */
@Document(collection = "items")
public record Item(@Id String id, @Indexed long txn, int of, int n) {
}
