package dev.storh.spring.transaction;

import dev.storh.spring.data.mapping.Document;

import org.springframework.data.annotation.Id;

/**
 * The crash test's "last transaction" record, rewritten by every transaction, and the one marker
 * each transaction creates while deleting its predecessor's.
 */
@Document(collection = "markers")
public record Marker(@Id String id, long txn) {
}
