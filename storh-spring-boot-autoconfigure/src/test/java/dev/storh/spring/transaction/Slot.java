package dev.storh.spring.transaction;

import dev.storh.spring.data.mapping.Document;
import dev.storh.spring.data.mapping.Indexed;

import org.springframework.data.annotation.Id;

/**
 * One record of the mixed transactional crash workload: a unique {@code u}, an equality-indexed
 * {@code kind}, a range-indexed {@code r}, and {@code v} naming the transaction that wrote it.
 */
@Document(collection = "slots")
public record Slot(@Id String id, @Indexed(unique = true) String u, @Indexed long kind, @Indexed(range = true) long r,
        String v) {
}
