package dev.storh.log;

import dev.storh.StorageException;
import dev.storh.StorageRecord;
import dev.storh.fs.AtomicFiles;
import dev.storh.fs.CollectionLock;
import dev.storh.fs.ReadOnlyFileSystem;
import dev.storh.fs.WriterMarkers;
import dev.storh.id.UuidV7;
import dev.storh.observe.Observed;
import dev.storh.observe.StoreOperation;
import dev.storh.progress.ProgressListener;
import dev.storh.progress.ProgressTracker;
import dev.storh.query.QueryBuilder;
import dev.storh.query.RecordQuery;
import dev.storh.query.ScanQueryExecutor;
import dev.storh.store.CompactReport;
import dev.storh.store.RepairReport;
import dev.storh.store.RecordStore;
import dev.storh.store.StoreKind;
import dev.storh.store.VerifyReport;
import java.io.IOException;
import java.lang.ref.Cleaner;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Spliterator;
import java.util.Spliterators;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import java.util.stream.Stream;
import java.util.stream.StreamSupport;

/**
 * An append-only log of records in checksummed segment files, for
 * events, audit trails and versions read back in order or by time. Byte-compatible with the PHP
 * original's {@code SegmentedLogStore}.
 *
 * <pre>
 * &lt;root&gt;/&lt;collection&gt;[/partitions/YYYY-MM[-DD]]/
 *   collection.lock                flock(2) target of the collection lock
 *   manifest.jsonc                 segment list ({@link Manifest}), replaced atomically
 *   .storh/writers/&lt;pid&gt;.&lt;8 hex&gt;   marker of this open instance
 *   segments/seg-NNNNNN.ndjson     framed put/delete lines ({@link LogLine}); the last one is active
 *   segments/seg-NNNNNN.idx.jsonc  sparse index of a sealed segment ({@link SparseIndex})
 *   segments/compact-&lt;8hex&gt;-NNNNNN.ndjson (+ .idx.jsonc)   compaction output ({@link Compactor})
 * </pre>
 *
 * A put appends {@code {"op":"put","id":…,"data":…}}; overwriting appends another put with the same
 * id; a delete appends a tombstone. Nothing is changed in place. The id → location map (the state
 * index, {@link StateIndex}) is rebuilt by scanning at open ({@link SegmentScanner}), which also cuts
 * torn tails. A damaged line inside a segment (followed by valid lines) is never cut with what follows
 * it: it is skipped, {@link #verify()} names it ({@code <file>:<offset>}), and {@link #repair()} takes it
 * out of the segment, keeping the bytes in {@code .storh/corrupt/}.
 *
 * <p><b>Durability.</b> With {@link Durability#FSYNC} (the default) an append returns only once its
 * line is fsynced; concurrent appends share one fsync (group commit, {@link LogWriter}), and nothing
 * becomes visible to readers before its fsync. A crash leaves whole lines plus at most a torn tail,
 * which the next writer or open cuts. Compaction commits by one manifest rename.
 *
 * <p><b>Concurrency.</b> An instance is safe to share between threads. Writers (appends, compact,
 * recover, repair) take the collection lock: an in-process lock, then {@code flock(2)} on
 * {@code collection.lock}, which also excludes other JVMs and the PHP original, waiting at most
 * {@link SegmentedLogOptions#lockTimeout()}. Readers ({@link #get}, {@link #stream}, {@link #count},
 * {@link #stats}) take no lock unless another process changed the files, in which case they catch up
 * first (the original never sees other processes' writes: W1). {@code put}, {@code delete},
 * {@code appendMany} and {@code appendStream} block until durable; streams keep one segment file open
 * until closed or exhausted.
 *
 * <p><b>Read-only file systems.</b> On a read-only mount the log opens for reading (no sweep, writer
 * marker, cut or manifest write; the lock file is opened for reading, which {@code flock} allows);
 * reads, streams, counts and {@code verify()} work, and every write throws a {@link StorageException}
 * saying the file system is read-only and naming the folder.
 *
 * <p><b>Ids</b> are UUIDv7, accepted in either case and written lowercase. <b>Errors</b> are
 * {@link StorageException}s naming the id, field or {@code <file>:<offset>}; invalid input is rejected
 * before anything is written.
 */
