package dev.storh.queue;

import dev.storh.LockTimeoutException;
import dev.storh.StorageException;
import dev.storh.fs.AtomicFiles;
import dev.storh.fs.CollectionLock;
import dev.storh.fs.ReadOnlyFileSystem;
import dev.storh.fs.StoreFiles;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One instance's view of {@code queue.log} under the queue lock: the {@link QueueState} replayed
 * from it, how far it was read, and the damaged stretches skipped. Before every operation
 * ({@link #sync}) it applies what other instances and processes appended, re-reads the whole file
 * when another one was renamed over the name (a compaction) or it got shorter, and, for a writer,
 * cuts an undecodable tail a crashed writer left (W8). {@link #commit} appends a batch whose events
 * the state already applied, with one fsync, and compacts when due.
 *
 * <p><b>Compaction</b> ({@link #compact}), under the queue lock: the live events go to
 * {@code .queue.log.<12 hex>.tmp}, which is fsynced, renamed over {@code queue.log}, and the folder
 * fsynced (a crash leaves the old or the new log; leftover temp files are deleted on open). Every
 * instance, before each read or append, compares the identity (device and inode) of the file it
 * holds with the one {@code queue.log} names; if they differ, or the file got shorter than what it
 * applied, it re-reads the new file from the start. Holding the old file open keeps its inode from
 * being reused, so the check cannot be fooled, and appends always go to the file just checked, so
 * no instance writes into a renamed-away log.
 *
 * <p>Memory is never ahead of disk after an error: a failed append is cut back and the state
 * dropped, so the next call re-reads the log (W5). When even the cut back fails, the failed bytes
 * are remembered and cut before anything else reads the log, so events whose callers were told
 * "failed" are never replayed by this instance.
 *
 * <p>Thread-safe through {@link #locked}: every other method must be called inside it.
 */
final class QueueJournal implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(QueueJournal.class);

    private final Path directory;
    private final QueueOptions options;
    private final QueueLogFile log;
    private final CollectionLock lock;
    private final boolean readOnly;
    private final Object lifecycle = new Object();
    private volatile boolean closed;

    /** What the last locked operation left, for {@link #lastCounts()} and {@link #nothingProcessing()}. */
    private volatile Seen seen = new Seen(new QueueCounts(0, 0, 0), -1, null);

    /**
     * The end of a locked operation: the counts, and how far it had read which file.
     *
     * @param counts the job counts then
     * @param offset the bytes of the log applied then
     * @param identity the identity of the log file held then, or null
     */
    private record Seen(QueueCounts counts, long offset, Object identity) {
    }

    // Guarded by the queue lock.
    private QueueState state;
    private long offset;
    private long lines;
    /** The 1-based number of the line that starts at {@link #offset}. */
    private long lineNo = 1;
    /** Damaged stretches of the held file that were skipped (kept in the log until a repair). */
    private final List<QueueLogScanner.Damage> damaged = new ArrayList<>();
    /** Where a failed append could not be cut back to, or -1: cut there before reading again. */
    private long failedAppendAt = -1;
    /** The offset the last {@link #sync} saw the held file end at (under the lock), or -1. */
    private long checkedEnd = -1;

    private QueueJournal(Path directory, QueueOptions options, StoreFiles files, CollectionLock lock, boolean readOnly) {
        this.directory = directory;
        this.options = options;
        this.readOnly = readOnly;
        this.log = new QueueLogFile(files, readOnly);
        this.lock = lock;
    }

    /**
     * Creates the queue folder when missing (fsyncing it and its parent, so a new queue survives a
     * power loss), opens the lock file and replays the log under the lock (deleting compaction
     * leftovers and cutting a bad tail unless the file system is read-only).
     *
     * @param directory the queue folder
     * @param options the queue's options, whose seam factory gives the folder's files
     * @return the journal, up to date
     * @throws StorageException {@code "Could not create storage directory: <dir>"},
     *     {@code "Could not open log queue lock: <path>"}, or as {@link QueueLogFile#open()}
     */
    static QueueJournal open(Path directory, QueueOptions options) {
        StoreFiles parent = options.files(directory.getParent());
        StoreFiles files = options.files(directory);
        boolean readOnly = files.isReadOnly();
        if (!readOnly) {
            AtomicFiles.ensureStoreFolder(parent, directory.getFileName().toString(), files);
        }
        CollectionLock lock;
        try {
            lock = files.lock(QueueFiles.LOCK_NAME);
        } catch (StorageException e) {
            throw new StorageException("Could not open log queue lock: " + files.path(QueueFiles.LOCK_NAME)
                    + (readOnly ? " (" + ReadOnlyFileSystem.READ_ONLY + ")" : ""), e);
        }
        QueueJournal journal = new QueueJournal(directory, options, files, lock, readOnly);
        try {
            journal.locked(() -> {
                if (!readOnly) {
                    journal.log.deleteLeftovers();
                }
                journal.reload(!readOnly);
                return null;
            });
        } catch (RuntimeException e) {
            journal.log.close();
            lock.close();
            throw e;
        }
        return journal;
    }

    /**
     * Runs {@code body} holding the queue lock (in-process and {@code flock(2)}).
     *
     * @throws StorageException {@code "Queue is closed: <dir>"}, {@code "Could not lock log queue: <path>"};
     *     {@link LockTimeoutException} when the lock stays held
     */
    <T> T locked(Supplier<T> body) {
        if (closed) {
            throw new StorageException("Queue is closed: " + directory);
        }
        try {
            lock.lock(options.lockTimeout());
        } catch (LockTimeoutException e) {
            throw e;
        } catch (StorageException e) {
            throw new StorageException("Could not lock log queue: " + lock.path(), e);
        }
        try {
            if (closed) {
                throw new StorageException("Queue is closed: " + directory);
            }
            return body.get();
        } finally {
            QueueState current = state;
            if (current != null) {
                seen = new Seen(current.counts(), offset, log.heldIdentity());
            }
            lock.unlock();
        }
    }

    /** @return the counts at the end of the last locked operation, without locking */
    QueueCounts lastCounts() {
        return seen.counts();
    }

    /**
     * Tells, without the lock, that no job is processing: the last locked operation of this
     * instance saw none, and the log still is the file it read, with no byte it did not apply (one
     * {@code stat} of the name). When it cannot tell (another writer appended or compacted since,
     * the seam has no file identities, the file system is read-only) it answers false and the
     * caller takes the lock.
     *
     * @return true only when a requeue would find nothing to requeue
     */
    boolean nothingProcessing() {
        Seen last = seen;
        return !closed && !readOnly && last.counts().processing() == 0 && last.identity() != null
                && log.unchangedSince(last.offset(), last.identity());
    }

    /** @return the state; call after {@link #sync} */
    QueueState state() {
        return state;
    }

    /** @return the offset after the last good line read */
    long offset() {
        return offset;
    }

    /** @return good lines in the held file */
    long lines() {
        return lines;
    }

    /** @return damaged stretches skipped in the held file */
    List<QueueLogScanner.Damage> damaged() {
        return damaged;
    }

    /** @return the log's bytes */
    QueueLogFile log() {
        return log;
    }

    /** Drops the state: the next {@link #sync} re-reads the log from the start. */
    void forget() {
        state = null;
    }

    /** Before any write: refuse on a read-only file system or when the folder was replaced. */
    void checkWritable() {
        if (readOnly) {
            throw ReadOnlyFileSystem.refused("write to log queue", log.path());
        }
        lock.checkLockFile();
    }

    /**
     * Brings the state up to date with the log. A different file behind the name (a compaction),
     * or a shorter one, means a full re-read; otherwise the new lines are applied. Damaged lines
     * followed by good ones are skipped; reading stops before a bad tail, which a writer
     * ({@code forWrite}) then cuts, since under the lock it can only be a crashed writer's leftover
     * (W8), as the next open would. A writer first checks it may write at all.
     */
    void sync(boolean forWrite) {
        if (forWrite) {
            checkWritable();
        }
        cutFailedAppend();
        checkedEnd = -1;
        long size = state == null || (forWrite && !log.appendable()) ? -1 : log.currentSize();
        if (size < 0 || size < offset) {
            reload(forWrite);
            return;
        }
        if (size == offset) {
            checkedEnd = offset;
            return;
        }
        QueueLogScanner.Scan scan;
        try {
            scan = log.read(offset, lineNo, nowSeconds(), state::apply);
        } catch (IOException e) {
            state = null;
            throw new StorageException("Could not read log queue file: " + log.path(), e);
        }
        took(scan);
        if (scan.error() != null && forWrite) {
            cutAt(scan);
        }
    }

    private void took(QueueLogScanner.Scan scan) {
        offset = scan.end();
        lines += scan.lines();
        lineNo = scan.endLine();
        for (QueueLogScanner.Damage d : scan.damaged()) {
            damaged.add(d);
            LOG.warn("Skipped {} damaged bytes in {} at byte {} (line {}): {}; the events after them are kept",
                    d.length(), log.path(), d.offset(), d.line(), d.problem());
        }
    }

    /**
     * Replays the whole log into a fresh state, skipping damaged lines inside it.
     *
     * @param cut whether to cut a bad tail
     * @return what was cut
     */
    QueueLogFile.Cut reload(boolean cut) {
        state = null;
        log.open();
        QueueState fresh = new QueueState();
        QueueLogScanner.Scan scan;
        try {
            scan = log.read(0, 1, nowSeconds(), fresh::apply);
        } catch (IOException e) {
            throw new StorageException("Could not read log queue file: " + log.path(), e);
        }
        state = fresh;
        offset = 0;
        lines = 0;
        damaged.clear();
        took(scan);
        return scan.error() != null && cut ? cutAt(scan) : new QueueLogFile.Cut(0, null);
    }

    private QueueLogFile.Cut cutAt(QueueLogScanner.Scan scan) {
        QueueLogFile.Cut cut = log.cut(scan.end());
        if (cut.bytes() > 0) {
            LOG.warn("Cut {} bytes from {} at byte {} (line {}): {}{}", cut.bytes(), log.path(), scan.end(),
                    scan.endLine(), scan.error(), cut.keptIn() == null ? "" : "; kept in " + cut.keptIn());
        }
        return cut;
    }

    /** @return whether the held log has bytes past {@code at}; true when its size cannot be read */
    private boolean fileLongerThan(long at) {
        try {
            return log.size() > at;
        } catch (RuntimeException e) {
            return true;
        }
    }

    /** Cuts the bytes of a failed append whose roll back failed, before anything reads them as events. */
    private void cutFailedAppend() {
        if (failedAppendAt < 0) {
            return;
        }
        try {
            if (log.size() > failedAppendAt) { // else nothing of the failed write reached the file (an immutable log)
                log.rollBack(failedAppendAt);
            }
        } catch (IOException | RuntimeException e) {
            throw new StorageException("Could not cut the failed write at byte " + failedAppendAt + " from "
                    + log.path() + "; the queue refuses to read it until the cut succeeds", e);
        }
        failedAppendAt = -1;
        state = null;
    }

    /**
     * Appends a batch whose events the state already applied, fsyncs once, then compacts when due.
     * On failure the file is cut back and the state dropped, so the next call re-reads the log.
     *
     * @throws StorageException {@code "Could not write log queue file: <path>"}
     */
    void commit(QueueOp.Batch batch) {
        if (batch.events == 0) {
            return;
        }
        byte[] bytes = batch.out.bytes();
        int length = batch.out.length();
        boolean endKnown = checkedEnd == offset;
        checkedEnd = -1;
        try {
            log.append(bytes, length, offset, endKnown); // commit point
        } catch (IOException | RuntimeException | Error e) {
            state = null;
            Throwable failure = e instanceof Error ? e : new StorageException("Could not write log queue file: "
                    + log.path() + (ReadOnlyFileSystem.isReadOnlyError(e) ? " (" + ReadOnlyFileSystem.READ_ONLY + ")" : ""), e);
            try {
                log.rollBack(offset);
            } catch (IOException | RuntimeException rollBackFailure) {
                failedAppendAt = fileLongerThan(offset) ? offset : -1;
                failure.addSuppressed(new StorageException("Could not roll back " + log.path() + " to byte " + offset
                        + "; the next call cuts it there before reading", rollBackFailure));
            }
            if (failure instanceof Error error) {
                throw error;
            }
            throw (StorageException) failure;
        }
        offset += length;
        lines += batch.events;
        if (options.autoCompact() && offset >= options.compactionThresholdBytes()
                && lines > 2 * state.liveEvents() + 64) {
            try {
                compact();
            } catch (RuntimeException e) {
                // The batch is durable; a failed compaction leaves the old, complete log in place.
                LOG.warn("Compaction of {} failed; the log keeps growing until the next try", log.path(), e);
            }
        }
    }

    /**
     * Rewrites the log to the live jobs' events ({@link QueueCompaction}); damaged stretches, which
     * the new log drops, are kept aside first.
     *
     * @throws StorageException on I/O failure; the old log then stays in place and the state is dropped
     */
    void compact() {
        checkWritable();
        QueueCompaction.Rendered rendered = QueueCompaction.render(state);
        try {
            if (!damaged.isEmpty()) {
                LOG.warn("Compaction of {} removes damaged lines: {}", log.path(), log.keepAside(damaged));
            }
            log.replace(rendered.bytes());
            damaged.clear();
        } catch (RuntimeException e) {
            state = null;
            throw e;
        }
        offset = rendered.bytes().length;
        lines = rendered.events();
        lineNo = rendered.events() + 1;
        state.trimLine();
    }

    /**
     * Takes the damaged stretches out of the log (kept aside first) and re-reads it.
     *
     * @return a description per stretch removed
     */
    List<String> removeDamaged() {
        List<String> removed = log.keepAside(damaged);
        state = null;
        log.rewriteWithout(List.copyOf(damaged), offset);
        reload(false);
        return removed;
    }

    /** @return the current time, Unix seconds */
    long nowSeconds() {
        return Math.floorDiv(options.clock().millis(), 1000L);
    }

    /**
     * Closes the log and releases this instance's hold on the lock file; idempotent.
     */
    @Override
    public void close() {
        synchronized (lifecycle) {
            if (closed) {
                return;
            }
            try {
                lock.lock(options.lockTimeout());
                try {
                    closed = true;
                    closeLog();
                } finally {
                    lock.unlock();
                }
            } catch (RuntimeException e) {
                closed = true;
                log.close();
            } finally {
                lock.close();
            }
        }
    }

    private void closeLog() {
        if (failedAppendAt >= 0) {
            try {
                cutFailedAppend();
            } catch (StorageException e) {
                LOG.warn("Closing {} with the bytes of a failed write after byte {}", log.path(), failedAppendAt, e);
            }
        }
        log.close();
    }
}
