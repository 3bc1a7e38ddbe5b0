package dev.storh.cache;

import dev.storh.StorageException;
import java.util.Locale;

/**
 * How a cached record is checked against its file before it is returned. Writes through a store are seen by the next read in every mode.
 */
public enum CacheValidation {
    /**
     * The file must still exist with the same size, modification time (to the nanosecond the file
     * system keeps) and identity (inode), as the byte seam's version of the file reports them.
     *
     * <p>What it guarantees: every change made after the entry has <em>settled</em> is seen, and
     * every change before that which alters the bytes is seen too. An entry settles at its first
     * hit that comes {@link #SETTLE_MILLIS} ms or more after its file version was first seen (or
     * after the file's modification time, where the version tells it: a file left alone that long
     * when it is read settles at once); until then each hit also reads the file and compares its
     * XXH3-128 (no parse), because another writer may rewrite it within the file system's
     * timestamp granularity (one kernel tick on Linux without fine-grained timestamps) keeping its
     * size, time and (in place, or when a rename reuses a freed inode number) its identity. After
     * that, any write gets a later modification time. One exception to the read before settling:
     * a record this store wrote itself while no other writer had a marker in the collection (no
     * other store instance, process or the original open for writing) is trusted on its version
     * as long as the collection's writer-marker folder keeps its modification time, which any
     * writer that registers changes before it writes. An entry also settles before the settle
     * time when its file's modification time is earlier than a time the file system itself set and
     * the store saw before the look that preceded the read (the collection's writer-marker folder's
     * time, or that of a later record file this store wrote; times ahead of this machine's clock
     * are not taken): the file was last written in an earlier clock tick than that look, so any
     * later write gives it a later time. Not seen: a writer that rewrites a settled
     * file in place with the same size and then sets its modification time back (HASH sees it), a
     * program that registers no writer marker and rewrites one of this store's own records within
     * the same clock tick keeping size and time, and a file system whose clock runs more than
     * {@code SETTLE_MILLIS} behind this machine's. (The original compares whole seconds and size
     * only.)
     */
    STAT,
    /** As STAT, and the XXH3-128 of the file's bytes must match: sees in-place rewrites that keep size and time. */
    HASH,
    /** No file checks: the cache is the truth until this process writes or evicts the entry. */
    TRUST;

    /** How long after a file version is first seen STAT begins to trust it without reading the file. */
    public static final long SETTLE_MILLIS = 2_000;

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
