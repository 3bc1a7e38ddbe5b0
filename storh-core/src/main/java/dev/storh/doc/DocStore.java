package dev.storh.doc;

import dev.storh.CorruptRecordException;
import dev.storh.StorageException;
import dev.storh.StorageRecord;
import dev.storh.observe.StoreOperation;
import dev.storh.progress.ProgressListener;
import dev.storh.doc.index.IndexManager;
import dev.storh.doc.index.ReindexReport;
import dev.storh.query.QueryBuilder;
import dev.storh.query.RecordQuery;
import dev.storh.store.CompactReport;
import dev.storh.store.RecordStore;
import dev.storh.store.RepairReport;
import dev.storh.store.StoreAddress;
import dev.storh.store.StoreKind;
import dev.storh.store.VerifyReport;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import java.util.stream.Stream;

/**
 * A collection of JSON documents, one file per record, {@code data/<bucket>/<id>.jsonc} holding
 * {@code {"id":"<id>","data":{...}}\n} in canonical compact JSON ({@link DocLayout} names every file
 * and folder). The bucket is characters 24–25 of the id (the first random byte after the timestamp),
 * so bursts of time-ordered ids spread over 256 folders; {@link #stream()} merges the buckets back
 * into id order, so cursors behave as on one sorted list.
 *
 * <p><b>Durability.</b> A write returns only after the record's bytes are fsynced, renamed into
 * place and the bucket folder is fsynced: after a crash the file holds the old or the new record,
 * never a torn one. Concurrent {@code put}s from many threads are group-committed: they are
 * written as one batch whose fsyncs run in parallel, and each caller returns once its own record
 * is durable. <b>Concurrency.</b> One instance is safe to share between threads. Writes take
 * the collection lock (an in-process lock plus {@code flock(2)}, which also excludes the PHP
 * original and other JVMs), with a timeout ({@link DocStoreOptions#lockTimeout()}). Reads take no
 * lock and see each record either before or after a concurrent write.
 *
 * <p><b>Ids.</b> UUIDv7, accepted in either case and stored lowercase (the original keeps the case,
 * which breaks order and buckets). <b>Errors</b> are {@link StorageException}s naming the id or
 * path; invalid input is rejected before any file is touched, and a failed write is undone.
 *
 * <p><b>Links.</b> Nothing below the collection folder is read, written or deleted through a
 * symbolic link, since a link may lead outside the root: {@code data/}, a bucket folder or a
 * {@code .storh} folder that is a link makes the operation fail with a {@link StorageException}
 * naming it; a record file that is a link counts as corrupt. {@link #verify()} reports both.
 */
public final class DocStore implements RecordStore<StoreStats, DocRepair, DocCompact> {

    private final StoreAddress address;
    private final DocParts parts;
    private volatile RecoveryReport recovery = new RecoveryReport(false, 0, null);

    private DocStore(Path collectionRoot, String collection, DocStoreOptions options) {
        this.address = new StoreAddress(StoreKind.COLLECTION, collection, collectionRoot); // the parts read it
        this.parts = new DocParts(this, collectionRoot, options);
    }

    /**
     * @param root the folder holding collections
     * @param collection the collection name
     * @return an open store with default options
     * @see #open(Path, String, DocStoreOptions)
     */
    public static DocStore open(Path root, String collection) {
        return open(root, collection, DocStoreOptions.defaults());
    }

    /**
     * Opens a collection, creating {@code <root>/<collection>/.storh/writers/} when missing. Opening
     * takes constant time: the collection is swept for orphan temp files only when a writer marker
     * shows that a writer crashed, or when the writers folder is missing. After a crashed
     * writer, the indexes are also rebuilt, since it may have died between a record and its index
     * entries (the original leaves that drift until {@code repair()}). That rebuild skips
     * record files it cannot read (e.g. torn by the crash) instead of failing, so a damaged store
     * still opens: {@link #recovery()} lists them, a warning is logged, {@link #verify()} names
     * them and {@link #repair()} quarantines them.
     *
     * @param root the folder holding collections
     * @param collection a plain folder name: not empty, not {@code .} or {@code ..}, without
     *     {@code /}, {@code \} or NUL, so the store can never reach outside {@code root}
     * @param options the store's options
     * @return the open store; close it to remove its writer marker
     * @throws StorageException naming the collection when the name is unsafe, or naming the path
     *     when the folders cannot be created (e.g. a file stands where the root should be)
     */
    public static DocStore open(Path root, String collection, DocStoreOptions options) {
        Path folder = DocParts.folder(root, collection); // refuses a null root and an unsafe name first
        DocStoreOptions opts = DocParts.checked(collection, options);
        DocStore store = new DocStore(folder, collection, opts);
        try {
            store.recovery = store.parts.recover(opts.schema());
        } catch (RuntimeException e) {
            store.close();
            throw e;
        }
        return store;
    }