public final class SegmentedLog implements RecordStore {

    private static final Cleaner CLEANER = Cleaner.create();
    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(SegmentedLog.class);

    private final Path dir;
    private final String name;
    private final SegmentedLogOptions options;
    private final LogState state;
    private final CollectionLock lock;
    private final LogWriter writer;
    private final Path marker;
    private final AtomicLong segmentsOpened = new AtomicLong();
    /** Read handles for get(), per file name; closed after a rebuild (a read that loses its handle retries). */
    private final Map<String, FileChannel> readChannels = new ConcurrentHashMap<>();
    private volatile long readChannelsGeneration;
    private volatile boolean closed;

    private SegmentedLog(Path dir, String name, SegmentedLogOptions options, CollectionLock lock, boolean readOnly) {
        this.dir = dir;
        this.name = name;
        this.options = options;
        this.lock = lock;
        this.state = new LogState(options.files(dir), dir, options.sparseIndexInterval(), readOnly);
        this.writer = new LogWriter(state, lock, options.lockTimeout(), options.maxSegmentBytes(),
                options.durability() == Durability.FSYNC);
        this.marker = WriterMarkers.writersDirectory(dir).resolve(WriterMarkers.newWriterPrefix());
    }

    /**
     * @param root the folder holding collections
     * @param collection the collection name
     * @return the open log, with default options
     * @see #open(Path, String, SegmentedLogOptions)
     */
    public static SegmentedLog open(Path root, String collection) {
        return open(root, collection, SegmentedLogOptions.defaults());
    }

    /**
     * Opens (creating when missing) a log: under the collection lock, sweeps orphan temp files
     * when a writer crashed, registers this instance's writer marker, deletes compaction leftovers the
     * manifest does not reference, scans every segment (cutting torn tails) and rewrites the manifest's
     * statistics when they changed.
     *
     * @param root the folder holding collections
     * @param collection a relative path of one or more names separated by {@code /}; no empty,
     *     {@code .} or {@code ..} element, no {@code \} or NUL
     * @param options the log's options, or {@code null} for the defaults
     * @return the open log; close it to remove its writer marker
     * @throws StorageException naming the collection when it is unsafe; naming the path when a folder
     *     cannot be created, the lock file cannot be opened (e.g. it is a directory), the manifest is
     *     unreadable or a segment cannot be read; {@code LockTimeoutException} when the lock stays held
     */
    public static SegmentedLog open(Path root, String collection, SegmentedLogOptions options) {
        SegmentedLogOptions opts = options == null ? SegmentedLogOptions.defaults() : options;
        Path dir = LogFiles.collectionDir(root, collection);
        if (opts.partition() != LogPartition.NONE) {
            long ts = opts.partitionTimestampMs() != null ? opts.partitionTimestampMs() : opts.clock().millis();
            dir = LogFiles.partitionDir(dir, opts.partition().folderFor(ts));
        }
        boolean readOnly = Files.isDirectory(dir) && ReadOnlyFileSystem.isReadOnly(dir);
        if (!readOnly) {
            AtomicFiles.ensureDirectory(dir.resolve(LogFiles.SEGMENTS));
        }
        CollectionLock lock;
        try {
            lock = CollectionLock.open(dir.resolve(LogFiles.LOCK));
        } catch (StorageException e) {
            throw readOnly ? new StorageException(e.getMessage() + " (" + ReadOnlyFileSystem.READ_ONLY + ")", e) : e;
        }
        SegmentedLog log = new SegmentedLog(dir, collection, opts, lock, readOnly);
        try {
            lock.lock(opts.lockTimeout());
            try {
                if (readOnly) {
                    log.state.load(false); // read what is there: no sweep, marker, cut or manifest write
                } else {
                    WriterMarkers.sweepOnOpen(dir);
                    WriterMarkers.register(log.marker);
                    Leftovers.delete(log.state);
                    log.state.load(true);
                    log.state.writeManifest();
                }
            } finally {
                lock.unlock();
            }
        } catch (RuntimeException e) {
            AtomicFiles.deleteQuietly(log.marker);
            lock.close();
            throw e;
        }
        return log;
    }

