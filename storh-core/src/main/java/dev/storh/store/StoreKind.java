package dev.storh.store;

/**
 * The three kinds of store, each an engine of storh-core.
 */
public enum StoreKind {

    /** A DocStore collection: one JSONC file per record, with indexes. */
    COLLECTION("collection"),

    /** A segmented log: append-only segments of JSON lines. */
    LOG("log"),

    /** A job queue: an event log of enqueues, claims and completions. */
    QUEUE("queue");

    private final String label;

    StoreKind(String label) {
        this.label = label;
    }

    /**
     * @return the lower-case word used in reports, metrics tags and CLI output ({@code "collection"},
     *     {@code "log"}, {@code "queue"})
     */
    public String label() {
        return label;
    }
}
