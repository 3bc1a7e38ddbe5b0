package dev.storh.cache;

import dev.storh.StorageRecord;
import java.util.Objects;

/**
 * One cache entry: a record as read from its file (or {@code null} for a file known to be missing)
 * and what the file looked like then.
 *
 * @param record the record, or {@code null} for a negative entry
 * @param size the file size in bytes (-1 when missing)
 * @param modifiedNanos the file's modification time in nanoseconds
 * @param fileKey the file's identity (inode), or a token that changes with the file (a DocStore keeps the
 *     byte seam's version of the file here: size, modification time and identity); may be {@code null}
 * @param hash XXH3-128 of the bytes (HASH mode), or {@code null}
 */
public record CachedRecord(StorageRecord record, long size, long modifiedNanos, Object fileKey, String hash) {

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
     * @param other a fresh look at the file
     * @return whether size, time and identity are unchanged
     */
    public boolean sameFile(CachedRecord other) {
        return size == other.size && modifiedNanos == other.modifiedNanos && Objects.equals(fileKey, other.fileKey);
    }
}
