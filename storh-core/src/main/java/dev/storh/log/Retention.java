package dev.storh.log;

import dev.storh.StorageException;

/**
 * Time-based retention of a log: deletes every record whose id
 * timestamp is at or before a cutoff, then compacts.
 *
 * <pre>
 * long removed = log.retain().olderThanDays(90).compact();
 * </pre>
 *
 * Unlike the original (one locked, fsynced delete per record: weak spot W17), all tombstones are
 * written as one group-committed batch with one fsync before the compaction. Immutable; each setter
 * returns a new instance. Works on the partition the log was opened on.
 */
public final class Retention {

    private final SegmentedLog log;
    private final Long cutoffMs;

    Retention(SegmentedLog log, Long cutoffMs) {
        this.log = log;
        this.cutoffMs = cutoffMs;
    }

    /**
     * @param days at least 1
     * @return retention with cutoff {@code (now_seconds - days * 86400) * 1000}, now from the log's clock
     * @throws StorageException {@code "Retention days must be at least 1."} naming the value
     */
    public Retention olderThanDays(int days) {
        if (days < 1) {
            throw new StorageException("Retention days must be at least 1. Got: " + days);
        }
        long nowSeconds = log.clock().millis() / 1000;
        return new Retention(log, (nowSeconds - days * 86_400L) * 1000);
    }

    /**
     * @param cutoffMs the cutoff in ms since the epoch, inclusive
     * @return retention with that cutoff
     */
    public Retention olderThanMs(long cutoffMs) {
        return new Retention(log, cutoffMs);
    }

    /**
     * @return the cutoff in ms, or {@code null} when not configured
     */
    public Long cutoffMs() {
        return cutoffMs;
    }

    /**
     * Deletes the records whose id timestamp is {@code <=} the cutoff, then runs {@link SegmentedLog#compact()}.
     *
     * @return how many records were deleted
     * @throws StorageException {@code "Retention cutoff was not configured."}, or a write or compaction failure
     */
    public long compact() {
        if (cutoffMs == null) {
            throw new StorageException("Retention cutoff was not configured.");
        }
        return log.deleteOlderThanAndCompact(cutoffMs);
    }
}