    /** @return what opening this store did to recover from a crashed writer (nothing, normally) */
    public RecoveryReport recovery() {
        return recovery;
    }

    /** @return the collection's folder, {@code <root>/<collection>} */
    public Path collectionRoot() {
        return parts.layout.root();
    }

    /** @return the collection name */
    public String collection() {
        return address.name();
    }

    /** @return {@link StoreKind#COLLECTION}, the collection name and {@link #collectionRoot()} */
    @Override
    public StoreAddress address() {
        return address;
    }

    /**
     * Stores data under an id, replacing any record with that id. Returns once the file is
     * durable.
     *
     * @param data the record data
     * @param id a UUIDv7 (either case), or {@code null} to generate one
     * @return the stored record (id lowercase, a copy of the data)
     * @throws StorageException {@code "Invalid UUIDv7 value."} naming the id; an encoding error naming
     *     the field; a lock or I/O error naming the path: nothing is written (a failed write is undone),
     *     but after {@code "Could not sync storage directory: <folder>"} the write is complete and not
     *     known to be durable (docs/failures.md)
     */
    public StorageRecord put(Map<String, ?> data, String id) {
        return parts.observed(StoreOperation.PUT, () -> parts.wired().writes.put(data, id));
    }

    /**
     * Stores many records under one lock hold. Each item is interpreted as the original does:
     * {@code id} is the item's {@code id} member when it is a string (else generated), {@code data} is
     * its {@code data} member when that is an object or array, otherwise the whole item. All or
     * nothing: every item is checked (schema, unique values in the batch and in the store) before
     * the first file is written, and an I/O failure undoes the whole batch.
     *
     * @param items the rows
     * @return the stored records, in input order
     * @throws StorageException on invalid input or I/O failure, nothing written (a failed folder
     *     fsync as for {@link #put(Map, String)})
     */
    public List<StorageRecord> putMany(Iterable<? extends Map<String, ?>> items) {
        return parts.observed(StoreOperation.PUT, () -> parts.wired().writes.putMany(items));
    }

    /**
     * Stores records from an iterable of any length without keeping them, under one lock hold; items
     * are interpreted as in {@link #putMany}.
     *
     * @param items the rows, consumed once
     * @return the number of records written
     * @throws StorageException on an invalid item or I/O failure; items before it stay written
     */
    public long putStream(Iterable<? extends Map<String, ?>> items) {
        return parts.wired().writes.putStream(items);
    }

    /**
     * Reads a record, through the configured cache if any ({@link DocStoreOptions#cache()}), which
     * checks the file as {@link DocStoreOptions#cacheValidation()} says. Treat the returned data as
     * read-only: cached records are shared between callers.
     *
     * @param id a UUIDv7, either case
     * @return the record, or empty when no file exists for the id
     * @throws StorageException {@code "Invalid UUIDv7 value."}; {@code "Refusing to follow a symbolic
     *     link inside the store: <path>"} when {@code data/} or the bucket folder is a link;
     *     {@link CorruptRecordException} when the file is not a valid record or is itself a link
     */
    public Optional<StorageRecord> get(String id) {
        return parts.observed(StoreOperation.GET, () -> parts.wired().reads.get(id));
    }

    /**
     * @param id a UUIDv7, either case
     * @return whether a record file exists for the id (no read)
     * @throws StorageException {@code "Invalid UUIDv7 value."}; a refused symbolic link as in {@link #get}
     */
    public boolean exists(String id) {
        return parts.wired().reads.exists(id);
    }

    /**
     * Deletes a record and fsyncs its bucket folder. The bucket folder itself stays.
     *
     * @param id a UUIDv7, either case
     * @return true when a record was deleted, false when none existed
     * @throws StorageException {@code "Could not delete storage record: <id>"} on an I/O error (the
     *     record stays, but not after a failed folder fsync); a refused link as in {@link #get}
     */
    public boolean delete(String id) {
        return parts.observed(StoreOperation.DELETE, () -> parts.wired().writes.delete(id));
    }

