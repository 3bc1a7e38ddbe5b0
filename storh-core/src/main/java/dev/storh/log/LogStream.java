package dev.storh.log;

import dev.storh.StorageException;
import dev.storh.StorageRecord;
import dev.storh.fs.FramedLine;
import dev.storh.fs.StoreFiles;
import dev.storh.query.LookaheadIterator;
import dev.storh.query.RecordQuery;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BiConsumer;

/**
 * One running {@code stream(query)}.
 *
 * <p>It reads the segments that existed when it started, in manifest order and byte order, and yields
 * each line that was its record's live version at that moment (a state-index snapshot), so writes,
 * deletes and compactions made meanwhile do not change what it yields. It skips segments whose id
 * range cannot match, seeks with the sparse offsets in ordered segments, stops early in an ordered
 * segment once ids pass the upper bound, and ignores a last line without LF (a write in flight: W10).
 * At most one segment file is open at a time; {@link #close()} closes it and ends the snapshot.
 * Not thread-safe (one consumer).
 */
final class LogStream extends LookaheadIterator<StorageRecord> implements AutoCloseable {

    private final LogState state;
    private final List<Segment.View> views;
    private final long snapshot;
    private final RecordQuery query;
    private final QueryBounds bounds;
    private final BiConsumer<String, StorageException> onError;
    private final AtomicLong segmentsOpened;
    private final Release release;
    /** Takes the segment handles this stream is done with, or {@code null} to close them. */
    private final Handback handback;
    /** The log's generation read before {@link #channel} was opened. */
    private long channelGeneration;

    private int next;
    private Segment.View view;
    private Path path;
    private StoreFiles.Input channel;
    private SegmentReader reader;
    private long yielded;
    private boolean done;

    /** Ends the snapshot once, from {@link #close()} or from a cleaner if the stream was abandoned. */
    static final class Release implements Runnable {
        private final LogState state;
        private final AtomicBoolean released = new AtomicBoolean();

        Release(LogState state) {
            this.state = state;
        }

        @Override
        public void run() {
            if (released.compareAndSet(false, true)) {
                synchronized (state) {
                    state.index.closeSnapshot();
                }
            }
        }
    }

    /** Takes a segment's read handle that a stream is done with (to read on with it), or closes it. */
    interface Handback {
        /**
         * @param file the segment's file name
         * @param handle its open handle, now the callee's
         * @param generation the log's generation read before the handle was opened
         */
        void keep(String file, StoreFiles.Input handle, long generation);
    }

    LogStream(LogState state, List<Segment.View> views, long snapshot, RecordQuery query, AtomicLong segmentsOpened,
            Release release) {
        this(state, views, snapshot, query, segmentsOpened, release, null);
    }

    /**
     * @param handback takes each segment handle once the stream is done with its segment, or {@code null}
     *     to close them
     */
    LogStream(LogState state, List<Segment.View> views, long snapshot, RecordQuery query, AtomicLong segmentsOpened,
            Release release, Handback handback) {
        this.handback = handback;
        this.state = state;
        this.views = views;
        this.snapshot = snapshot;
        this.query = query;
        this.bounds = QueryBounds.of(query);
        this.onError = query.errorHandler();
        this.segmentsOpened = segmentsOpened;
        this.release = release;
    }

    @Override
    protected StorageRecord advance() {
        if (done) {
            return null;
        }
        try {
            while (true) {
                if (reader == null && !openNextSegment()) {
                    close();
                    return null;
                }
                if (!reader.next() || !reader.terminated()) {
                    closeSegment();
                    continue;
                }
                long offset = reader.lineOffset();
                LogLine.Envelope env;
                try {
                    env = LogLine.decode(reader.line(), path, offset, false);
                } catch (StorageException e) {
                    handle(e, offset);
                    // Damage that swallowed a line feed hides a valid line at its end (as the scan found).
                    byte[] line = reader.line();
                    int p = FramedLine.resync(line, false);
                    if (p <= 0) {
                        continue;
                    }
                    try {
                        env = LogLine.decode(Arrays.copyOfRange(line, p, line.length), path, offset + p, false);
                    } catch (StorageException stillBad) {
                        continue;
                    }
                    offset += p;
                }
                String id = env.id();
                if (view.ordered() && bounds.upper() != null && id.compareTo(bounds.upper()) > 0) {
                    closeSegment();
                    continue;
                }
                if (!query.matchesId(id) || !state.index.visible(id, view.file(), offset, snapshot)) {
                    continue;
                }
                Map<String, Object> data;
                try {
                    data = env.data(path, offset);
                } catch (StorageException e) {
                    handle(e, offset);
                    continue;
                }
                if (!query.matchesData(data)) {
                    continue;
                }
                yielded++;
                if (query.limit() > 0 && yielded >= query.limit()) {
                    close();
                }
                return new StorageRecord(id, data);
            }
        } catch (IOException e) {
            handOver(false); // a handle that failed a read is not kept
            close();
            throw new StorageException("Could not read segment: " + path, e);
        } catch (RuntimeException e) {
            handOver(false);
            close();
            throw e;
        }
    }

    private void handle(StorageException e, long offset) {
        if (onError == null) {
            throw e;
        }
        onError.accept(path + ":" + offset, e);
    }

    private boolean openNextSegment() throws IOException {
        while (next < views.size()) {
            view = views.get(next++);
            if (bounds.excludes(view.min(), view.max())) {
                continue;
            }
            path = state.path(view.file());
            try {
                channelGeneration = state.generation;
                channel = state.open(view.file());
            } catch (IOException | RuntimeException e) {
                state.presence.forget();
                throw new StorageException("Could not open segment: " + path, e);
            }
            segmentsOpened.incrementAndGet();
            long start = 0;
            String seek = bounds.seekId();
            if (seek != null && view.ordered() && view.min() != null && view.min().compareTo(seek) < 0) {
                start = SparseIndex.seek(view.sparse(), view.sparse().size(), seek);
            }
            long size;
            try {
                size = channel.size();
            } catch (IOException e) {
                handOver(false);
                throw new StorageException("Could not open segment: " + path, e);
            }
            reader = new SegmentReader(channel, Math.min(start, size), size, 64 * 1024);
            return true;
        }
        return false;
    }

    private void closeSegment() {
        handOver(handback != null);
    }

    /** Ends the open segment: its handle goes to the {@link Handback} when {@code keep}, else it is closed. */
    private void handOver(boolean keep) {
        reader = null;
        if (channel != null && keep) {
            StoreFiles.Input kept = channel;
            channel = null;
            handback.keep(view.file(), kept, channelGeneration);
        } else if (channel != null) {
            try {
                channel.close();
            } catch (IOException ignored) {
                // read-only handle
            }
            channel = null;
        }
    }

    /** Closes the open segment and ends the snapshot; idempotent. */
    @Override
    public void close() {
        done = true;
        closeSegment();
        release.run();
    }
}
