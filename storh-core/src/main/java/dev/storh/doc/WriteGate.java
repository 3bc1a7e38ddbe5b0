package dev.storh.doc;

import dev.storh.StorageException;
import dev.storh.fs.AtomicFiles;
import dev.storh.fs.CollectionLock;
import dev.storh.fs.SafePaths;
import dev.storh.fs.StoreFiles;
import dev.storh.fs.WriterMarkers;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;

/**
 * The write side of one open collection: its lock ({@code .storh/write.lock}, opened on first
 * use), its writer marker and its closed state. Every write of a {@link DocStore} runs through
 * {@link #withWriteLock}. Thread-safe.
 *
 * <p>The marker says "this instance may have written something that is not durable yet, or not
 * matched by the indexes yet": it is registered (and its folder fsynced) before the first write,
 * and removed only after what was written lazily (index files, see
 * {@link dev.storh.doc.index.IndexManager#syncDeferred()}) has been fsynced, either on close or
 * once the store has been idle for {@link #IDLE_CHECKPOINT} (the next write registers it again).
 * So a writer that crashes leaves a stale marker exactly when the next open has to rebuild the
 * indexes, and a copy of an idle or closed collection opens without one.
 */
final class WriteGate {

    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(DocStore.class);

    /** How long after its last write an instance makes its lazy writes durable and removes its marker. */
    static final Duration IDLE_CHECKPOINT = Duration.ofSeconds(5);

