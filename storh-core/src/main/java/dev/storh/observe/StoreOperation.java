package dev.storh.observe;

import java.util.Locale;

/**
 * The data operations a {@link StoreObserver} is told about.
 */
public enum StoreOperation {

    /** A record written: {@code put}, {@code putMany} (one operation per call). */
    PUT,

    /** A record read by id. */
    GET,

    /** A query run: {@code get}, {@code first}, {@code count}; {@code stream} until the stream is open. */
    QUERY,

    /** A record deleted. */
    DELETE,

    /** Jobs claimed from a queue ({@code claim}, {@code claimMany}, {@code claimJobs}). */
    CLAIM,

    /** Lines appended to a log ({@code append}, {@code appendMany}). */
    APPEND;

    private final String tag = name().toLowerCase(Locale.ROOT);

    /**
     * @return the lower-case name, as metrics tags carry it ({@code "put"}, {@code "claim"})
     */
    public String tag() {
        return tag;
    }
}