    /**
     * @return the folder of this log (the partition folder when partitioned)
     */
    public Path collectionDir() {
        return dir;
    }

    /**
     * @return {@link StoreKind#LOG}
     */
    @Override
    public StoreKind kind() {
        return StoreKind.LOG;
    }

    /**
     * @return the collection path the log was opened with ({@code "events"}, {@code "audit/2026"}),
     *     without the partition folder
     */
    @Override
    public String name() {
        return name;
    }

    /**
     * @return the same as {@link #collectionDir()}: absolute and normalised
     */
    @Override
    public Path directory() {
        return dir;
    }

    /**
     * Appends a record under a new id.
     *
     * @param data the record data, a JSON object in the JSON model
     * @return the stored record
     * @throws StorageException see {@link #put(Map, String)}
     */
    public StorageRecord put(Map<String, ?> data) {
        return put(data, null);
    }

    /**
     * Appends a record; an existing record with the id is overwritten (a new put line). Blocks until
     * the line is durable (group commit).
     *
     * @param data the record data; top-level keys that look like integers ({@code "0"}, {@code "-1"})
     *     are refused, as the original would silently drop them when reading
     * @param id a UUIDv7 in either case, or {@code null} to generate one
     * @return the stored record: lowercase id, a copy of the data
     * @throws StorageException {@code "Invalid UUIDv7 value."} naming the id, an encoding error naming
     *     the field, {@code "Could not open active segment: <path>"}, a lock timeout or an I/O error;
     *     nothing is written on invalid input
     */
    public StorageRecord put(Map<String, ?> data, String id) {
        ensureOpen();
        LogWriter.Line line = prepare(data, id);
        Observed.run(options.observer(), StoreKind.LOG, name, StoreOperation.APPEND, () -> writer.append(List.of(line)));
        return new StorageRecord(line.id(), new LinkedHashMap<>(data));
    }

    /**
     * Appends many records in one batch. Each item is either {@code {"id": String, "data": Map}}
     * or plain data: when {@code item.id} is a string it is the id, and when {@code item.data} is a map
     * it is the data, otherwise the whole item (its {@code id} key included) is the data. Every item is
     * validated and encoded before anything is written; segment boundaries are those of single puts.
     *
     * @param items the rows
     * @return the stored records in input order
     * @throws StorageException on invalid input (naming the item index; nothing written) or I/O failure
     */
    public List<StorageRecord> appendMany(Iterable<? extends Map<String, ?>> items) {
        ensureOpen();
        List<LogWriter.Line> lines = new ArrayList<>();
        List<StorageRecord> records = new ArrayList<>();
        int i = 0;
        for (Map<String, ?> item : items) {
            StorageRecord r = prepareItem(item, i++, lines);
            records.add(r);
        }
        Observed.run(options.observer(), StoreKind.LOG, name, StoreOperation.APPEND, () -> writer.append(lines));
        return records;
    }

    /**
     * Appends records from an iterable without holding them all: items are validated as they are
     * consumed and written in durable chunks of about 1 MiB. When an item is invalid the call
     * throws; chunks already written stay, the current chunk is dropped.
     *
     * @param items the rows, as for {@link #appendMany}
     * @return how many records were appended
     * @throws StorageException on invalid input (naming the item index) or I/O failure
     */
    public long appendStream(Iterable<? extends Map<String, ?>> items) {
        ensureOpen();
        List<LogWriter.Line> chunk = new ArrayList<>();
        long chunkBytes = 0;
        long count = 0;
        for (Map<String, ?> item : items) {
            prepareItem(item, count, chunk);
            chunkBytes += chunk.get(chunk.size() - 1).bytes().length;
            count++;
            if (chunkBytes >= LogWriter.FLUSH_BYTES) {
                writer.append(chunk);
                chunk = new ArrayList<>();
                chunkBytes = 0;
            }
        }
        writer.append(chunk);
        return count;
    }