    private static final ScheduledExecutorService CHECKPOINTS = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "storh-doc-checkpoint");
        t.setDaemon(true);
        return t;
    });

    private final Path collectionRoot;
    private final DocLayout layout;
    private final StoreFiles files;
    private final Duration lockTimeout;
    private final String marker;
    /** The folders every write goes to, checked for links on each hold of the lock ({@code .storh/} once). */
    private final java.util.List<String> writtenFolders;
    private final String indexesDir;
    /** Whether the last check of {@link #writtenFolders} found no {@code .storh/indexes/} (guarded by the lock). */
    private boolean indexFolderAbsent;
    private final Object lifecycle = new Object();
    private volatile CollectionLock lock;
    private volatile boolean markerRegistered;
    private volatile boolean closed;
    private volatile Runnable syncLazyWrites = () -> { };
    private volatile java.util.function.BooleanSupplier recordsPending = () -> false;
    private volatile Runnable beforeDirectWrites = () -> { };
    private volatile java.util.function.BooleanSupplier syncAheadStep = () -> true;
    private final java.util.concurrent.atomic.AtomicInteger waiting = new java.util.concurrent.atomic.AtomicInteger();
    private final AtomicBoolean syncAheadScheduled = new AtomicBoolean();
    private final AtomicBoolean checkpointScheduled = new AtomicBoolean();
    private volatile long lastWriteNanos;
    /** Entries and exits of the outermost lock hold: odd while this instance writes (see {@link #writes()}). */
    private final java.util.concurrent.atomic.AtomicLong writes = new java.util.concurrent.atomic.AtomicLong();
    /** How deep the holding thread has entered the lock (guarded by the lock). */
    private int depth;

    /**
     * @param files the collection's byte seam
     * @param layout the collection's layout
     * @param writerPrefix this instance's {@code <pid>.<8 hex>}, which names its marker
     * @param lockTimeout the longest wait for the lock
     */
    WriteGate(StoreFiles files, DocLayout layout, String writerPrefix, Duration lockTimeout) {
        this.collectionRoot = layout.root();
        this.layout = layout;
        this.files = files;
        this.lockTimeout = lockTimeout;
        this.marker = files.nameOf(layout.writerMarker(writerPrefix));
        this.indexesDir = files.nameOf(layout.indexesDir());
        this.writtenFolders = java.util.List.of(files.nameOf(layout.dataDir()), AtomicFiles.parentName(marker),
                files.nameOf(layout.indexEntriesDir()));
    }

    /**
     * Runs an action under the write lock, after checking that no folder written to is a link and
     * registering this instance's writer marker (once). Re-entrant.
     */
    <T> T withWriteLock(Supplier<T> action) {
        return locked(action, true);
    }

    /**
     * {@link #withWriteLock} without the hook of {@link #beforeDirectWrites}: for record writes, which
     * look at the batch journal themselves.
     */
    <T> T withJournalLock(Supplier<T> action) {
        return locked(action, false);
    }

    private <T> T locked(Supplier<T> action, boolean direct) {
        requireFolder();
        boolean outermost = !heldByCurrentThread();
        CollectionLock l = lock();
        take(l);
        try {
            // Writes go to data/ and .storh/: never through a link that may leave the collection.
            // data/ is then known to be no link for the whole hold (RecordReads#checkedPathUnderLock).
            indexFolderAbsent = SafePaths.requireNoLinks(files, writtenFolders).contains(indexesDir);
            if (!markerRegistered) {
                registerMarker();
            }
            return held(() -> {
                if (direct && outermost) {
                    beforeDirectWrites.run();
                }
                return action.get();
            });
        } finally {
            l.unlock();
        }
    }

    /** Takes the lock, counted as waiting meanwhile (a {@link #syncAheadInSteps} run then lets it in). */
    private void take(CollectionLock l) {
        waiting.incrementAndGet();
        try {
            l.lock(lockTimeout);
        } finally {
            waiting.decrementAndGet();
        }
    }

    /** Runs an action while the lock is held, counting the outermost hold in {@link #writes()}. */
    private <T> T held(Supplier<T> action) {
        if (depth++ == 0) {
            writes.incrementAndGet();
        }
        try {
            return action.get();
        } finally {
            if (--depth == 0) {
                writes.incrementAndGet();
            }
        }
    }

    /**
     * @return how many times this instance has taken or released its write lock (outermost holds):
     *     odd while a write is under way; index state checked while it stays even and unchanged is
     *     still what this instance's files hold, as far as its own writes go
     */
    long writes() {
        return writes.get();
    }

    /**
     * @return whether {@code .storh/indexes/} was absent when the calling thread took the write lock
     *     in {@link #withWriteLock} or {@link #withJournalLock} (the innermost hold): no index is
     *     defined then, and none can be until this thread writes a manifest itself. Call from the
     *     action, before it defines indexes.
     */
    boolean indexFolderAbsent() {
        return indexFolderAbsent;
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
            held(() -> {
                action.run();
                return null;
            });
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
        take(l);
        try {
            return held(locked);
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
                String lockFile = files.nameOf(layout.lockFile());
                SafePaths.requireNoLinks(files, lockFile);
                AtomicFiles.ensureDirectory(files, AtomicFiles.parentName(lockFile));
                lock = files.lock(lockFile);
            }
            return lock;
        }
    }

    /**
     * A collection folder deleted while the store is open is never recreated by a write: the
     * records it held are gone, and a write would make that look like a clean, smaller store.
     */
    private void requireFolder() {
        if (!DocRecovery.isDirectory(files, "")) {
            throw new StorageException("DocStore folder is missing: " + collectionRoot + " (deleted while the store"
                    + " was open; nothing is written, and reopening starts an empty collection)");
        }
    }

    private StorageException closedError() {
        return new StorageException("DocStore is closed: " + collectionRoot);
    }

    private void registerMarker() {
        synchronized (lifecycle) {
            if (!markerRegistered) {
                WriterMarkers.register(files, marker);
                markerRegistered = true;
            }
        }
    }

    /**
     * Marks the collection so that its next open rebuilds the indexes (a marker of a writer that no
     * process owns); logs a warning. Best effort: never throws.
     */
    void markIndexDrift() {
        LOG.warn("{}: a failed write may have left the indexes out of line with the records; the next open"
                + " rebuilds them (reindex() does now)", collectionRoot);
        try {
            WriterMarkers.register(files, files.nameOf(layout.driftMarker()));
        } catch (StorageException notMarked) {
            LOG.warn("{}: could not mark the indexes for a rebuild: {}", collectionRoot, notMarked.getMessage());
        }
    }

    /**
     * @param sync fsyncs what this instance's writes left for later (run under the write lock
     *     before the marker is removed); throws when it cannot, and the marker then stays
     */
    void syncBeforeRelease(Runnable sync) {
        syncBeforeRelease(sync, () -> false);
    }

    /**
     * @param sync as {@link #syncBeforeRelease(Runnable)}
     * @param recordsPending whether acknowledged record writes are still durable only in the batch
     *     journal: when {@code sync} fails on close, the marker then stays too (the next open after a
     *     crash replays the journal); index files alone are only marked for a rebuild
     */
    void syncBeforeRelease(Runnable sync, java.util.function.BooleanSupplier recordsPending) {
        this.syncLazyWrites = sync;
        this.recordsPending = recordsPending;
    }

    /**
     * @param retire run under the write lock (after the marker is registered) when a thread takes it
     *     through {@link #withWriteLock}, not already holding it: the batch journal's replay while an
     *     open recovers
     */
    void beforeDirectWrites(Runnable retire) {
        this.beforeDirectWrites = retire;
    }

    /**
     * @param step one step of the work a checkpoint can do ahead of itself without holding the
     *     lock throughout (the batch journal's fsyncs, {@link BatchJournal#syncAhead}); run under
     *     the lock, it returns whether nothing is left
     */
    void syncAheadInSteps(java.util.function.BooleanSupplier step) {
        this.syncAheadStep = step;
    }

    /** Runs the steps of {@link #syncAheadInSteps} soon on the checkpoint thread, between writes. */
    void syncAheadSoon() {
        if (syncAheadScheduled.compareAndSet(false, true)) {
            CHECKPOINTS.execute(() -> {
                syncAheadScheduled.set(false);
                syncAhead();
            });
        }
    }

    /**
     * Runs the steps of {@link #syncAheadInSteps}, each under the lock when it is free, until
     * nothing is left, and stops as soon as a thread of this instance waits for the lock or a write
     * ended meanwhile: a writer waits for one step at most.
     *
     * @return whether nothing is left
     */
    private boolean syncAhead() {
        long since = lastWriteNanos;
        boolean[] done = {false};
        while (!closed && waiting.get() == 0 && lastWriteNanos == since) {
            if (!ifFreeNow(() -> done[0] = syncAheadStep.getAsBoolean())) {
                return false;
            }
            if (done[0]) {
                return true;
            }
        }
        return false;
    }

    /** Notes a write that ended: an idle checkpoint follows once no write came for {@link #IDLE_CHECKPOINT}. */
    void wrote() {
        lastWriteNanos = System.nanoTime();
        scheduleCheckpoint(IDLE_CHECKPOINT.toNanos());
    }

    private void scheduleCheckpoint(long delayNanos) {
        if (checkpointScheduled.compareAndSet(false, true)) {
            CHECKPOINTS.schedule(this::idleCheckpoint, delayNanos, TimeUnit.NANOSECONDS);
        }
    }

    private void idleCheckpoint() {
        checkpointScheduled.set(false);
        if (closed || !markerRegistered) {
            return;
        }
        long idle = System.nanoTime() - lastWriteNanos;
        if (idle < IDLE_CHECKPOINT.toNanos()) {
            scheduleCheckpoint(IDLE_CHECKPOINT.toNanos() - idle); // written to since: wait for the rest
        } else if ((!syncAhead() || !ifFreeNow(this::checkpoint)) && !closed) {
            scheduleCheckpoint(IDLE_CHECKPOINT.toNanos()); // busy: try again later
        }
    }

    /**
     * Makes this instance's lazy writes durable and removes its marker; the next write registers
     * it again. Call under the write lock. A failed sync is logged and the marker stays.
     *
     * @return whether the marker is gone
     */
    boolean checkpoint() {
        return checkpoint(false);
    }

    /**
     * @param closing whether the store closes: a failed sync then marks the collection for an index
     *     rebuild (the marker of a live process would not) and the marker goes all the same
     */
    private boolean checkpoint(boolean closing) {
        synchronized (lifecycle) {
            if (!markerRegistered) {
                return true;
            }
            try {
                syncLazyWrites.run();
            } catch (RuntimeException notSynced) {
                if (!closing || recordsPending.getAsBoolean()) {
                    LOG.warn("{}: could not make the batch journal's records or the index files durable; the writer"
                            + " marker stays, so the next open after a crash recovers them: {}", collectionRoot,
                            notSynced.getMessage());
                    return false;
                }
                markIndexDrift();
            }
            markerRegistered = false;
            AtomicFiles.deleteQuietly(files, marker);
            try {
                AtomicFiles.syncDirectory(files, AtomicFiles.parentName(marker));
            } catch (StorageException notSynced) {
                // a marker that comes back after a power cut only makes the next open recover
            }
            return true;
        }
    }

    /**
     * Makes the lazy writes durable and removes the marker (under the write lock when it can be
     * had; when it cannot, the marker stays and the next open recovers), then drops the lock;
     * idempotent.
     */
    void close() {
        if (closed) {
            return;
        }
        if (markerRegistered) {
            try {
                lockedOr(() -> checkpoint(true), () -> false);
            } catch (StorageException lockNotHad) {
                LOG.warn("{}: closed without the write lock; the writer marker stays: {}", collectionRoot,
                        lockNotHad.getMessage());
            }
        }
        synchronized (lifecycle) {
            if (closed) {
                return;
            }
            closed = true;
            if (lock != null) {
                lock.close();
            }
        }
    }
}