    /**
     * @return every record in ascending id order; close the stream
     * @throws CorruptRecordException from the stream when a record file is corrupt
     */
    public Stream<StorageRecord> stream() {
        return stream(RecordQuery.all());
    }

    /**
     * Streams records in ascending id order across all buckets. Id filters are applied to
     * file names before reading; records deleted while streaming are skipped (not errors).
     *
     * @param query filters, limit and error handler
     * @return a lazy stream; close it
     * @throws CorruptRecordException from the stream for a corrupt file, unless the query has an
     *     error handler, which then receives it and the file is skipped
     */
    public Stream<StorageRecord> stream(RecordQuery query) {
        return parts.wired().reads.stream(query);
    }

    /**
     * @return the ids of all record files in ascending order, from file names only (no file is
     *     read); names that are not valid UUIDv7s are left out. Close the stream.
     */
    public Stream<String> ids() {
        return parts.wired().reads.ids();
    }

    /**
     * @return the number of record files with a valid UUIDv7 name (no file is read)
     */
    public long count() {
        return parts.wired().reads.count();
    }

    /**
     * @param id a UUIDv7, either case
     * @return {@code <collection>/data/<bucket>/<id>.jsonc} for the lowercase id; the disk is not touched
     * @throws StorageException {@code "Invalid UUIDv7 value."}
     */
    public Path pathForId(String id) {
        return parts.wired().reads.pathForId(id);
    }

    /**
     * Imports a JSONL file under one lock hold. Each non-blank line is a JSON object: either an
     * envelope {@code {"id":..., "data":{...}}} or bare data (given a new id); top-level keys that look
     * like integers are dropped; a JSON array becomes an empty record. Records are written in
     * canonical form (the original copies envelope lines verbatim).
     *
     * @param file the JSONL file, UTF-8, {@code \n} or {@code \r\n} line ends
     * @return the number of records written
     * @throws StorageException {@code "Could not open JSONL import file: <path>"}; for a bad row a message
     *     naming the file and line ({@code "JSONL import rows must be objects."}, invalid JSON); rows
     *     before a bad one stay written
     */
    public long importJsonl(Path file) {
        return importJsonl(file, ProgressListener.NONE);
    }

    /**
     * {@link #importJsonl(Path)}, reporting progress as operation {@code "import"}: records written
     * of an unknown total, and bytes read of the file's size (read ahead by up to one buffer).
     *
     * @param file the JSONL file
     * @param listener receives the progress; an exception it throws stops the import (records
     *     written before stay)
     * @return the number of records written
     */
    public long importJsonl(Path file, ProgressListener listener) {
        return parts.wired().jsonl.importJsonl(file, listener);
    }

    /**
     * Exports every record as one JSONL line {@code {"id":"<id>","data":{...}}\n}, in id order.
     * The export is a consistent snapshot (writers wait while it runs) and atomic: it is
     * written to a temp file, fsynced and renamed over the target.
     *
     * @param file the target; its folder is created when missing
     * @return the number of records exported
     * @throws StorageException {@code "Could not open JSONL export file: <path>"} (e.g. the target is a
     *     directory); a corrupt record aborts the export and leaves the target unchanged
     */
    public long exportJsonl(Path file) {
        return exportJsonl(file, ProgressListener.NONE);
    }

    /**
     * {@link #exportJsonl(Path)}, reporting progress as operation {@code "export"}: records written
     * of the record count when the export began, and bytes written.
     *
     * @param file the target; its folder is created when missing
     * @param listener receives the progress; an exception it throws stops the export and leaves
     *     the target unchanged
     * @return the number of records exported
     */
    public long exportJsonl(Path file, ProgressListener listener) {
        return parts.wired().jsonl.exportJsonl(file, listener);
    }

    /**
     * @return the collection's index manager: declare indexes with
     *     {@code indexes().field("slug").unique().field("kind").sync()}
     */
    public IndexManager indexes() {
        return parts.wired().indexes;
    }

    /**
     * @return an empty query on this collection, planned with its indexes
     */
    public QueryBuilder query() {
        return QueryBuilder.on(parts.queries());
    }