    private StorageRecord prepareItem(Map<String, ?> item, long index, List<LogWriter.Line> out) {
        if (item == null) {
            throw new StorageException("Log item " + index + " is null.");
        }
        String id = item.get("id") instanceof String s ? s : null;
        @SuppressWarnings("unchecked")
        Map<String, ?> data = item.get("data") instanceof Map<?, ?> m ? (Map<String, ?>) m : item;
        LogWriter.Line line;
        try {
            line = prepare(data, id);
        } catch (StorageException e) {
            throw new StorageException("Log item " + index + ": " + e.getMessage(), e);
        }
        out.add(line);
        return new StorageRecord(line.id(), new LinkedHashMap<>(data));
    }

    private LogWriter.Line prepare(Map<String, ?> data, String id) {
        if (data == null) {
            throw new StorageException("Record data must not be null" + (id == null ? "." : " (id " + id + ")."));
        }
        String key = resolveId(id);
        for (Object k : data.keySet()) {
            if (k instanceof String s && LogLine.isIntegerLike(s)) {
                throw new StorageException("Record " + key + ": top-level field \"" + s + "\" looks like an integer;"
                        + " the original drops such keys when reading, so it cannot be stored.");
            }
        }
        return new LogWriter.Line(key, false, LogLine.encodePut(key, data));
    }

    private String resolveId(String id) {
        if (id != null) {
            return UuidV7.normalize(id);
        }
        Supplier<String> generator = options.idGenerator();
        return generator == null ? UuidV7.generate() : UuidV7.normalize(generator.get());
    }

    /**
     * Reads a record's latest version through the state index.
     *
     * @param id a UUIDv7 in either case
     * @return the record, or empty when unknown or deleted
     * @throws StorageException {@code "Invalid UUIDv7 value."}; {@code "Could not read segment record."}
     *     or {@code "Segmented log state index points at the wrong record."} naming the id and location
     */
    public Optional<StorageRecord> get(String id) {
        return Observed.call(options.observer(), StoreKind.LOG, name, StoreOperation.GET, () -> read(id));
    }

