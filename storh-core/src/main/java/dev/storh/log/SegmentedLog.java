package dev.storh.log;

import dev.storh.StorageException;
import dev.storh.StorageRecord;
import dev.storh.observe.Observed;
import dev.storh.observe.StoreOperation;
import dev.storh.progress.ProgressListener;
import dev.storh.query.QueryBuilder;
import dev.storh.query.RecordQuery;
import dev.storh.query.QueryExecutor;
import dev.storh.store.CompactReport;
import dev.storh.store.RepairReport;
import dev.storh.store.RecordStore;
import dev.storh.store.StoreAddress;
import dev.storh.store.StoreKind;
import dev.storh.store.VerifyReport;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * An append-only log of records in checksummed segment files, for
 * events, audit trails and versions read back in order or by time. Byte-compatible with the PHP
 * original's {@code SegmentedLogStore}. Its files and folders (the manifest, segments, sparse indexes,
 * lock, markers, quarantine, partitions) are named and described in {@link LogFiles}.
 *
 * <p>A put appends {@code {"op":"put","id":…,"data":…}}; overwriting appends another put with the same
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
public final class SegmentedLog implements RecordStore<LogStats, LogRepair, LogCompaction> {

    private final LogContext log;
    private final LogAppends appends;
    private final LogReads reads;
    private final LogMaintenance maintenance;
    private final StoreAddress address;
    /** The executor of {@link #query()}, made once: it holds no query state. */
    private final QueryExecutor queries;
    private volatile boolean closed;

    private SegmentedLog(LogContext log, String name) {
        this.log = log;
        this.appends = new LogAppends(log);
        this.reads = new LogReads(log);
        this.maintenance = new LogMaintenance(log, reads, appends);
        this.address = new StoreAddress(StoreKind.LOG, name, log.dir);
        this.queries = Observed.queries(new LogQueries(this, reads), log.options.observer(), StoreKind.LOG, name);
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
        return new SegmentedLog(LogContext.open(dir, collection, opts), collection);
    }

    /**
     * @return the folder of this log (the partition folder when partitioned)
     */
    public Path collectionDir() {
        return log.dir;
    }

    /**
     * @return {@link StoreKind#LOG}, the collection path the log was opened with ({@code "events"},
     *     {@code "audit/2026"}, without the partition folder) and {@link #collectionDir()}
     */
    @Override
    public StoreAddress address() {
        return address;
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
        return appends.put(data, id);
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
        return appends.appendMany(items);
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
        return appends.appendStream(items);
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
        return Observed.call(log.options.observer(), StoreKind.LOG, address.name(), StoreOperation.GET, () -> {
            ensureOpen();
            return reads.get(id);
        });
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
        return appends.delete(id);
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
        return reads.stream(query);
    }

    /**
     * @return the number of live records, from the state index
     */
    public long count() {
        ensureOpen();
        return reads.count();
    }

    /**
     * Counts what {@link #stream(RecordQuery)} would yield. Without equality filters the count
     * comes from the state index without reading segments. With exactly one equality filter on a
     * string, boolean, {@code null} or 64-bit integer value, and no cursor, time range or error handler,
     * it comes from in-memory counts of each field's values (kept up to date by every append, delete and
     * catch-up with other processes, and built by one scan of the segments at the first count without a
     * limit after an open, not by the open itself; a field with more than 64 distinct values at once is not
     * counted; a limited count before they are built scans and stops early). Any
     * other query, or a log with a damaged line, is a scan. Both give the same number.
     *
     * @param query the query
     * @return the number of matching live records, at most the query's limit
     */
    public long count(RecordQuery query) {
        ensureOpen();
        return reads.count(query);
    }

    /**
     * An empty query over the log (as for other stores without indexes): the
     * same builder and semantics as {@code DocStore.query()}, answered by streaming the live records
     * in id order (a log has no secondary indexes, so {@code explain()} reports {@code full_scan}); a query on
     * one id ({@code where("id").eq(id)}, alone or with other conditions) reads that record through the state
     * index instead, and a count of one id alone only looks it up.
     *
     * @return the query builder
     */
    public QueryBuilder query() {
        return QueryBuilder.on(queries);
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
        return maintenance.deleteOlderThanAndCompact(cutoffMs);
    }