    /**
     * Checks every record and every index file in one scan: corrupt records are reported as
     * {@code "Corrupt records: <n>"} followed by one {@code "Corrupt record: <path> (<reason>)"} per
     * file (at most 100; index checks are then skipped), otherwise index drift as the original words
     * it ({@code "Index mismatch (equality): kind s-70616765"}).
     *
     * <p>The scan takes no lock, so writers keep going; but a write landing between the scan of
     * its record and the read of its index file would look like drift. So when the unlocked pass
     * finds index drift, the check runs again under the collection write lock, with writers of
     * every process excluded, and only that pass is reported: drift in the report is real. (On a
     * read-only file system, where no lock file can be opened, the unlocked pass is reported.)
     *
     * <p>Reports progress as operation {@code "verify"}: record files read of those listed when the verify
     * began, and their bytes. The second pass that index drift triggers (under the lock) is not reported:
     * the listener sees one run.
     *
     * @param listener receives the progress; an exception it throws stops the verify
     * @return {@code ok}, {@code errors}, {@code stats}
     * @throws dev.storh.LockTimeoutException when drift was found and the write lock stayed held
     *     longer than {@link DocStoreOptions#lockTimeout()}
     */
    @Override
    public VerifyReport<StoreStats> verify(ProgressListener listener) {
        return parts.wired().upkeep.verify(listener);
    }

    /**
     * Rebuilds every index from the record files, under the write lock. The new indexes are
     * built beside the old ones and swapped in, so a corrupt record leaves the old indexes intact.
     *
     * @return {@code fields} (definitions) and {@code entries} (records read)
     * @throws CorruptRecordException when a record file is corrupt
     */
    public ReindexReport reindex() {
        return reindex(ProgressListener.NONE);
    }

    /**
     * {@link #reindex()}, reporting progress as operation {@code "reindex"}: records read of the
     * record count when the rebuild began.
     *
     * @param listener receives the progress; an exception it throws stops the rebuild and leaves
     *     the old indexes in place
     * @return {@code fields} and {@code entries}
     */
    public ReindexReport reindex(ProgressListener listener) {
        return parts.wired().upkeep.reindex(listener);
    }

    /**
     * Reads and validates every record file. No lock is taken; files deleted meanwhile are
     * not counted.
     *
     * @return records, bytes, corrupt files and index definitions
     */
    @Override
    public StoreStats stats() {
        return parts.wired().upkeep.stats();
    }

    /**
     * Mends the collection under the write lock: removes orphan temp files (those of crashed writers, and any older than a minute), moves
     * every corrupt record file to {@code .storh/corrupt/<name>} (or {@code <id>-<8 hex>.jsonc} when
     * taken), then rebuilds the indexes. Afterwards {@link #verify()} is clean unless new damage
     * happens.
     *
     * <p>Reports progress as operation {@code "repair"}: each record counts twice, once read in the scan
     * for corrupt files and once in the index rebuild.
     *
     * @param listener receives the progress; an exception it throws stops the repair (files already
     *     quarantined stay there)
     * @return quarantined files, removed temp files and the rebuild's counts
     * @throws StorageException {@code "Could not quarantine corrupt storage record: <path>"}
     */
    @Override
    public RepairReport<DocRepair> repair(ProgressListener listener) {
        return parts.wired().upkeep.repair(listener);
    }

    /**
     * A DocStore keeps one file per record, so there is nothing to compact; reports the record
     * count of a full scan, as the original does.
     *
     * <p>Reports progress as operation {@code "compact"}: record files read of those listed, and their
     * bytes.
     *
     * @param listener receives the progress
     * @return {@code ok} and {@code records}
     */
    @Override
    public CompactReport<DocCompact> compact(ProgressListener listener) {
        return parts.wired().upkeep.compact(listener);
    }

    /**
     * Removes this instance's writer marker, releases its hold on the lock file and drops the
     * collection's entries from the record cache (so that a closed store's records do not crowd out
     * those of the stores still open; another open instance of the collection reads them again).
     * Further writes fail; reads still work.
     */
    @Override
    public void close() {
        parts.close();
    }

    @Override
    public String toString() {
        return "DocStore[" + collectionRoot() + "]";
    }

    /**
     * Runs an action while holding this collection's write lock (the in-process lock, then
     * {@code flock(2)} on {@code .storh/write.lock}), so a read-compare-write (an optimistic
     * version check, an insert-if-absent) cannot interleave with another writer in this or another
     * process. The lock is re-entrant: the action may call {@link #put}, {@link #delete} and the
     * other writes of this store.
     *
     * @param <T> the action's result type
     * @param action the action; runs on the calling thread
     * @return the action's result
     * @throws dev.storh.LockTimeoutException when the lock stays held longer than
     *     {@link DocStoreOptions#lockTimeout()}; whatever the action throws, after the lock is released
     */
    public <T> T withWriteLock(Supplier<T> action) {
        return parts.wired().gate.withWriteLock(action);
    }
}
