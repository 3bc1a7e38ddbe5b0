package dev.storh.log;

import dev.storh.StorageException;
import dev.storh.StorageRecord;
import dev.storh.id.UuidV7;
import dev.storh.query.LookaheadIterator;
import dev.storh.query.RecordQuery;
import dev.storh.query.ScanQueryExecutor;
import dev.storh.fs.StoreFiles;
import java.io.IOException;
import java.lang.ref.Cleaner;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;

/**
 * The read side of a {@link SegmentedLog}: point reads through the state index (one cached read
 * handle per segment file, opened by the first get() from it or handed over by a stream done with the
 * segment, dropped after a rebuild), streams over a snapshot of the segment set
 * ({@link LogStream}) and counts. Every read first catches up with other processes. Thread-safe.
 */
final class LogReads {

    private static final Cleaner CLEANER = Cleaner.create();

    private final LogContext log;
    private final LogCounts counts;
    private final AtomicLong segmentsOpened = new AtomicLong();
    /** Read handles for get(), per file name; closed after a rebuild (a read that loses its handle retries). */
    private final Map<String, StoreFiles.Input> readChannels = new ConcurrentHashMap<>();
    private volatile long readChannelsGeneration;
    /** Read handles opened for get() (not those taken over from streams), for tests. */
    private final AtomicLong readHandlesOpened = new AtomicLong();
    /** Set once the log closed: streams still open then close their handles instead of handing them over. */
    private boolean closed;

    LogReads(LogContext log) {
        this.log = log;
        this.counts = new LogCounts(log.state, segmentsOpened);
    }

    Optional<StorageRecord> get(String id) {
        String key = UuidV7.normalize(id);
        log.refreshIfStale();
        StateIndex.Entry e = log.state.index.get(key);
        if (e == null || e.deleted()) {
            return Optional.empty();
        }
        StorageException last = null;
        StateIndex.Location[] aliases = e.aliases();
        for (int i = -1; i < aliases.length; i++) {
            StateIndex.Location at = i < 0 ? new StateIndex.Location(e.file(), e.offset()) : aliases[i];
            Path file = log.state.path(at.file());
            try {
                LogLine.Envelope env = readAt(at);
                if (env != null && env.id().equals(key) && LogLine.PUT.equals(env.op())) {
                    return Optional.of(new StorageRecord(key, env.data(file, at.offset())));
                }
                last = new StorageException(env == null
                        ? "Could not read segment record. Id " + key + " at " + file + ":" + at.offset()
                        : "Segmented log state index points at the wrong record. Id " + key + " at " + file + ":" + at.offset());
            } catch (StorageException ex) {
                last = ex;
            }
        }
        throw last;
    }

    private LogLine.Envelope readAt(StateIndex.Location at) {
        Path file = log.state.path(at.file());
        long generation = log.state.generation;
        if (generation != readChannelsGeneration) {
            synchronized (readChannels) {
                switchGeneration(generation);
            }
        }
        for (int attempt = 0;; attempt++) {
            Map<String, StoreFiles.Input> channels = readChannels;
            StoreFiles.Input ch = channels.computeIfAbsent(at.file(), f -> {
                try {
                    readHandlesOpened.incrementAndGet();
                    return log.state.open(f);
                } catch (IOException ex) {
                    throw new StorageException("Could not read segment record. Cannot open " + file, ex);
                }
            });
            try {
                // No size look: the line the index names is whole, and a read past the end returns -1.
                SegmentReader reader = new SegmentReader(ch, at.offset(), Long.MAX_VALUE, 1024);
                if (!reader.next() || !reader.terminated()) {
                    return null;
                }
                return LogLine.decode(reader.line(), file, at.offset(), true);
            } catch (java.nio.channels.ClosedChannelException closed) {
                channels.remove(at.file(), ch);
                if (attempt > 0) {
                    throw new StorageException("Could not read segment record. At " + file + ":" + at.offset(), closed);
                }
            } catch (IOException ex) {
                throw new StorageException("Could not read segment record. At " + file + ":" + at.offset(), ex);
            }
        }
    }

