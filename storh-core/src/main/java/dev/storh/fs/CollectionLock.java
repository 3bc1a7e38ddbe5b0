package dev.storh.fs;

import dev.storh.LockTimeoutException;
import dev.storh.StorageException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The write lock of one collection: an in-process
 * {@link ReentrantLock} that orders the threads of this JVM, then {@code flock(2)} {@code LOCK_EX}
 * on the collection's {@code .storh/write.lock} that orders processes, the PHP original included.
 *
 * <p>One lock and one open lock file exist per collection path per JVM, shared by every store
 * instance on that collection (reference counted), so two instances in one JVM never deadlock on
 * each other's {@code flock}. Re-entrant per thread: nested {@link #lock} calls only count. Unlike
 * the original, waiting is bounded by a timeout.
 */
public final class CollectionLock implements AutoCloseable {

    private static final Map<Path, Shared> OPEN = new HashMap<>();

    private final Shared shared;
    private boolean closed;

    private CollectionLock(Shared shared) {
        this.shared = shared;
    }

    /**
     * Opens the shared lock for a lock file; call {@link #close()} when the store closes.
     *
     * @param lockFile {@code <collection>/.storh/write.lock}; its folder must exist
     * @return a handle on the JVM-wide lock for that file
     * @throws StorageException {@code "Could not open collection lock: <path>"}, e.g. when the
     *     lock file is a directory
     */
    public static CollectionLock open(Path lockFile) {
        Path key = lockFile.toAbsolutePath().normalize();
        synchronized (OPEN) {
            Shared shared = OPEN.get(key);
            if (shared != null && !shared.intact()) {
                OPEN.remove(key); // its folder was replaced: old handles keep the old file, this one gets the new
                shared = null;
            }
            if (shared == null) {
                if (Files.isDirectory(key)) {
                    throw new StorageException("Could not open collection lock: " + key + " is a directory");
                }
                try {
                    Flock flock = Flock.open(key);
                    Object fileKey;
                    try {
                        fileKey = Files.readAttributes(key, BasicFileAttributes.class).fileKey();
                    } catch (IOException e) {
                        flock.close();
                        throw e;
                    }
                    shared = new Shared(key, new FileLock(flock, key, fileKey));
                } catch (IOException | RuntimeException | LinkageError e) {
                    throw new StorageException("Could not open collection lock: " + key, e);
                }
                OPEN.put(key, shared);
            }
            shared.references++;
            return new CollectionLock(shared);
        }
    }

    /**
     * Opens the shared lock for a lock that lives elsewhere than in a local file (a blob lease),
     * under the same in-process ordering, re-entrance and timeout rules as {@link #open(Path)}.
     * One {@link ProcessLock} is made per key per JVM and shared by every handle for that key.
     *
     * @param key names the lock (for the JVM-wide sharing and for error messages)
     * @param opener makes the inter-process lock when this JVM has none open for the key
     * @return a handle on the JVM-wide lock for that key; call {@link #close()} when the store closes
     * @throws StorageException {@code "Could not open collection lock: <key>"} when it cannot be made
     */
    public static CollectionLock open(Path key, java.util.function.Supplier<ProcessLock> opener) {
        synchronized (OPEN) {
            Shared shared = OPEN.get(key);
            if (shared == null) {
                try {
                    shared = new Shared(key, opener.get());
                } catch (RuntimeException e) {
                    throw e instanceof StorageException ? e : new StorageException("Could not open collection lock: " + key, e);
                }
                OPEN.put(key, shared);
            }
            shared.references++;
            return new CollectionLock(shared);
        }
    }

    /**
     * The inter-process half of a collection lock ({@code flock} on a local file, a lease on a
     * blob); called by one thread at a time, with the JVM-wide lock held.
     */
    public interface ProcessLock {

        /**
         * @return whether the lock was taken (it is held by this process until {@link #unlock})
         * @throws IOException when the lock state cannot be read or changed
         */
        boolean tryLockExclusive() throws IOException;

        /**
         * Releases the lock taken by {@link #tryLockExclusive()}.
         *
         * @throws IOException when it cannot be released
         */
        void unlock() throws IOException;

        /** Releases whatever the lock holds open; called when the last handle closes. */
        void close();

        /** @return whether the lock still guards what it was opened for (see {@link #checkLockFile()}) */
        default boolean intact() {
            return true;
        }
    }

