package dev.storh.azure.blob;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/**
 * One store's current lease tenure in this JVM: from the moment a lease on one of the store's
 * locks is taken to its release, the ETag at which the thread holding it first saw each record
 * blob (a read or a version check), updated by every write this JVM makes meanwhile. While this
 * JVM holds the lease nobody else may write, so a record blob's ETag can differ from the one kept
 * here only when the lease was lost unnoticed (the holder paused past its duration and another
 * instance took the lease and wrote). {@link BlobFiles} therefore replaces and deletes a record
 * blob seen in the tenure on the condition that it is still at that ETag ({@code If-Match}, or
 * {@code If-None-Match: *} when it was seen missing): the stale write fails with
 * {@link dev.storh.VersionConflictException} instead of overwriting the newer record.
 *
 * <p>Shared by every {@link BlobFiles} of the store in this JVM (found by container URL and store
 * name, as the lock itself is JVM-wide). Thread-safe.
 */
final class LeaseTenure {

    /** The ETag kept for a record blob seen missing. */
    static final String ABSENT = "";

    private static final ConcurrentMap<String, LeaseTenure> TENURES = new ConcurrentHashMap<>();

    private final ConcurrentMap<String, String> seen = new ConcurrentHashMap<>();
    private volatile Thread holder;
    private volatile boolean active;

    private LeaseTenure() {
    }

    /**
     * @param containerUrl the container's URL
     * @param store the store's name in it
     * @return the store's tenure in this JVM
     */
    static LeaseTenure of(String containerUrl, String store) {
        return TENURES.computeIfAbsent(containerUrl + "\n" + store, k -> new LeaseTenure());
    }

    /** The calling thread has just taken the lease. */
    synchronized void begin() {
        seen.clear();
        holder = Thread.currentThread();
        active = true;
    }

    /** The lease is being released: nothing kept any longer. */
    synchronized void end() {
        active = false;
        holder = null;
        seen.clear();
    }

    /**
     * @param name a record file's seam name
     * @param etag the ETag a read or version check found, {@link #ABSENT} when missing
     */
    void saw(String name, String etag) {
        if (active && holder == Thread.currentThread()) {
            seen.putIfAbsent(name, etag);
        }
    }

    /**
     * @param name a record file's seam name
     * @param etag the ETag this JVM's write gave it, {@link #ABSENT} after a delete
     */
    void wrote(String name, String etag) {
        if (active) {
            seen.put(name, etag);
        }
    }

    /**
     * @param name a record file's seam name
     * @return the ETag it must still have to be replaced or deleted ({@link #ABSENT}: it must not
     *     exist), or {@code null} when no tenure is on or it was not seen in it
     */
    String expected(String name) {
        return active ? seen.get(name) : null;
    }
}
