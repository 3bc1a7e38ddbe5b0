package dev.storh.log;

import dev.storh.StorageException;
import dev.storh.fs.AtomicFiles;
import dev.storh.fs.CollectionLock;
import dev.storh.fs.ReadOnlyFileSystem;
import dev.storh.fs.StoreFiles;
import dev.storh.fs.WriterMarkers;
import dev.storh.observe.Observed;
import dev.storh.observe.StoreOperation;
import dev.storh.store.StoreKind;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * What the parts of one open {@link SegmentedLog} share: its folder and options, its segment set
 * ({@link LogState}), its collection lock and its append path ({@link LogWriter}), and the locking
 * rules every part follows: readers catch up with other processes first ({@link #refreshIfStale}),
 * writers take the collection lock and check its file ({@link #withWriteLock}). Thread-safe.
 */
final class LogContext {

    final Path dir;
    /** The collection path the log was opened with, for the observer. */
    final String name;
    final SegmentedLogOptions options;
    final LogState state;
    final CollectionLock lock;
    final LogWriter writer;
    /** This instance's writer marker, {@code .storh/writers/<pid>.<8 hex>}. */
    private final String marker;
    /** Whether another writer can have changed the files since this instance last caught up. */
    final OtherWriters writers;

    private LogContext(Path dir, String name, StoreFiles files, SegmentedLogOptions options, CollectionLock lock,
            boolean readOnly) {
        this.dir = dir;
        this.name = name;
        this.options = options;
        this.lock = lock;
        this.state = new LogState(files, dir, options.sparseIndexInterval(), readOnly);
        String prefix = WriterMarkers.newWriterPrefix();
        this.marker = LogFiles.writerMarker(prefix);
        this.writers = new OtherWriters(files, readOnly ? null : prefix);
        this.writer = new LogWriter(state, lock, options, writers);
    }

    /**
     * Opens (creating when missing) the log in a folder: creates the folder and {@code segments/},
     * opens the lock file, then, under the collection lock, on a read-only file system only reads
     * what is there (no sweep, marker, cut or manifest write); otherwise sweeps orphan temp files when
     * a writer crashed, registers this instance's writer marker, deletes leftovers, scans every
     * segment (cutting torn tails) and rewrites the manifest when its statistics changed.
     *
     * @param dir the log's folder (the partition folder when partitioned), absolute
     * @param name the collection path
     * @param options the log's options
     * @return the open log's parts
     * @throws StorageException naming the path; the marker is removed and the lock released again
     */
    static LogContext open(Path dir, String name, SegmentedLogOptions options) {
        boolean readOnly = Files.isDirectory(dir) && ReadOnlyFileSystem.isReadOnly(dir);
        if (!readOnly) {
            LogFiles.ensureCollectionDir(dir, options::files);
        }
        StoreFiles files = options.files(dir);
        if (!readOnly) {
            LogState.mkdirs(files, LogFiles.SEGMENTS);
        }
        CollectionLock lock;
        try {
            lock = files.lock(LogFiles.LOCK);
        } catch (StorageException e) {
            throw readOnly ? new StorageException(e.getMessage() + " (" + ReadOnlyFileSystem.READ_ONLY + ")", e) : e;
        }
        LogContext log = new LogContext(dir, name, files, options, lock, readOnly);
        try {
            log.withLock(() -> {
                if (readOnly) {
                    log.state.load(false);
                } else {
                    WriterMarkers.sweepOnOpen(files);
                    log.registerMarker();
                    Leftovers.delete(log.state);
                    log.state.load(true);
                    log.state.writeManifest();
                }
            });
        } catch (RuntimeException e) {
            AtomicFiles.deleteQuietly(files, log.marker);
            lock.close();
            throw e;
        }
        return log;
    }

    private void registerMarker() {
        StoreFiles files = state.files;
        LogState.mkdirs(files, AtomicFiles.parentName(marker));
        try {
            if (!files.exists(marker)) {
                files.append(marker).close();
                files.syncDirectory(AtomicFiles.parentName(marker));
            }
        } catch (IOException | RuntimeException e) {
            throw new StorageException("Could not register storage writer marker: " + files.path(marker)
                    + ReadOnlyFileSystem.hint(e), e);
        }
    }

    /** Removes this instance's writer marker (at close), best effort. */
    void removeMarker() {
        if (!state.readOnly && AtomicFiles.deleteQuietly(state.files, marker)) {
            try {
                state.files.syncDirectory(AtomicFiles.parentName(marker));
            } catch (IOException ignored) {
                // the marker is gone from this process's view; a crash may bring it back, and a sweep handles that
            }
        }
    }

    /**
     * Catches up with other processes when the manifest or the active segment changed behind this
     * instance's back (W1). Costs one {@code stat} while no other writer is registered
     * ({@link OtherWriters}), else two when nothing changed.
     *
     * @return whether no other writer can have changed the files since this instance last caught up
     *     (the one-{@code stat} case); false when the files were looked at
     */
    boolean refreshIfStale() {
        if (state.rebuild) {
            withLock(() -> state.refresh(false, -1));
            return false;
        }
        long folder = writers.folderMillis();
        if (writers.noneSince(folder)) {
            return true;
        }
        Segment a = state.active;
        Object stamp = Manifest.stamp(state.files);
        if (Manifest.same(stamp, state.stamp)) {
            StoreFiles.Entry entry = state.entry(a.file);
            long size = entry == null ? -1 : entry.size();
            if (size == a.end || writer.isOwnWrite(a.file, size)) {
                long manifestMillis = stamp instanceof String v ? state.files.modifiedMillis(v) : -1;
                writers.look(folder, Math.max(manifestMillis, entry == null ? -1 : entry.lastModifiedMillis()));
                return false;
            }
        }
        withLock(() -> state.refresh(false, -1));
        return false;
    }

    /**
     * @param what the operation, for the read-only refusal ({@code "compact log"})
     * @param action runs with the collection lock held and its lock file checked
     * @throws dev.storh.StorageException on a read-only file system, a lock timeout or a replaced lock file
     */
    void withWriteLock(String what, Runnable action) {
        if (state.readOnly) {
            throw ReadOnlyFileSystem.refused(what, dir);
        }
        withLock(() -> {
            lock.checkLockFile();
            action.run();
        });
    }

    void withLock(Runnable action) {
        lock.lock(options.lockTimeout());
        try {
            action.run();
        } finally {
            lock.unlock();
        }
    }

    /**
     * Runs a data operation, timed for the options' observer (when there is one).
     *
     * @param operation what runs
     * @param action the operation
     */
    void observed(StoreOperation operation, Runnable action) {
        Observed.run(options.observer(), StoreKind.LOG, name, operation, action);
    }

    /** @return the sealed segments, then the active one */
    List<Segment> allSegments() {
        List<Segment> segments = new ArrayList<>(state.sealed);
        segments.add(state.active);
        return segments;
    }

    /** @return the statistics of the in-memory picture, without catching up first */
    LogStats stats() {
        return stats(false);
    }

    /**
     * @param trustSealed whether sealed segment sizes seen before may be used ({@link LogState#bytes(boolean)})
     * @return the statistics of the in-memory picture, without catching up first
     */
    LogStats stats(boolean trustSealed) {
        StateIndex index = state.index;
        return new LogStats(state.sealed.size() + 1L, index.live(), index.deleted(), state.bytes(trustSealed));
    }
}