    /**
     * Takes the lock, waiting at most {@code timeout} in total.
     *
     * @param timeout the longest wait; {@code null} or negative waits without limit
     * @throws LockTimeoutException when the lock stayed held by another thread or process
     * @throws StorageException {@code "Could not take collection lock: <path>"} on a lock error
     */
    public void lock(Duration timeout) {
        long deadline = timeout == null || timeout.isNegative() ? Long.MAX_VALUE : System.nanoTime() + timeout.toNanos();
        ReentrantLock threads = shared.threads;
        try {
            if (deadline == Long.MAX_VALUE) {
                threads.lockInterruptibly();
            } else if (!threads.tryLock(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS)) {
                throw new LockTimeoutException(shared.path, timeout);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new StorageException("Interrupted while waiting for collection lock: " + shared.path, e);
        }
        if (threads.getHoldCount() > 1) {
            return;
        }
        try {
            long pauseMs = 1;
            while (!shared.flock.tryLockExclusive()) {
                if (System.nanoTime() >= deadline) {
                    throw new LockTimeoutException(shared.path, timeout);
                }
                Thread.sleep(Math.min(pauseMs, Math.max(1, (deadline - System.nanoTime()) / 1_000_000)));
                pauseMs = Math.min(pauseMs * 2, 4);
            }
        } catch (InterruptedException e) {
            threads.unlock();
            Thread.currentThread().interrupt();
            throw new StorageException("Interrupted while waiting for collection lock: " + shared.path, e);
        } catch (IOException e) {
            threads.unlock();
            throw new StorageException("Could not take collection lock: " + shared.path, e);
        } catch (RuntimeException e) {
            threads.unlock();
            throw e;
        }
    }

    /**
     * Releases one level of the lock; the outermost release also releases {@code flock}.
     *
     * @throws IllegalMonitorStateException when the calling thread does not hold the lock
     */
    public void unlock() {
        ReentrantLock threads = shared.threads;
        if (!threads.isHeldByCurrentThread()) {
            throw new IllegalMonitorStateException("Collection lock not held: " + shared.path);
        }
        try {
            if (threads.getHoldCount() == 1) {
                shared.flock.unlock();
            }
        } catch (IOException e) {
            throw new StorageException("Could not release collection lock: " + shared.path, e);
        } finally {
            threads.unlock();
        }
    }

    /**
     * @return whether the calling thread holds the lock
     */
    public boolean isHeldByCurrentThread() {
        return shared.threads.isHeldByCurrentThread();
    }

    /**
     * Checks that the lock file is still the one this lock holds open. When a store's folder is
     * deleted or moved while it is open, another opener creates a new lock file and would lock a
     * different file, so both would write at once into files this instance can no longer reach;
     * writers call this with the lock held and stop instead.
     *
     * @throws StorageException {@code "Lock file is gone or was replaced: <path> ..."} naming the path
     */
    public void checkLockFile() {
        if (!shared.intact()) {
            throw new StorageException("Lock file is gone or was replaced: " + shared.path + " (the store's folder was"
                    + " deleted or moved while this instance had it open; nothing was written; reopen the store)");
        }
    }

    /**
     * @return the lock file
     */
    public Path path() {
        return shared.path;
    }

    /** Drops this handle; the lock file is closed when the last handle for it closes. */
    @Override
    public void close() {
        synchronized (OPEN) {
            if (closed) {
                return;
            }
            closed = true;
            if (--shared.references == 0) {
                OPEN.remove(shared.path, shared);
                shared.flock.close();
            }
        }
    }

    private static final class Shared {
        final Path path;
        final ProcessLock flock;
        final ReentrantLock threads = new ReentrantLock();
        int references;

        Shared(Path path, ProcessLock flock) {
            this.path = path;
            this.flock = flock;
        }

        boolean intact() {
            return flock.intact();
        }
    }

    /** {@code flock(2)} on a local lock file that must stay the file it opened. */
    private record FileLock(Flock flock, Path path, Object fileKey) implements ProcessLock {

        @Override
        public boolean tryLockExclusive() throws IOException {
            return flock.tryLockExclusive();
        }

        @Override
        public void unlock() throws IOException {
            flock.unlock();
        }

        @Override
        public void close() {
            flock.close();
        }

        @Override
        public boolean intact() {
            try {
                Object now = Files.readAttributes(path, BasicFileAttributes.class).fileKey();
                return now == null || fileKey == null || now.equals(fileKey);
            } catch (IOException e) {
                return false;
            }
        }
    }
}
