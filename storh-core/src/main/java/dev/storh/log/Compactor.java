package dev.storh.log;

import dev.storh.StorageException;
import dev.storh.fs.AtomicFiles;
import dev.storh.fs.StoreFiles;
import dev.storh.progress.ProgressTracker;
import java.io.IOException;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;

/**
 * Compaction: rewrites the sealed segments keeping only each record's
 * live version, into {@code compact-<token>-NNNNNN.ndjson} files, then swaps the manifest.
 *
 * <pre>
 * 1. (caller) catch up and cut torn tails; roll the active segment if it has records
 * 2. scan every sealed segment in manifest order (an output's lines are written 64 KiB at a time); per line:
 *      tombstone that is its id's state      -&gt; dropped, the id leaves the state
 *      put that is its id's live location     -&gt; copied (canonical lines byte for byte, others re-encoded)
 *      anything else (superseded, deleted)    -&gt; dropped
 *    an output file is finished once its size reaches maxSegmentBytes: its idx is written to a temp file
 *    beside it, and both are fsynced with the other finished files, up to 64 at a time in parallel
 *    ({@link ParallelSync}), then closed, and the idx temp files renamed to their names
 * 3. fsync what is left, fsync segments/ (once, for every new name), then write the manifest with
 *    sealed = outputs {…, "compacted": true}
 *    &lt;-- COMMIT POINT: the manifest rename. Before it the old manifest is in force and the outputs are
 *        unreferenced leftovers that the next open deletes; after it the outputs are the log.
 * 4. in memory: copied records point at their new location, old locations kept as aliases; dropped
 *    tombstones leave the state
 * </pre>
 *
 * A corrupt line or an unreadable segment aborts the compaction before the commit point: outputs are
 * deleted and nothing changes. Old segment files are not deleted (readers may still stream them),
 * as in the original. Every byte goes through the log's byte seam. Runs with the collection lock held.
 */
final class Compactor {

    private static final SecureRandom RANDOM = new SecureRandom();
    /** Most finished files (outputs and idx files) held open before they are fsynced together. */
    private static final int SYNC_BATCH = 64;
    /** Bytes of an output collected before they are written. */
    private static final int WRITE_BUFFER = 64 * 1024;

    private final LogState state;
    private final long maxSegmentBytes;

    private final List<Segment> outputs = new ArrayList<>();
    private final List<Object[]> relocations = new ArrayList<>();
    private final List<String> removals = new ArrayList<>();
    private final String token;
    /** Finished outputs and idx temp files, written and not yet fsynced (nor closed). */
    private final List<StoreFiles.Output> unsynced = new ArrayList<>();
    /** Idx temp files of {@link #unsynced} and their names, as pairs: renamed once synced. */
    private final List<String[]> unrenamed = new ArrayList<>();
    private long outputNumber;
    private StoreFiles.Output out;
    /** Lines of {@link #out} not written yet: one write per buffer, not per line. */
    private final byte[] pending = new byte[WRITE_BUFFER];
    private int pendingLength;
    private Segment current;
    private long position;

    Compactor(LogState state, long maxSegmentBytes) {
        this.state = state;
        this.maxSegmentBytes = maxSegmentBytes;
        byte[] random = new byte[4];
        RANDOM.nextBytes(random);
        this.token = HexFormat.of().formatHex(random);
    }

    /**
     * Compacts the sealed segments. The caller holds the collection lock and has rolled the active segment.
     *
     * @throws StorageException {@code "Could not open segment: <path>"}, a corrupt-line error naming
     *     {@code <file>:<offset>}, or {@code "Could not open compaction segment: <path>"}; the log is unchanged
     */
    void run() {
        run(ProgressTracker.none());
    }

    /**
     * {@link #run()}, advancing {@code progress} by one item and the segment's bytes per sealed
     * segment copied.
     *
     * @param progress the compaction's tracker, not finished here
     */
    void run(ProgressTracker progress) {
        List<Segment> sealed = state.sealed;
        if (sealed.isEmpty()) {
            state.writeManifest();
            return;
        }
        StateIndex index = state.index;
        try {
            for (Segment seg : sealed) {
                copyLive(seg, index);
                progress.advance(1, state.size(seg.file));
            }
            finishOutput();
            syncFinished();
            AtomicFiles.syncDirectory(state.files, LogFiles.SEGMENTS);
            state.replaceSealed(outputs); // in memory first, so the manifest is encoded from it
            try {
                state.writeManifest(); // COMMIT POINT
            } catch (RuntimeException e) {
                state.replaceSealed(sealed);
                throw e;
            }
        } catch (IOException | RuntimeException e) {
            abort();
            if (e instanceof StorageException se) {
                throw se;
            }
            throw new StorageException("Could not compact log " + state.dir + ": " + e.getMessage(), e);
        }
        synchronized (state) {
            StateIndex now = state.index;
            for (Object[] r : relocations) {
                now.relocate((String) r[0], (String) r[1], (Long) r[2]);
            }
            removals.forEach(now::remove);
        }
    }