    private Optional<StorageRecord> read(String id) {
        ensureOpen();
        String key = UuidV7.normalize(id);
        refreshIfStale();
        StateIndex.Entry e = state.index.get(key);
        if (e == null || e.deleted) {
            return Optional.empty();
        }
        List<StateIndex.Location> locations = new ArrayList<>();
        locations.add(new StateIndex.Location(e.file, e.offset));
        locations.addAll(List.of(e.aliases));
        StorageException last = null;
        for (StateIndex.Location at : locations) {
            Path file = state.path(at.file());
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
        Path file = state.path(at.file());
        long generation = state.generation;
        if (generation != readChannelsGeneration) {
            // A rebuild may follow replaced files (a repair, another process): drop the handles on old
            // ones. A read that was using one meets a closed channel and tries once more below.
            readChannelsGeneration = generation;
            closeReadChannels();
        }
        for (int attempt = 0;; attempt++) {
            Map<String, FileChannel> channels = readChannels;
            FileChannel ch = channels.computeIfAbsent(at.file(), f -> {
                try {
                    return FileChannel.open(file, StandardOpenOption.READ);
                } catch (IOException ex) {
                    throw new StorageException("Could not read segment record. Cannot open " + file, ex);
                }
            });
            try {
                SegmentReader reader = new SegmentReader(ch, at.offset(), ch.size(), 1024);
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

    /**
     * Deletes a record by appending a tombstone, even when the id is unknown. Blocks until durable.
     *
     * @param id a UUIDv7 in either case
     * @return whether a live record with that id existed
     * @throws StorageException {@code "Invalid UUIDv7 value."}, a lock timeout or an I/O error
     */
    public boolean delete(String id) {
        ensureOpen();
        String key = UuidV7.normalize(id);
        refreshIfStale();
        StateIndex.Entry e = state.index.get(key);
        Observed.run(options.observer(), StoreKind.LOG, name, StoreOperation.DELETE,
                () -> writer.append(List.of(new LogWriter.Line(key, true, LogLine.encodeDelete(key)))));
        return e != null && !e.deleted;
    }

    /**
     * @return every live record, see {@link #stream(RecordQuery)}
     */
    public Stream<StorageRecord> stream() {
        return stream(RecordQuery.all());
    }

    /**
     * Streams live records in segment order, then byte order: the order of each record's latest
     * write (not id order after overwrites or out-of-order ids). The stream sees the log as it was when
     * it was created, even while this instance keeps writing or compacting. Segments whose id range
     * cannot match the cursor or time range are not opened; ordered segments are entered by seeking.
     *
     * @param query cursor (exclusive), time range (inclusive), equality filters, limit, error handler
     * @return a lazy stream; close it (try-with-resources) to release its open segment file
     * @throws StorageException while iterating: {@code "Could not open segment: <path>"}, or a
     *     malformed/corrupt line naming {@code <file>:<offset>} unless the query has an error handler,
     *     which then receives {@code "<path>:<offset>"} and the error and the line is skipped
     */
    public Stream<StorageRecord> stream(RecordQuery query) {
        ensureOpen();
        Objects.requireNonNull(query, "query");
        refreshIfStale();
        List<Segment.View> views;
        long snapshot;
        synchronized (state) {
            views = state.views();
            snapshot = state.index.openSnapshot();
        }
        LogStream.Release release = new LogStream.Release(state);
        LogStream it = new LogStream(state, views, snapshot, query, segmentsOpened, release);
        CLEANER.register(it, release);
        return StreamSupport.stream(Spliterators.spliteratorUnknownSize(it, Spliterator.ORDERED | Spliterator.NONNULL),
                false).onClose(it::close);
    }

    /**
     * @return the number of live records, from the state index
     */
    public long count() {
        ensureOpen();
        refreshIfStale();
        return state.index.live();
    }

    /**
     * Counts what {@link #stream(RecordQuery)} would yield. Without equality filters the count
     * comes from the state index without reading segments; with them, it is a scan.
     *
     * @param query the query
     * @return the number of matching live records, at most the query's limit
     */
    public long count(RecordQuery query) {
        ensureOpen();
        Objects.requireNonNull(query, "query");
        refreshIfStale();
        long limit = query.limit() > 0 ? query.limit() : Long.MAX_VALUE;
        if (query.hasDataConditions()) {
            try (Stream<StorageRecord> s = stream(query)) {
                return s.count();
            }
        }
        QueryBounds b = QueryBounds.of(query);
        if (b.after() == null && b.lower() == null && b.upper() == null) {
            return Math.min(limit, state.index.live());
        }
        long n = 0;
        for (Map.Entry<String, StateIndex.Entry> e : state.index.entries().entrySet()) {
            if (!e.getValue().deleted && query.matchesId(e.getKey()) && ++n >= limit) {
                break;
            }
        }
        return n;
    }

    /**
     * An empty query over the log (as for other stores without indexes): the
     * same builder and semantics as {@code DocStore.query()}, answered by streaming the live records
     * in id order (a log has no secondary indexes, so {@code explain()} reports {@code full_scan}).
     *
     * @return the query builder
     */
    public QueryBuilder query() {
        return QueryBuilder.on(Observed.queries(new ScanQueryExecutor("storh.SegmentedLog", new ScanQueryExecutor.RecordSource() {
            @Override
            public Stream<StorageRecord> scan(String afterId) {
                return afterId == null ? stream() : stream(RecordQuery.all().after(afterId));
            }

            @Override
            public Optional<StorageRecord> byId(String id) {
                return read(id);
            }

            @Override
            public long count() {
                return SegmentedLog.this.count();
            }
        }), options.observer(), StoreKind.LOG, name));
    }

    /**
     * @return a retention builder: {@code retain().olderThanDays(90).compact()}
     */
    public Retention retain() {
        ensureOpen();
        return new Retention(this, null);
    }

    long deleteOlderThanAndCompact(long cutoffMs) {
        ensureOpen();
        refreshIfStale();
        List<String> ids = new ArrayList<>();
        for (Map.Entry<String, StateIndex.Entry> e : state.index.entries().entrySet()) {
            String id = e.getKey();
            if (!e.getValue().deleted && UuidV7.isValid(id) && UuidV7.timestampMs(id) <= cutoffMs) {
                ids.add(id);
            }
        }
        ids.sort(null);
        List<LogWriter.Line> lines = new ArrayList<>(ids.size());
        ids.forEach(id -> lines.add(new LogWriter.Line(id, true, LogLine.encodeDelete(id))));
        writer.append(lines);
        compact();
        return ids.size();
    }

    /**
     * Compacts the log: rolls the active segment, rewrites the sealed segments keeping only
     * live records, and swaps the manifest (the commit point). A crash before the swap leaves the old
     * manifest in force; the next open deletes the unreferenced output. Appends wait meanwhile.
     *
     * @return the segments' bytes and count before (after the roll) and after, and the stats after
     * @throws StorageException {@code "Could not open segment: <path>"}, a corrupt line naming
     *     {@code <file>:<offset>}, or an I/O error; the log is then unchanged
     */
    @Override
    public CompactReport<LogCompaction> compact() {
        return compact(ProgressListener.NONE);
    }

    /**
     * {@link #compact()}, reporting progress as operation {@code "compact"}: sealed segments
     * rewritten of those sealed when it began, and their bytes.
     *
     * @param listener receives the progress; an exception it throws stops the compaction and
     *     leaves the log unchanged
     * @return as {@link #compact()}
     */
    @Override
    public CompactReport<LogCompaction> compact(ProgressListener listener) {
        ensureOpen();
        long[] before = new long[2];
        withWriteLock("compact log", () -> {
            state.refresh(true, -1);
            state.roll();
            before[0] = state.bytes();
            before[1] = state.sealed.size() + 1L;
            long bytes = 0;
            for (Segment s : state.sealed) {
                bytes += LogState.sizeOf(state.path(s.file));
            }
            ProgressTracker progress = ProgressTracker.start("compact", state.sealed.size(), bytes, listener);
            try {
                new Compactor(state, options.maxSegmentBytes()).run(progress);
            } finally {
                progress.finish();
            }
        });
        LogStats after = lastStats();
        return new CompactReport<>(true, before[0], after.bytes(),
                new LogCompaction(before[0], after.bytes(), before[1], after.segments(), after));
    }

    /**
     * Rebuilds the state index from disk and cuts torn tails, then rewrites the manifest's
     * statistics. Damaged lines followed by valid ones are skipped and logged, not cut (W6).
     *
     * @throws StorageException on a lock timeout, an unreadable manifest or an I/O error
     */
    public void recover() {
        ensureOpen();
        withWriteLock("recover log", () -> {
            state.load(true);
            state.writeManifest();
        });
    }

    /**
     * @return segments, live records, tombstones and bytes
     */
    @Override
    public LogStats stats() {
        ensureOpen();
        refreshIfStale();
        StateIndex index = state.index;
        return new LogStats(state.sealed.size() + 1L, index.live(), index.deleted(), state.bytes());
    }

    /**
     * The statistics as this instance last saw them, for metrics that are read often: the same
     * shape as {@link #stats()}, but without checking the disk for other writers' appends, so it
     * takes no lock and makes no system call. Records appended by other instances or processes show
     * once this instance next reads or writes.
     *
     * @return segments, live records, deleted records and bytes as of this instance's last operation
     */
    public LogStats lastStats() {
        ensureOpen();
        StateIndex index = state.index;
        return new LogStats(state.sealed.size() + 1L, index.live(), index.deleted(), state.bytes());
    }

    /**
     * Checks the log without changing it: rebuilds the state from disk and compares it with
     * this instance's, reads every live record, and gathers the stats. Errors are collected, not thrown.
     *
     * @return {@code ok} with the errors found and the stats
     */
    @Override
    public VerifyReport<LogStats> verify() {
        return verify(ProgressListener.NONE);
    }

    /**
     * {@link #verify()}, reporting progress as operation {@code "verify"}: segments scanned of the
     * log's segments, and their bytes.
     *
     * @param listener receives the progress; an exception it throws stops the verify
     * @return {@code ok} with the errors found and the stats
     */
    @Override
    public VerifyReport<LogStats> verify(ProgressListener listener) {
        ensureOpen();
        List<String> errors = new ArrayList<>();
        java.util.Set<String> damagedAt = new java.util.HashSet<>();
        ProgressTracker progress = ProgressTracker.start("verify", state.sealed.size() + 1L, state.bytes(), listener);
        try {
            refreshIfStale();
            StateIndex fresh = new StateIndex();
            List<Segment> segments = allSegments();
            progress.total(segments.size(), state.bytes());
            for (Segment s : segments) {
                Segment copy = new Segment(s.file, s.index, s.compacted, Map.of());
                SegmentScanner.scan(state.path(s.file), copy, fresh, state.interval, false, true);
                progress.advance(1, LogState.sizeOf(state.path(s.file)));
                for (Segment.Damage d : copy.damaged) {
                    damagedAt.add(state.path(s.file) + ":" + d.offset());
                    errors.add("Damaged log line at " + state.path(s.file) + ":" + d.offset() + " (" + d.length()
                            + " bytes; the lines after it are kept; repair() removes it): " + d.problem());
                }
            }
            String differs = state.index.firstDifference(fresh);
            if (differs != null) {
                errors.add("Segmented log state index drift. First difference: id " + differs);
            }
        } catch (RuntimeException e) {
            errors.add(String.valueOf(e.getMessage()));
        }
        RecordQuery everything = RecordQuery.all().continueOnError((at, e) -> {
            if (!damagedAt.contains(at)) {
                errors.add(String.valueOf(e.getMessage()));
            }
        });
        try (Stream<StorageRecord> all = stream(everything)) {
            all.forEach(r -> { });
        } catch (RuntimeException e) {
            errors.add(String.valueOf(e.getMessage()));
        } finally {
            progress.finish();
        }
        LogStats stats;
        try {
            stats = stats();
        } catch (RuntimeException e) {
            stats = new LogStats(state.sealed.size() + 1L, 0, 0, 0);
        }
        return new VerifyReport<>(errors.isEmpty(), errors, stats);
    }

    /**
     * @return the same as {@link #verify()}
     */
    @Override
    public VerifyReport<LogStats> health() {
        return verify();
    }

    /**
     * Mends the log (doing more than the original): under the collection lock, deletes temp
     * files a crashed writer left ({@code .manifest.jsonc.*.tmp}, {@code segments/.*.tmp}), rebuilds
     * the state and cuts torn tails (as {@link #recover()}), then takes every damaged line inside a
     * segment out of it: the bytes are copied to {@code .storh/corrupt/<file>.<offset>-<ms>.bad} and the
     * segment is rewritten without them, every valid line kept in order; the state and the sparse
     * indexes are rebuilt from the new files and the manifest is rewritten, so other instances rebuild
     * too. Afterwards {@code stream()} and {@code verify()} are clean. Failures are thrown.
     *
     * @return {@code ok} (always true), the bytes cut from torn tails, the stats, and one line per
     *     removed stretch naming {@code <path>:<offset>}, its size, its problem and where it was kept
     * @throws StorageException on a lock timeout or an I/O error naming the path; {@code "Cannot repair
     *     log <dir>: the file system is read-only ..."} on a read-only file system
     */
    @Override
    public RepairReport<LogRepair> repair() {
        return repair(ProgressListener.NONE);
    }

    /**
     * {@link #repair()}, reporting progress as operation {@code "repair"}: one item, the log, with
     * the bytes of its segments (the rebuild reads them all in one go).
     *
     * @param listener receives the progress
     * @return {@code ok}, the bytes cut, the stats and what was removed
     * @throws StorageException see {@link #repair()}
     */
    @Override
    public RepairReport<LogRepair> repair(ProgressListener listener) {
        ensureOpen();
        ProgressTracker progress = ProgressTracker.start("repair", 1, state.bytes(), listener);
        try {
            long before = state.bytesCut;
            List<String> removed = new ArrayList<>();
            withWriteLock("repair log", () -> {
                Leftovers.sweepTemps(state);
                state.load(true);
                List<Segment> damaged = new ArrayList<>();
                for (Segment s : allSegments()) {
                    if (!s.damaged.isEmpty()) {
                        removed.addAll(Quarantine.removeDamage(state.path(s.file), s.damaged));
                        damaged.add(s);
                    }
                }
                if (!damaged.isEmpty()) {
                    state.load(true);
                    for (Segment s : state.sealed) {
                        if (s.index != null && damaged.stream().anyMatch(d -> d.file.equals(s.file))) {
                            SparseIndex.write(state.path(s.index), s.sparse); // the offsets moved
                        }
                    }
                    LOG.warn("Removed {} damaged stretch(es) from log {}: {}", removed.size(), dir, removed);
                }
                state.writeManifest(!damaged.isEmpty());
            });
            progress.advance(1, state.bytes());
            return new RepairReport<>(true, removed, new LogRepair(state.bytesCut - before, stats()));
        } finally {
            progress.finish();
        }
    }

    private List<Segment> allSegments() {
        List<Segment> segments = new ArrayList<>(state.sealed);
        segments.add(state.active);
        return segments;
    }

    /**
     * Closes the log: releases file handles and removes this instance's writer marker. Streams still
     * open keep working on their own file handles. Idempotent.
     */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            writer.close();
        } finally {
            closeReadChannels();
            if (!state.readOnly) {
                AtomicFiles.deleteQuietly(marker);
                AtomicFiles.syncDirectory(marker.getParent());
            }
            lock.close();
        }
    }

    private void closeReadChannels() {
        for (Iterator<FileChannel> it = readChannels.values().iterator(); it.hasNext();) {
            try {
                it.next().close();
            } catch (IOException ignored) {
                // read-only handle
            }
            it.remove();
        }
    }

    Clock clock() {
        return options.clock();
    }

    LogState state() {
        return state;
    }

    long segmentsOpened() {
        return segmentsOpened.get();
    }

    long syncCount() {
        return writer.syncCount();
    }

    /**
     * Catches up with other processes when the manifest or the active segment changed behind this
     * instance's back (W1); costs two {@code stat} calls when nothing changed.
     */
    private void refreshIfStale() {
        Segment a = state.active;
        if (Manifest.same(Manifest.stamp(state.manifestFile), state.stamp)) {
            long size = LogState.sizeOf(state.path(a.file));
            if (size == a.end || writer.isOwnWrite(a.file, size)) {
                return;
            }
        }
        withLock(() -> state.refresh(false, -1));
    }

    private void withWriteLock(String what, Runnable action) {
        if (state.readOnly) {
            throw ReadOnlyFileSystem.refused(what, dir);
        }
        withLock(() -> {
            lock.checkLockFile();
            action.run();
        });
    }

    private void withLock(Runnable action) {
        lock.lock(options.lockTimeout());
        try {
            action.run();
        } finally {
            lock.unlock();
        }
    }

    private void ensureOpen() {
        if (closed) {
            throw new StorageException("SegmentedLog is closed: " + dir);
        }
    }

    @Override
    public String toString() {
        return "SegmentedLog[" + dir + "]";
    }
}
