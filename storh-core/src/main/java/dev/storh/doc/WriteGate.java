package dev.storh.doc;

import dev.storh.StorageException;
import dev.storh.fs.AtomicFiles;
import dev.storh.fs.CollectionLock;
import dev.storh.fs.SafePaths;
import dev.storh.fs.WriterMarkers;
import java.nio.file.Path;
import java.time.Duration;
import java.util.function.Supplier;

/**
 * The write side of one open collection: its lock ({@code .storh/write.lock}, opened on first
 * use), its writer marker (registered before its first write, removed on close) and its closed
 * state. Every write of a {@link DocStore} runs through {@link #withWriteLock}. Thread-safe.
 */
final class WriteGate {

    private final Path collectionRoot;
    private final DocLayout layout;
    private final Duration lockTimeout;
    private final Path marker;
    private final Object lifecycle = new Object();
    private volatile CollectionLock lock;
    private volatile boolean markerRegistered;
    private volatile boolean closed;

    /**
     * @param layout the collection's layout
     * @param writerPrefix this instance's {@code <pid>.<8 hex>}, which names its marker
     * @param lockTimeout the longest wait for the lock
     */
    WriteGate(DocLayout layout, String writerPrefix, Duration lockTimeout) {
        this.collectionRoot = layout.root();
        this.layout = layout;
        this.lockTimeout = lockTimeout;
        this.marker = layout.writerMarker(writerPrefix);
    }

    /**
     * Runs an action under the write lock, after checking that no folder written to is a link and
     * registering this instance's writer marker (once). Re-entrant.
     */
    <T> T withWriteLock(Supplier<T> action) {
        CollectionLock l = lock();
        l.lock(lockTimeout);
        try {
            // Writes go to data/ and .storh/: never through a link that may leave the collection.
            SafePaths.requireNoLinks(collectionRoot, layout.dataDir());
            SafePaths.requireNoLinks(collectionRoot, marker.getParent());
            SafePaths.requireNoLinks(collectionRoot, layout.indexEntriesDir());
            if (!markerRegistered) {
                registerMarker();
            }
            return action.get();
        } finally {
            l.unlock();
        }
    }

    /**
     * Runs an action under the write lock only when the lock is free at once; no marker is
     * registered (the action writes no record).
     *
     * @return whether the action ran: false when another thread or process holds the lock, or no
     *     lock file can be opened (closed store, read-only file system)
     */
    boolean ifFreeNow(Runnable action) {
        CollectionLock l;
        try {
            l = lock();
            l.lock(Duration.ZERO);
        } catch (StorageException busyOrReadOnly) {
            return false;
        }
        try {
            action.run();
            return true;
        } finally {
            l.unlock();
        }
    }

    /**
     * Runs an action under the write lock when a lock file can be opened, else without it.
     *
     * @param locked the action under the lock
     * @param unlocked what to return when no lock can be opened (closed, read-only)
     */
    <T> T lockedOr(Supplier<T> locked, Supplier<T> unlocked) {
        CollectionLock l;
        try {
            l = lock();
        } catch (StorageException cannotLock) {
            return unlocked.get();
        }
        l.lock(lockTimeout);
        try {
            return locked.get();
        } finally {
            l.unlock();
        }
    }

    /** @return whether the calling thread holds the write lock */
    boolean heldByCurrentThread() {
        CollectionLock held = lock;
        return held != null && held.isHeldByCurrentThread();
    }

    private CollectionLock lock() {
        CollectionLock l = lock;
        if (closed) {
            throw closedError();
        }
        if (l != null) {
            return l;
        }
        synchronized (lifecycle) {
            if (closed) {
                throw closedError();
            }
            if (lock == null) {
                Path lockFile = layout.lockFile();
                SafePaths.requireNoLinks(collectionRoot, lockFile);
                AtomicFiles.ensureDirectory(lockFile.getParent());
                lock = CollectionLock.open(lockFile);
            }
            return lock;
        }
    }

    private StorageException closedError() {
        return new StorageException("DocStore is closed: " + collectionRoot);
    }

    private void registerMarker() {
        synchronized (lifecycle) {
            if (!markerRegistered) {
                WriterMarkers.register(marker);
                markerRegistered = true;
            }
        }
    }

    /** Removes the marker and drops the lock; idempotent. */
    void close() {
        synchronized (lifecycle) {
            if (closed) {
                return;
            }
            closed = true;
            if (markerRegistered) {
                AtomicFiles.deleteQuietly(marker);
                AtomicFiles.syncDirectory(marker.getParent());
            }
            if (lock != null) {
                lock.close();
            }
        }
    }
}