    private void copyLive(Segment seg, StateIndex index) throws IOException {
        Path file = state.path(seg.file);
        StoreFiles.Input in;
        try {
            in = state.open(seg.file);
        } catch (IOException | RuntimeException e) {
            throw new StorageException("Could not open segment: " + file, e);
        }
        try (in) {
            SegmentReader reader = new SegmentReader(in, 0, in.size(), 256 * 1024);
            while (reader.next()) {
                long offset = reader.lineOffset();
                byte[] line = reader.line();
                LogLine.Envelope env = LogLine.decode(line, file, offset, false);
                StateIndex.Entry e = index.get(env.id());
                if (e == null) {
                    continue;
                }
                if (env.isDelete()) {
                    if (e.deleted() && e.offset() == offset && e.file().equals(seg.file)) {
                        removals.add(env.id());
                    }
                } else if (LogLine.PUT.equals(env.op()) && !e.deleted() && e.isAt(seg.file, offset)) {
                    byte[] bytes = env.canonical() && reader.terminated() ? line
                            : LogLine.encodePut(env.id(), env.data(file, offset));
                    write(env.id(), bytes);
                }
            }
        }
    }

    private void write(String id, byte[] line) throws IOException {
        if (out == null) {
            startOutput();
        }
        if (pendingLength + line.length > pending.length) {
            writePending();
        }
        if (line.length > pending.length) {
            out.write(line);
        } else {
            System.arraycopy(line, 0, pending, pendingLength, line.length);
            pendingLength += line.length;
        }
        relocations.add(new Object[] {id, current.file, position});
        current.observe(id, position, position + line.length, state.interval);
        position += line.length;
        if (position >= maxSegmentBytes) {
            finishOutput();
        }
    }

    private void startOutput() {
        String name;
        do {
            name = LogFiles.compactName(token, ++outputNumber);
        } while (state.exists(LogFiles.segment(name)) || state.exists(LogFiles.segment(LogFiles.indexName(name))));
        try {
            out = state.files.create(LogFiles.segment(name));
        } catch (IOException | RuntimeException e) {
            throw new StorageException("Could not open compaction segment: " + state.path(name), e);
        }
        current = new Segment(name, null, true, new LinkedHashMap<>());
        outputs.add(current);
        position = 0;
    }

    private void writePending() throws IOException {
        if (pendingLength > 0) {
            int length = pendingLength;
            pendingLength = 0;
            out.write(pending, 0, length);
        }
    }

    private void finishOutput() throws IOException {
        if (out == null) {
            return;
        }
        writePending();
        StoreFiles.Output finished = out;
        out = null;
        if (current.records == 0) {
            finished.close();
            outputs.remove(current);
            AtomicFiles.deleteDurably(state.files, LogFiles.segment(current.file));
            return;
        }
        unsynced.add(finished);
        String idx = LogFiles.indexName(current.file);
        String temp = LogFiles.tempName(LogFiles.segment(idx));
        unrenamed.add(new String[] {temp, LogFiles.segment(idx)});
        StoreFiles.Output index = state.files.create(temp);
        unsynced.add(index);
        index.write(SparseIndex.encode(current.sparse));
        current.seal(idx);
        if (unsynced.size() >= SYNC_BATCH) {
            syncFinished();
        }
    }

    /** Fsyncs and closes the finished outputs and idx temp files, then gives the idx files their names. */
    private void syncFinished() throws IOException {
        List<StoreFiles.Output> batch = new ArrayList<>(unsynced);
        unsynced.clear();
        ParallelSync.syncAndClose(batch);
        for (String[] rename : unrenamed) {
            state.files.rename(rename[0], rename[1]);
        }
        unrenamed.clear();
    }

    private void abort() {
        for (StoreFiles.Output o : unsynced) {
            try {
                o.close();
            } catch (IOException ignored) {
                // deleted below
            }
        }
        unsynced.clear();
        for (String[] rename : unrenamed) {
            AtomicFiles.deleteQuietly(state.files, rename[0]);
        }
        unrenamed.clear();
        pendingLength = 0;
        if (out != null) {
            try {
                out.close();
            } catch (IOException ignored) {
                // deleted below
            }
            out = null;
        }
        for (Segment s : outputs) {
            AtomicFiles.deleteQuietly(state.files, LogFiles.segment(s.file));
            AtomicFiles.deleteQuietly(state.files, LogFiles.segment(LogFiles.indexName(s.file)));
        }
    }
}
