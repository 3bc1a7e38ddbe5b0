package dev.storh.cache;

import dev.storh.StorageException;
import java.util.Locale;

/**
 * How a cached record is checked against its file before it is returned. Writes through a store are seen by the next read in every mode.
 */
public enum CacheValidation {
    /**
     * The file must still exist with the same size, nanosecond modification time and file key
     * (inode): an atomic rename by another writer always changes the inode, so STAT sees it even
     * when size and time match (the original compares whole seconds and size only).
     */
    STAT,
    /** As STAT, and the XXH3-128 of the file's bytes must match: sees in-place rewrites that keep size and time. */
    HASH,
    /** No file checks: the cache is the truth until this process writes or evicts the entry. */
    TRUST;

    /**
     * @param text {@code stat}, {@code hash} or {@code trust}, any case
     * @return the mode
     * @throws StorageException {@code "Unsupported cache validation mode: <text>"}
     */
    public static CacheValidation parse(String text) {
        try {
            return valueOf(text.trim().toUpperCase(Locale.ROOT));
        } catch (RuntimeException e) {
            throw new StorageException("Unsupported cache validation mode: " + text);
        }
    }
}
