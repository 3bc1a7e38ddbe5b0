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
        return getValid(UuidV7.normalize(id));
    }

    /**
     * @param key a valid lowercase id
     * @return the record's latest version through the state index, after catching up with other
     *     processes; empty when unknown or deleted
     * @throws StorageException as {@link SegmentedLog#get}
     */
    Optional<StorageRecord> getValid(String key) {
        log.refreshIfStale();
        StateIndex.Entry e = log.state.index.get(key);
        if (e == null || e.deleted()) {
            return Optional.empty();
        }
        StorageException last = null;
        StateIndex.Location[] aliases = e.aliases();
        for (int i = -1; i < aliases.length; i++) {
            String fileName = i < 0 ? e.file() : aliases[i].file();
            long offset = i < 0 ? e.offset() : aliases[i].offset();
            try {
                LogLine.Envelope env = readAt(fileName, offset);
                if (env != null && env.id().equals(key) && LogLine.PUT.equals(env.op())) {
                    return Optional.of(new StorageRecord(key, env.data(null, offset)));
                }
                Path file = log.state.path(fileName);
                last = new StorageException(env == null
                        ? "Could not read segment record. Id " + key + " at " + file + ":" + offset
                        : "Segmented log state index points at the wrong record. Id " + key + " at " + file + ":" + offset);
            } catch (StorageException ex) {
                last = ex;
            }
        }
        throw last;
    }

    /**
     * Reads the line at a location through the cached read handle on its file.
     *
     * @param fileName the segment file name
     * @param offset the line's offset
     * @return its envelope with the data decoded, or {@code null} when no whole line is there
     * @throws StorageException when the file cannot be read or the line does not decode, naming
     *     {@code <file>:<offset>}
     */
    private LogLine.Envelope readAt(String fileName, long offset) {
        long generation = log.state.generation;
        if (generation != readChannelsGeneration) {
            synchronized (readChannels) {
                switchGeneration(generation);
            }
        }
        for (int attempt = 0;; attempt++) {
            Map<String, StoreFiles.Input> channels = readChannels;
            StoreFiles.Input ch = channels.get(fileName);
            if (ch == null) {
                ch = channels.computeIfAbsent(fileName, this::openForReads);
            }
            try {
                // No size look: the line the index names is whole, and a read past the end returns -1.
                SegmentReader reader = new SegmentReader(ch, offset, Long.MAX_VALUE, 1024);
                if (!reader.next() || !reader.terminated()) {
                    return null;
                }
                byte[] line = reader.line();
                try {
                    return LogLine.decode(line, null, offset, true);
                } catch (StorageException unnamed) {
                    return LogLine.decode(line, log.state.path(fileName), offset, true); // throws, naming the file
                }
            } catch (java.nio.channels.ClosedChannelException closed) {
                channels.remove(fileName, ch);
                if (attempt > 0) {
                    throw new StorageException("Could not read segment record. At " + log.state.path(fileName) + ":" + offset,
                            closed);
                }
            } catch (IOException ex) {
                throw new StorageException("Could not read segment record. At " + log.state.path(fileName) + ":" + offset, ex);
            }
        }
    }

    /** Opens a point-read handle on a segment file, for {@link #readAt}. */
    private StoreFiles.Input openForReads(String fileName) {
        try {
            readHandlesOpened.incrementAndGet();
            return log.state.open(fileName);
        } catch (IOException ex) {
            throw new StorageException("Could not read segment record. Cannot open " + log.state.path(fileName), ex);
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
            long fromMemory = counts.count(query);
            if (fromMemory >= 0) {
                return Math.min(limit, fromMemory);
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
        return existsValid(UuidV7.normalize(id));
    }

    /**
     * @param key a valid lowercase id
     * @return as {@link #exists}
     */
    boolean existsValid(String key) {
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
