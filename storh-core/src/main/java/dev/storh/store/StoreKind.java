package dev.storh.store;

import dev.storh.json.WireName;

/**
 * The three kinds of store, each an engine of storh-core. Their {@link #label()} is the lower-case
 * word used in reports, metrics tags and CLI output ({@code "collection"}, {@code "log"},
 * {@code "queue"}).
 */
public enum StoreKind implements WireName {

    /** A DocStore collection: one JSONC file per record, with indexes. */
    COLLECTION,

    /** A segmented log: append-only segments of JSON lines. */
    LOG,

    /** A job queue: an event log of enqueues, claims and completions. */
    QUEUE
}
