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
 * @param seenMillis wall-clock milliseconds when this {@code fileKey} was first seen
 * @param settled whether the bytes were confirmed against the file at least
 *     {@link CacheValidation#SETTLE_MILLIS} after {@code seenMillis}: from then on, STAT trusts the
 *     token alone
 */
public record CachedRecord(StorageRecord record, long size, Object fileKey, String hash, long seenMillis, boolean settled) {

    /** The entry for a file known to be missing. */
    public static final CachedRecord MISSING = new CachedRecord(null, -1, null, null, 0, true);

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
        return new CachedRecord(record, size, fileKey, hash, seenMillis, true);
    }
}