    /**
     * Compacts the log: rolls the active segment, rewrites the sealed segments keeping only
     * live records, and swaps the manifest (the commit point). A crash before the swap leaves the old
     * manifest in force; the next open deletes the unreferenced output. Appends wait meanwhile.
     *
     * <p>Reports progress as operation {@code "compact"}: sealed segments rewritten of those sealed when
     * it began, and their bytes.
     *
     * @param listener receives the progress; an exception it throws stops the compaction and
     *     leaves the log unchanged
     * @return the segments' bytes and count before (after the roll) and after, and the stats after
     * @throws StorageException {@code "Could not open segment: <path>"}, a corrupt line naming
     *     {@code <file>:<offset>}, or an I/O error; the log is then unchanged
     */
    @Override
    public CompactReport<LogCompaction> compact(ProgressListener listener) {
        ensureOpen();
        return maintenance.compact(listener);
    }

    /**
     * Rebuilds the state index from disk and cuts torn tails, then rewrites the manifest's
     * statistics. Damaged lines followed by valid ones are skipped and logged, not cut (W6).
     *
     * @throws StorageException on a lock timeout, an unreadable manifest or an I/O error
     */
    public void recover() {
        ensureOpen();
        maintenance.recover();
    }

    /**
     * The statistics after catching up with other processes. {@code bytes} is the total size of the
     * segment files: while no other writer is registered and no file of {@code segments/} was added or
     * removed, a sealed segment's size is the one this instance last saw (at its own roll, or at an earlier
     * call) as long as it ended at the segment's last line, so a call costs a {@code stat} of the writers
     * folder, of {@code segments/} and of the active segment; otherwise every segment file is looked at.
     *
     * @return segments, live records, tombstones and bytes
     */
    @Override
    public LogStats stats() {
        ensureOpen();
        boolean quiet = log.refreshIfStale();
        return log.stats(quiet && log.state.presence.present());
    }

    /**
     * The statistics as this instance last saw them, for metrics that are read often: the same
     * shape as {@link #stats()}, but without checking the disk for other writers' appends, so it
     * takes no lock; it looks at the active segment's size only (one {@code stat}), and at a sealed
     * segment's only when this instance has not seen it end at its last line yet. Records appended by
     * other instances or processes show once this instance next reads or writes.
     *
     * @return segments, live records, deleted records and bytes as of this instance's last operation
     */
    public LogStats lastStats() {
        ensureOpen();
        return log.stats(true);
    }

    /**
     * Checks the log without changing it: rebuilds the state from disk and compares it with
     * this instance's, reads every live record, and gathers the stats. Errors are collected, not thrown.
     *
     * <p>Reports progress as operation {@code "verify"}: segments scanned of the log's segments, and their
     * bytes.
     *
     * @param listener receives the progress; an exception it throws stops the verify
     * @return {@code ok} with the errors found and the stats
     */
    @Override
    public VerifyReport<LogStats> verify(ProgressListener listener) {
        ensureOpen();
        return maintenance.verify(listener);
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
     * <p>Reports progress as operation {@code "repair"}: one item, the log, with the bytes of its segments
     * (the rebuild reads them all in one go).
     *
     * @param listener receives the progress
     * @return {@code ok} (always true), the bytes cut from torn tails, the stats, and one line per
     *     removed stretch naming {@code <path>:<offset>}, its size, its problem and where it was kept
     * @throws StorageException on a lock timeout or an I/O error naming the path; {@code "Cannot repair
     *     log <dir>: the file system is read-only ..."} on a read-only file system
     */
    @Override
    public RepairReport<LogRepair> repair(ProgressListener listener) {
        ensureOpen();
        return maintenance.repair(listener);
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
            log.writer.close();
        } finally {
            reads.close();
            log.removeMarker();
            log.lock.close();
        }
    }

    Clock clock() {
        return log.options.clock();
    }

    LogState state() {
        return log.state;
    }

    long segmentsOpened() {
        return reads.segmentsOpened();
    }

    long readHandlesOpened() {
        return reads.readHandlesOpened();
    }

    int cachedReadHandles() {
        return reads.cachedReadHandles();
    }

    long syncCount() {
        return log.writer.syncCount();
    }

    /** @return whether a read would look at no file of the log but the writers folder */
    boolean quiet() {
        return log.writers.noneSince(log.writers.folderMillis());
    }

    /** @throws StorageException when the log is closed */
    void ensureOpen() {
        if (closed) {
            throw new StorageException("SegmentedLog is closed: " + log.dir);
        }
    }

    @Override
    public String toString() {
        return "SegmentedLog[" + log.dir + "]";
    }
}
