package dev.storh.cache;

import dev.storh.StorageRecord;

/**
 * One cache entry: a record as read from its file (or {@code null} for a file known to be missing)
 * and what the file looked like then.
 *
 * @param record the record, or {@code null} for a negative entry
 * @param size the file size in bytes (-1 when missing)
 * @param fileKey a token that changes with the file (a DocStore keeps the byte seam's version of
 *     the file here: size, modification time and identity); {@code null} for a negative entry
 * @param hash XXH3-128 of the bytes, or {@code null} for a negative entry
 * @param seenMillis wall-clock milliseconds from which the settle time counts: when this
 *     {@code fileKey} was first seen, or the file's modification time when the token tells it and it
 *     is earlier
 * @param settled whether the bytes were confirmed against the file at least
 *     {@link CacheValidation#SETTLE_MILLIS} after {@code seenMillis}: from then on, STAT trusts the
 *     token alone
 * @param writersMark for an entry this process wrote itself while no other writer was registered
 *     in the collection: the modification time (ms) of the collection's writer-marker folder then,
 *     which STAT checks instead of the bytes until the entry settles; {@code -1} otherwise
 */
public record CachedRecord(StorageRecord record, long size, Object fileKey, String hash, long seenMillis, boolean settled,
        long writersMark) {

    /** The entry for a file known to be missing. */
    public static final CachedRecord MISSING = new CachedRecord(null, -1, null, null, 0, true);

    /**
     * An entry without a writers mark.
     *
     * @param record the record, or {@code null} for a negative entry
     * @param size the file size in bytes (-1 when missing)
     * @param fileKey the file's version token
     * @param hash XXH3-128 of the bytes
     * @param seenMillis from when the settle time counts
     * @param settled whether STAT trusts the token alone
     */
    public CachedRecord(StorageRecord record, long size, Object fileKey, String hash, long seenMillis, boolean settled) {
        this(record, size, fileKey, hash, seenMillis, settled, -1);
    }

    /**
     * @return whether this entry says the file is missing
     */
    public boolean missing() {
        return record == null;
    }

    /**
     * @return the weight of the entry for the byte budget
     */
    public long bytes() {
        return Math.max(64, size);
    }

    /**
     * @return this entry, marked settled
     */
    public CachedRecord asSettled() {
        return new CachedRecord(record, size, fileKey, hash, seenMillis, true, -1);
    }

    /**
     * @return this entry without its writers mark: STAT compares its bytes until it settles
     */
    public CachedRecord withoutWritersMark() {
        return new CachedRecord(record, size, fileKey, hash, seenMillis, settled, -1);
    }
}