    Stream<StorageRecord> stream(RecordQuery query) {
        Objects.requireNonNull(query, "query");
        log.refreshIfStale();
        LogState state = log.state;
        List<Segment.View> views;
        long snapshot;
        synchronized (state) {
            views = state.views();
            snapshot = state.index.openSnapshot();
        }
        LogStream.Release release = new LogStream.Release(state);
        LogStream it = new LogStream(state, views, snapshot, query, segmentsOpened, release, this::keep);
        CLEANER.register(it, release);
        return LookaheadIterator.stream(it).onClose(it::close);
    }

    long count() {
        log.refreshIfStale();
        return log.state.index.live();
    }

    long count(RecordQuery query) {
        Objects.requireNonNull(query, "query");
        log.refreshIfStale();
        long limit = query.limit() > 0 ? query.limit() : Long.MAX_VALUE;
        if (query.hasDataConditions()) {
            OptionalLong fromMemory = counts.count(query);
            if (fromMemory.isPresent()) {
                return Math.min(limit, fromMemory.getAsLong());
            }
            try (Stream<StorageRecord> s = stream(query)) {
                return s.count();
            }
        }
        QueryBounds b = QueryBounds.of(query);
        if (b.after() == null && b.lower() == null && b.upper() == null) {
            return Math.min(limit, log.state.index.live());
        }
        long n = 0;
        for (Map.Entry<String, StateIndex.Entry> e : log.state.index.entries().entrySet()) {
            if (!e.getValue().deleted() && query.matchesId(e.getKey()) && ++n >= limit) {
                break;
            }
        }
        return n;
    }

    /**
     * @param log the open log, whose public reads (with their closed checks) answer the scan
     * @param reads its reads, for point reads not timed apart from the query that makes them
     * @return the log's records as a scan source: live records by stream, by id and counted
     */
    static ScanQueryExecutor.RecordSource scanSource(SegmentedLog log, LogReads reads) {
        return new ScanQueryExecutor.RecordSource() {
            @Override
            public Stream<StorageRecord> scan(String afterId) {
                return afterId == null ? log.stream() : log.stream(RecordQuery.all().after(afterId));
            }

            @Override
            public Optional<StorageRecord> byId(String id) {
                log.ensureOpen();
                return reads.get(id);
            }

            @Override
            public long count() {
                return log.count();
            }

            @Override
            public boolean exists(String id) {
                log.ensureOpen();
                return reads.exists(id);
            }
        };
    }

    /**
     * @param id a valid id
     * @return whether the state index holds a live record with it, after catching up with other
     *     processes; the record is not read (a line the index names scanned whole)
     */
    boolean exists(String id) {
        String key = UuidV7.normalize(id);
        log.refreshIfStale();
        StateIndex.Entry e = log.state.index.get(key);
        return e != null && !e.deleted();
    }

    long segmentsOpened() {
        return segmentsOpened.get();
    }

    long readHandlesOpened() {
        return readHandlesOpened.get();
    }

    /** @return how many point-read handles are cached now, for tests */
    int cachedReadHandles() {
        return readChannels.size();
    }

    /**
     * A rebuild may follow replaced files (a repair, another process): drops the handles on old ones. A
     * read that was using one meets a closed channel and tries once more. Call holding {@code readChannels}.
     */
    private void switchGeneration(long generation) {
        if (generation != readChannelsGeneration) {
            readChannelsGeneration = generation;
            closeReadChannels();
        }
    }

    /**
     * Takes over the handle a stream is done with as the point reads' handle on that file, when the log's
     * picture is still of the generation it was opened in and no handle on the file is cached (a stream
     * that read a segment saves the next get() from it an open); otherwise closes it.
     */
    private void keep(String file, StoreFiles.Input handle, long generation) {
        synchronized (readChannels) {
            if (!closed && generation == log.state.generation) {
                switchGeneration(generation);
                if (readChannels.putIfAbsent(file, handle) == null) {
                    return;
                }
            }
        }
        try {
            handle.close();
        } catch (IOException ignored) {
            // read-only handle
        }
    }

    /** Closes the cached read handles for good (the log closed); streams still open close their own. */
    void close() {
        synchronized (readChannels) {
            closed = true;
            closeReadChannels();
        }
    }

    /** Closes the cached read handles; reads after it open new ones. */
    private void closeReadChannels() {
        for (Iterator<StoreFiles.Input> it = readChannels.values().iterator(); it.hasNext();) {
            try {
                it.next().close();
            } catch (IOException ignored) {
                // read-only handle
            }
            it.remove();
        }
    }
}
