package dev.storh.log;

import dev.storh.StorageException;
import dev.storh.fs.AtomicFiles;
import dev.storh.fs.CollectionLock;
import dev.storh.fs.GroupCommit;
import dev.storh.fs.ReadOnlyFileSystem;
import dev.storh.fs.StoreFiles;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The append path of a log with group commit.
 *
 * <p><b>Group commit.</b> Callers hand in their encoded lines and block. One of them becomes the
 * leader ({@link GroupCommit}): it takes the collection lock, catches up with other processes and
 * repairs a torn tail left by a crashed peer (weak spot W8), appends the lines of every waiting
 * caller at the committed end of the active segment in arrival order, fsyncs once, then publishes
 * the new lines to the state index and releases the lock. Each caller returns only when the batch
 * holding its lines is durable; nothing is visible to readers before that fsync (W5).
 *
 * <p><b>Segment boundaries</b> are exactly those of one-by-one puts: after the line whose end offset
 * reaches {@code maxSegmentBytes}, the lines so far are written and fsynced, published, and the
 * segment is rolled; writing continues in the new active segment. Buffers are written every 1 MiB.
 * When the roll fails (its manifest swap cannot be written), the lines already published stay
 * durable and their callers are not told otherwise: the batch goes on in the same segment and a
 * later batch rolls.
 *
 * <p><b>Failure.</b> If writing or syncing fails, the active file is cut back to its committed end
 * and every caller of the batch gets the error (a failed cut-back is attached to it as suppressed);
 * lines already sealed by a roll inside the failed batch stay durable. A batch is refused before
 * anything is written when the log was opened on a read-only file system, when its lock file is
 * gone or replaced (its folder was deleted or moved), or when the active segment file is gone:
 * bytes are only ever written into the file the log reads.
 *
 * <p>Thread-safe. Never call {@link #append} while holding the collection lock (the leader needs it).
 */
final class LogWriter implements AutoCloseable {

    /**
     * One encoded line.
     *
     * @param id the record id
     * @param delete whether it is a tombstone
     * @param bytes the framed line
     * @param keys a put's counted values ({@link EqualityCounts#keysOf}), {@code null} for a tombstone
     */
    record Line(String id, boolean delete, byte[] bytes, Object[] keys) {
    }

    static final int FLUSH_BYTES = 1 << 20;
    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(LogWriter.class);
    private static final int MAX_BATCH = 4096;

    private final LogState state;
    private final CollectionLock lock;
    private final Duration lockTimeout;
    private final long maxSegmentBytes;
    private final boolean fsync;
    private final GroupCommit<List<Line>> commit;
    private final OtherWriters writers;

    private StoreFiles.Output channel;
    private String channelFile;
    private Object channelKey;
    private volatile long writtenEnd = -1;
    private volatile String writtenFile;
    private final java.util.concurrent.atomic.AtomicLong syncs = new java.util.concurrent.atomic.AtomicLong();

    /**
     * @param state the log's segments and state index
     * @param lock the collection lock every batch is written under
     * @param options the log's options: the lock timeout, the segment size and whether appends fsync
     * @param writers tells readers that this instance wrote
     */
    LogWriter(LogState state, CollectionLock lock, SegmentedLogOptions options, OtherWriters writers) {
        this.state = state;
        this.writers = writers;
        this.lock = lock;
        this.lockTimeout = options.lockTimeout();
        this.maxSegmentBytes = options.maxSegmentBytes();
        this.fsync = options.durability() == Durability.FSYNC;
        this.commit = new GroupCommit<>(this::writeBatch, MAX_BATCH);
    }

    /**
     * Appends lines and returns once they are durable and visible.
     *
     * @param lines encoded lines, in order
     * @throws StorageException on a lock timeout or an I/O failure
     */
    void append(List<Line> lines) {
        if (!lines.isEmpty()) {
            commit.submit(lines);
        }
    }

    /**
     * @param file a segment file name
     * @param size its size
     * @return whether the size is explained by this writer's own in-flight or finished writes
     */
    boolean isOwnWrite(String file, long size) {
        return size == writtenEnd && file.equals(writtenFile);
    }

    /**
     * @return how many fsyncs of segment data this writer issued (for tests and benchmarks)
     */
    long syncCount() {
        return syncs.get();
    }

    private void writeBatch(List<List<Line>> batch) {
        if (state.readOnly) {
            throw ReadOnlyFileSystem.refused("append to log", state.dir);
        }
        lock.lock(lockTimeout);
        try {
            lock.checkLockFile();
            writeLocked(batch);
        } finally {
            lock.unlock();
        }
    }

    private void writeLocked(List<List<Line>> batch) {
        Segment looked = state.active;
        StoreFiles.Identified now = look(looked);
        long known = ownSize(looked, now);
        boolean changed = state.refresh(true, known);
        Segment seg = state.active;
        boolean same = !changed && seg == looked;
        StoreFiles.Output ch = channelFor(seg, same ? now : null);
        long pos = seg.end;
        long remaining = 0;
        long batchBytes = 0;
        for (List<Line> lines : batch) {
            remaining += lines.size();
            for (Line line : lines) {
                batchBytes += line.bytes().length;
            }
        }
        // sized to the batch: a fixed 64 KiB buffer per batch cost a single append more CPU (zeroing
        // fresh heap pages) than its write; a longer line still grows it below
        byte[] buf = new byte[(int) Math.min(FLUSH_BYTES, batchBytes)];
        int bufLen = 0;
        List<long[]> offsets = new ArrayList<>();
        List<Line> pending = new ArrayList<>();
        // Lines of segments this batch sealed after a roll whose manifest rename is not durable yet:
        // applied to the state index (made visible) only once the collection folder is fsynced.
        List<Sealed> unsynced = new ArrayList<>();
        boolean folderUnsynced = false;
        boolean rollFailed = false;
        try {
            // one stat of the name told the size of the file our handle has: no need to ask the handle
            if ((same && known >= 0 ? known : ch.size()) != pos) {
                ch.truncate(pos); // leftovers of a failed write of ours
            }
            for (List<Line> lines : batch) {
                for (Line line : lines) {
                    remaining--;
                    byte[] b = line.bytes();
                    if (bufLen + b.length > buf.length) {
                        buf = Arrays.copyOf(buf, Math.max(buf.length * 2, bufLen + b.length));
                    }
                    System.arraycopy(b, 0, buf, bufLen, b.length);
                    bufLen += b.length;
                    pending.add(line);
                    offsets.add(new long[] {pos, pos + b.length});
                    pos += b.length;
                    if (pos >= maxSegmentBytes && !rollFailed) {
                        writeAt(ch, buf, bufLen, pos - bufLen);
                        bufLen = 0;
                        // the segment's statistics take the lines (its sparse index and the manifest that seals
                        // it need them) before they are durable; no reader sees them before the fsync, which
                        // the roll runs side by side with its own (the manifest is renamed after it)
                        Segment.Mark mark;
                        synchronized (state) {
                            mark = seg.mark();
                        }
                        Sealed chunk = observe(seg, pending, offsets);
                        DataSync data = new DataSync(ch);
                        // a roll with more lines to follow leaves its manifest's folder fsync to the end of the
                        // batch; the last one makes its own durable, and with it every earlier rename
                        boolean syncNow = remaining == 0;
                        rollFailed = !roll(syncNow, data);
                        if (!data.ran || data.failure != null) {
                            try {
                                if (data.failure != null) {
                                    throw data.failure; // never asked again: a failed fsync may have dropped the pages
                                }
                                sync(ch); // the roll failed before it synced the lines
                            } catch (IOException e) {
                                synchronized (state) {
                                    seg.restore(mark); // the failure path cuts the file back to the segment's end
                                }
                                throw e;
                            }
                        }
                        if (folderUnsynced) {
                            unsynced.add(chunk);
                        } else {
                            applyAll(new ArrayList<>(List.of(chunk)));
                        }
                        folderUnsynced = rollFailed ? folderUnsynced : !syncNow;
                        seg = state.active;
                        ch = channelFor(seg, null);
                        pos = seg.end;
                    } else if (bufLen >= FLUSH_BYTES) {
                        writeAt(ch, buf, bufLen, pos - bufLen);
                        bufLen = 0;
                    }
                }
            }
            if (bufLen > 0) {
                writeAt(ch, buf, bufLen, pos - bufLen);
            }
            if (!pending.isEmpty()) {
                sync(ch);
            }
            if (folderUnsynced) {
                // one fsync makes every manifest rename of the batch's rolls durable
                AtomicFiles.syncDirectory(state.files, "");
                folderUnsynced = false;
            }
            applyAll(unsynced);
            if (!pending.isEmpty()) {
                publish(seg, pending, offsets);
            }
        } catch (IOException | RuntimeException | Error e) {
            try {
                applyAll(unsynced); // their lines are in files the manifest in force names: the index follows
            } catch (RuntimeException | Error applyFailure) {
                e.addSuppressed(applyFailure);
            }
            Throwable failure = e instanceof StorageException || e instanceof Error ? e
                    : new StorageException("Could not append to active segment: " + state.path(seg.file) + " ("
                            + e.getMessage() + (ReadOnlyFileSystem.isReadOnlyError(e) ? "; " + ReadOnlyFileSystem.READ_ONLY
                            : "") + ")", e);
            try {
                ch.truncate(seg.end);
                ch.sync();
            } catch (IOException | RuntimeException rollBack) {
                // The next batch's refresh cuts the torn tail under the lock; the caller learns it failed.
                failure.addSuppressed(new StorageException("Could not roll back " + state.path(seg.file)
                        + " to byte " + seg.end, rollBack));
            }
            writtenEnd = -1;
            if (failure instanceof Error error) {
                throw error;
            }
            throw (StorageException) failure;
        }
    }

    /**
     * Rolls after durable, published lines. A failed roll does not fail them (their callers' lines
     * are durable and visible): the active segment stays active past its size, and the next batch
     * that reaches the size tries again.
     *
     * @return whether the roll happened
     */
    private boolean roll(boolean syncManifestFolder, DataSync data) {
        try {
            state.roll(syncManifestFolder, data);
            // caught up under the lock, and the new manifest's time is later than the writers folder's
            writers.look(writers.folderMillis(), state.stamp instanceof String v ? state.files.modifiedMillis(v) : -1);
            return true;
        } catch (StorageException e) {
            if (data.failure == null) {
                LOG.warn("Could not roll the active segment of log {}; appends go on in it and the next batch tries"
                        + " again: {}", state.dir, e.getMessage());
            }
            return false;
        }
    }

    /**
     * The fsync of the lines a roll seals, handed to the roll to run beside its own fsyncs; it tells
     * whether it ran and how it failed, since a failed fsync is never retried (the kernel may have
     * dropped the pages it could not write, and a second fsync would then report success).
     */
    private final class DataSync implements ParallelSync.Task {
        private final StoreFiles.Output ch;
        boolean ran;
        IOException failure;

        DataSync(StoreFiles.Output ch) {
            this.ch = ch;
        }

        @Override
        public void run() {
            ran = true;
            try {
                sync(ch);
            } catch (IOException e) {
                failure = e;
                throw new StorageException("Could not sync the active segment " + state.path(channelFile), e);
            }
        }
    }

    /** Writes at {@code position}, which is the file's end: the channel appends. */
    private void writeAt(StoreFiles.Output ch, byte[] buf, int len, long position) throws IOException {
        writtenFile = channelFile;
        writtenEnd = position + len;
        ch.write(buf, 0, len);
    }

    private void sync(StoreFiles.Output ch) throws IOException {
        if (fsync) {
            ch.syncData();
            syncs.incrementAndGet();
        }
    }

    private void publish(Segment seg, List<Line> lines, List<long[]> offsets) {
        synchronized (state) {
            StateIndex index = state.index;
            for (int i = 0; i < lines.size(); i++) {
                Line line = lines.get(i);
                long[] at = offsets.get(i);
                index.apply(line.id(), line.delete(), seg.file, at[0], false, line::keys, this::keysAt);
                seg.observe(line.id(), at[0], at[1], state.interval);
            }
        }
        lines.clear();
        offsets.clear();
    }

    /**
     * A segment's synced lines whose state index entries wait for the batch's folder fsync.
     *
     * @param file the segment's file name
     * @param lines its lines, in order
     * @param offsets their {start, end} offsets
     */
    private record Sealed(String file, List<Line> lines, List<long[]> offsets) {
    }

    /** Adds synced lines to their segment (its sparse index, id range and end) before it is sealed; not to the state index yet. */
    private Sealed observe(Segment seg, List<Line> lines, List<long[]> offsets) {
        synchronized (state) {
            for (int i = 0; i < lines.size(); i++) {
                long[] at = offsets.get(i);
                seg.observe(lines.get(i).id(), at[0], at[1], state.interval);
            }
        }
        Sealed sealed = new Sealed(seg.file, new ArrayList<>(lines), new ArrayList<>(offsets));
        lines.clear();
        offsets.clear();
        return sealed;
    }

    /** Applies the lines of {@link #observe}d segments to the state index, in order, and forgets them. */
    private void applyAll(List<Sealed> waiting) {
        if (waiting.isEmpty()) {
            return;
        }
        synchronized (state) {
            StateIndex index = state.index;
            while (!waiting.isEmpty()) {
                Sealed s = waiting.remove(0);
                for (int i = 0; i < s.lines().size(); i++) {
                    Line line = s.lines().get(i);
                    index.apply(line.id(), line.delete(), s.file(), s.offsets().get(i)[0], false, line::keys, this::keysAt);
                }
            }
        }
    }

    private Object[] keysAt(String file, long offset) {
        return LogCounts.keysAt(state, file, offset);
    }

    /** @return the identity and size of the file the segment's name has now, {@code null} when it cannot be told */
    private StoreFiles.Identified look(Segment seg) {
        try {
            return state.files.identified(LogFiles.segment(seg.file));
        } catch (IOException e) {
            return null;
        }
    }

    /**
     * @return the size of the segment's file when {@code now} shows it is the file our cached handle
     *     writes to, else -1
     */
    private long ownSize(Segment seg, StoreFiles.Identified now) {
        if (channel == null || now == null || !seg.file.equals(channelFile)
                || (now.key() != null && !now.key().equals(channelKey))) {
            return -1;
        }
        if (now.key() != null) {
            return now.size();
        }
        try {
            return channel.size(); // a backend without identities: only the handle knows its file's size
        } catch (IOException e) {
            return -1;
        }
    }

    /**
     * The channel on the file the active segment's name points at now: a cached channel is reused only
     * while its file is still the one behind the name (a repair may have replaced it; an outside hand
     * may have deleted it, and bytes written to a deleted file would be lost without a word).
     */
    private StoreFiles.Output channelFor(Segment seg, StoreFiles.Identified looked) {
        Path file = state.path(seg.file);
        Object key;
        try {
            key = looked != null ? looked.key() : state.files.identity(LogFiles.segment(seg.file));
        } catch (IOException e) {
            closeChannel();
            throw new StorageException("Could not open active segment: " + file + " is gone (deleted or moved while"
                    + " the log was open); nothing was written", e);
        }
        if (channel != null && seg.file.equals(channelFile) && (key == null || key.equals(channelKey))) {
            return channel;
        }
        closeChannel();
        try {
            channel = state.files.append(LogFiles.segment(seg.file));
        } catch (IOException | RuntimeException e) {
            throw new StorageException("Could not open active segment: " + file
                    + (ReadOnlyFileSystem.isReadOnlyError(e) ? " (" + ReadOnlyFileSystem.READ_ONLY + ")" : ""), e);
        }
        channelFile = seg.file;
        channelKey = key;
        return channel;
    }

    private void closeChannel() {
        if (channel != null) {
            try {
                channel.close();
            } catch (IOException ignored) {
                // nothing buffered: every write was forced or failed
            }
            channel = null;
            channelFile = null;
            channelKey = null;
        }
    }

    /** Closes the active segment's handle; call with the collection lock held or after the last append. */
    @Override
    public void close() {
        lock.lock(lockTimeout);
        try {
            closeChannel();
        } finally {
            lock.unlock();
        }
    }
}
