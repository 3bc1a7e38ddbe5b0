package dev.storh.doc;

import dev.storh.CorruptRecordException;
import dev.storh.StorageException;
import dev.storh.StorageRecord;
import dev.storh.fs.AtomicFiles;
import dev.storh.fs.CollectionLock;
import dev.storh.fs.GroupCommit;
import dev.storh.fs.SafePaths;
import dev.storh.fs.WriterMarkers;
import dev.storh.id.UuidV7;
import dev.storh.json.CanonicalJson;
import dev.storh.observe.Observed;
import dev.storh.observe.StoreOperation;
import dev.storh.progress.ProgressListener;
import dev.storh.progress.ProgressTracker;
import dev.storh.doc.index.IndexManager;
import dev.storh.doc.index.ReindexReport;
import dev.storh.query.QueryBuilder;
import dev.storh.query.RecordQuery;
import dev.storh.query.ScanQueryExecutor;
import dev.storh.store.CompactReport;
import dev.storh.store.RepairReport;
import dev.storh.store.Store;
import dev.storh.store.StoreKind;
import dev.storh.store.StoreNames;
import dev.storh.store.VerifyReport;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Spliterator;
import java.util.Spliterators;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import java.util.stream.Stream;
import java.util.stream.StreamSupport;

/**
 * A collection of JSON documents, one file per record.
 *
 * <pre>
 * &lt;root&gt;/&lt;collection&gt;/
 *   data/&lt;bucket&gt;/&lt;id&gt;.jsonc     {"id":"&lt;id&gt;","data":{...}}\n, canonical compact JSON
 *   .storh/write.lock                 flock(2) target of the collection write lock
 *   .storh/writers/&lt;pid&gt;.&lt;8 hex&gt;    marker of a live writing instance
 * </pre>
 *
 * The bucket is characters 24–25 of the id (the first random byte after the timestamp), so bursts
 * of time-ordered ids spread over 256 folders; {@link #stream()} merges the buckets back into id
 * order, so cursors behave as on one sorted list.
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
 * <p><b>Ids.</b> UUIDv7, accepted in either case and stored lowercase (the original keeps the
 * case, which breaks order and buckets). <b>Errors</b> are {@link StorageException}s
 * naming the id or path; invalid input is rejected before any file is touched.
 *
 * <p><b>Links.</b> Nothing below the collection folder is read, written or deleted through a
 * symbolic link, since a link may lead outside the root: {@code data/}, a bucket folder or a
 * {@code .storh} folder that is a link makes the operation fail with a {@link StorageException}
 * naming it; a record file that is a link counts as corrupt. {@link #verify()} reports both.
 */
public final class DocStore implements Store {

    private static final int IMPORT_LINE_PREVIEW = 80;
    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(DocStore.class);

    private final Path collectionRoot;
    private final String collection;
    private final DocLayout layout;
    private final dev.storh.fs.StoreFiles files;
    private final Path dataDir;
    private final Path lockFile;
    private final DocStoreOptions options;
    private final String writerPrefix;
    private final Path marker;
    private final AtomicLong tempCounter = new AtomicLong();
    private final RecordWriter writer;
    private final RecordCache cache;
    private final ListingCache listing;
    private final IndexManager indexes;
    private final DocQueryExecutor executor;
    private final GroupCommit<PendingPut> puts = new GroupCommit<>(this::writePuts, BatchWriter.BATCH_SIZE);
    private final Object lifecycle = new Object();
    private volatile CollectionLock lock;
    private volatile boolean markerRegistered;
    private volatile boolean closed;
    private volatile RecoveryReport recovery = new RecoveryReport(false, 0, null);

    private DocStore(Path collectionRoot, String collection, DocStoreOptions options) {
        this.collectionRoot = collectionRoot;
        this.collection = collection;
        this.layout = DocLayout.of(collectionRoot);
        this.dataDir = layout.dataDir();
        this.lockFile = layout.lockFile();
        this.options = options;
        this.writerPrefix = WriterMarkers.newWriterPrefix();
        this.marker = layout.writersDir().resolve(writerPrefix);
        this.cache = new RecordCache(options.cache(), options.cacheValidation(), collectionRoot);
        this.listing = new ListingCache(dataDir);
        this.files = options.files(collectionRoot);
        this.writer = new RecordWriter(files, dataDir, writerPrefix, written -> {
            cache.invalidate(written);
            listing.invalidate(DocLayout.bucketOf(written));
        });
        this.indexes = new IndexManager(files, collectionRoot, this::withWriteLock, onUnreadable -> onUnreadable == null
                ? stream() : stream(RecordQuery.all().continueOnError(onUnreadable)));
        this.executor = new DocQueryExecutor(new ScanQueryExecutor.RecordSource() {
            @Override
            public Stream<StorageRecord> scan(String afterId) {
                return afterId == null ? stream() : stream(RecordQuery.all().after(afterId));
            }

            @Override
            public Optional<StorageRecord> byId(String id) {
                return doGet(id);
            }

            @Override
            public long count() {
                return DocStore.this.count();
            }
        }, indexes);
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
        if (root == null) {
            throw new StorageException("DocStore root must not be null.");
        }
        Path collectionRoot = resolveCollection(root, collection);
        DocStoreOptions opts = options == null ? DocStoreOptions.defaults() : options;
        if (opts.schema() != null && !opts.schema().collectionName().equals(collection)) {
            throw new StorageException("Schema collection does not match DocStore collection: schema \""
                    + opts.schema().collectionName() + "\", collection \"" + collection + "\"");
        }
        DocStore store = new DocStore(collectionRoot, collection, opts);
        try {
            store.recovery = store.recover();
            if (opts.schema() != null) {
                store.indexes.applySchema(opts.schema()).sync();
            }
        } catch (RuntimeException e) {
            store.close();
            throw e;
        }
        return store;
    }

    /**
     * The open-time check of the writer markers. A stale marker means a writer died, possibly
     * between a record and its index entries: the indexes are rebuilt under the write lock, which
     * registers this instance's own marker first, and the stale markers are removed only after the
     * rebuild, so a kill at any moment of this recovery leaves a stale marker for the next open.
     */
    private RecoveryReport recover() {
        if (!Files.isDirectory(layout.writersDir())) {
            // First open, or a collection written before markers: sweep everything once.
            return new RecoveryReport(false, WriterMarkers.recoverOnOpen(collectionRoot).removedTempFiles(), null);
        }
        List<Path> stale = WriterMarkers.staleMarkers(collectionRoot);
        if (stale.isEmpty() || !indexes.active()) {
            WriterMarkers.OpenRecovery swept = stale.isEmpty() ? new WriterMarkers.OpenRecovery(false, 0)
                    : WriterMarkers.recoverOnOpen(collectionRoot);
            sweepIndexLeftovers();
            return new RecoveryReport(swept.crashedWriter(), swept.removedTempFiles(), null);
        }
        return withWriteLock(() -> {
            int removed = WriterMarkers.sweepTempFiles(collectionRoot) + cleanIndexFolder();
            ReindexReport rebuilt = indexes.rebuildSkippingUnreadable();
            if (!rebuilt.skipped().isEmpty()) {
                LOG.warn("{}: a writer crashed; the index rebuild skipped {} unreadable record file(s), run repair()"
                        + " to quarantine them: {}", collectionRoot, rebuilt.skipped().size(), rebuilt.skipped());
            }
            WriterMarkers.removeMarkers(stale);
            return new RecoveryReport(true, removed, rebuilt);
        });
    }

    /**
     * Removes what a killed index write left in {@code .storh/indexes/} (a build tree, a manifest
     * temp file) when the write lock is free at once: a builder in another process holds it while
     * its files are in use, and then the leftovers wait for the next open or rebuild. Skipped where
     * no lock can be taken (read-only).
     */
    private void sweepIndexLeftovers() {
        if (!indexes.hasLeftovers()) {
            return;
        }
        CollectionLock l;
        try {
            l = lock();
            l.lock(java.time.Duration.ZERO);
        } catch (StorageException busyOrReadOnly) {
            return;
        }
        try {
            cleanIndexFolder();
        } catch (StorageException linked) {
            // verify() reports a linked storh folder; nothing is deleted through it
        } finally {
            l.unlock();
        }
    }

    /**
     * Under the write lock, every index write is finished: index build trees and temp files of any
     * age in {@code .storh/indexes/} are orphans.
     *
     * @return the temp files removed
     */
    private int cleanIndexFolder() {
        SafePaths.requireNoLinks(collectionRoot, layout.indexesDir());
        indexes.cleanLeftovers();
        return WriterMarkers.sweepTempFiles(layout.indexesDir(), java.time.Duration.ZERO);
    }

    static Path resolveCollection(Path root, String collection) {
        return StoreNames.folder(root, "collection", collection);
    }

    /**
     * @return what opening this store did to recover from a crashed writer (nothing, normally)
     */
    public RecoveryReport recovery() {
        return recovery;
    }

    /**
     * @return the collection's folder, {@code <root>/<collection>}
     */
    public Path collectionRoot() {
        return collectionRoot;
    }

    /**
     * @return the collection name
     */
    public String collection() {
        return collection;
    }

    /**
     * @return {@link StoreKind#COLLECTION}
     */
    @Override
    public StoreKind kind() {
        return StoreKind.COLLECTION;
    }

    /**
     * @return the collection name, as {@link #collection()}
     */
    @Override
    public String name() {
        return collection;
    }

    /**
     * @return the collection's folder, as {@link #collectionRoot()}
     */
    @Override
    public Path directory() {
        return collectionRoot;
    }

    /**
     * Stores data under a new id from the id generator (a UUIDv7 by default).
     *
     * @param data the record data: a JSON object in the JSON model
     * @return the stored record, with its id
     * @throws StorageException when the data cannot be encoded (nothing is written), or on I/O failure
     */
    public StorageRecord put(Map<String, ?> data) {
        return put(data, null);
    }

    /**
     * Stores data under an id, replacing any record with that id. Returns once the file is
     * durable.
     *
     * @param data the record data
     * @param id a UUIDv7 (either case), or {@code null} to generate one
     * @return the stored record (id lowercase, a copy of the data)
     * @throws StorageException {@code "Invalid UUIDv7 value."} naming the id; an encoding error naming
     *     the field; a lock or I/O error naming the path. Nothing is written on any of them.
     */
    public StorageRecord put(Map<String, ?> data, String id) {
        return Observed.call(options.observer(), StoreKind.COLLECTION, collection, StoreOperation.PUT,
                () -> doPut(data, id));
    }

    private StorageRecord doPut(Map<String, ?> data, String id) {
        PreparedRecord prepared = prepare(data, id);
        CollectionLock held = lock;
        if (held != null && held.isHeldByCurrentThread()) {
            // Inside withWriteLock (e.g. a version check): write directly, never wait for a batch
            // whose leader would need the lock this thread holds.
            WriteSession session = session();
            session.put(prepared);
            session.finish();
            return prepared.record();
        }
        PendingPut pending = new PendingPut(prepared);
        puts.submit(pending);
        if (pending.error != null) {
            throw pending.error;
        }
        return prepared.record();
    }

    /** A put waiting for its group commit; the leader records a failure of this record alone. */
    private static final class PendingPut {
        final PreparedRecord record;
        RuntimeException error;

        PendingPut(PreparedRecord record) {
            this.record = record;
        }
    }

    /**
     * Group commit of concurrent single puts (the batch is written like a bulk write: temp files
     * fsynced in parallel, renamed in order, one fsync per bucket folder). A record refused on its
     * own (e.g. a unique violation) fails only its caller.
     */
    private void writePuts(List<PendingPut> batch) {
        withWriteLock(() -> {
            WriteSession session = session();
            for (PendingPut p : batch) {
                try {
                    session.put(p.record);
                } catch (RuntimeException e) {
                    p.error = e;
                }
            }
            session.finish();
            return null;
        });
    }

    /**
     * Stores many records under one lock hold. Each item is interpreted as the original does:
     * {@code id} is the item's {@code id} member when it is a string (else generated), {@code data} is
     * its {@code data} member when that is an object or array, otherwise the whole item. All items
     * are encoded and validated before the first file is written.
     *
     * @param items the rows
     * @return the stored records, in input order
     * @throws StorageException on invalid input (nothing written) or I/O failure (earlier items stay)
     */
    public List<StorageRecord> putMany(Iterable<? extends Map<String, ?>> items) {
        return Observed.call(options.observer(), StoreKind.COLLECTION, collection, StoreOperation.PUT,
                () -> doPutMany(items));
    }

    private List<StorageRecord> doPutMany(Iterable<? extends Map<String, ?>> items) {
        List<PreparedRecord> prepared = new ArrayList<>();
        for (Map<String, ?> item : items) {
            prepared.add(prepareItem(item));
        }
        withWriteLock(() -> {
            WriteSession session = session();
            try {
                prepared.forEach(session::put);
            } finally {
                session.finish();
            }
            return null;
        });
        List<StorageRecord> records = new ArrayList<>(prepared.size());
        prepared.forEach(p -> records.add(p.record()));
        return records;
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
        return withWriteLock(() -> {
            WriteSession session = session();
            long n = 0;
            try {
                for (Map<String, ?> item : items) {
                    session.put(prepareItem(item));
                    n++;
                }
            } finally {
                session.finish();
            }
            return n;
        });
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
        return Observed.call(options.observer(), StoreKind.COLLECTION, collection, StoreOperation.GET,
                () -> doGet(id));
    }

    private Optional<StorageRecord> doGet(String id) {
        if (!cache.enabled()) {
            return Optional.ofNullable(RecordFiles.readOrNull(checkedPathForId(id)));
        }
        // Cache hits read no bytes (a record read before, safely): only reads are checked for links.
        Path path = pathForId(id);
        return Optional.ofNullable(cache.get(UuidV7.normalize(id), path,
                () -> SafePaths.requireNoLinks(collectionRoot, path.getParent())));
    }

    /**
     * @param id a UUIDv7, either case
     * @return whether a record file exists for the id (no read)
     * @throws StorageException {@code "Invalid UUIDv7 value."}; a refused symbolic link as in {@link #get}
     */
    public boolean exists(String id) {
        return Files.exists(checkedPathForId(id), java.nio.file.LinkOption.NOFOLLOW_LINKS);
    }

    /**
     * Deletes a record and fsyncs its bucket folder. The bucket folder itself stays.
     *
     * @param id a UUIDv7, either case
     * @return true when a record was deleted, false when none existed
     * @throws StorageException {@code "Could not delete storage record: <id>"} on an I/O error; a
     *     refused symbolic link as in {@link #get} (nothing is deleted)
     */
    public boolean delete(String id) {
        return Observed.call(options.observer(), StoreKind.COLLECTION, collection, StoreOperation.DELETE,
                () -> doDelete(id));
    }

    private boolean doDelete(String id) {
        Path path = pathForId(id);
        return withWriteLock(() -> {
            SafePaths.requireNoLinks(collectionRoot, path.getParent());
            WriteSession session = session();
            StorageRecord old = indexes.active() ? RecordFiles.readOrNull(path) : null;
            boolean deleted;
            try {
                deleted = AtomicFiles.deleteDurably(files, files.nameOf(path));
            } catch (IOException | RuntimeException e) {
                throw new StorageException("Could not delete storage record: " + id + " (" + path + ")", e);
            } finally {
                String lower = UuidV7.normalize(id);
                cache.invalidate(lower);
                listing.invalidate(DocLayout.bucketOf(lower));
            }
            if (deleted) {
                session.deleted(UuidV7.normalize(id), old);
                session.finish();
            }
            return deleted;
        });
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
        List<RecordListing.Entry> entries = listing.list();
        Iterator<StorageRecord> it = new RecordIterator(entries.iterator(), query);
        Stream<StorageRecord> s = StreamSupport.stream(
                Spliterators.spliteratorUnknownSize(it, Spliterator.ORDERED | Spliterator.NONNULL), false);
        return query.limit() > 0 ? s.limit(query.limit()) : s;
    }

    /**
     * @return the ids of all record files in ascending order, from file names only (no file is
     *     read); names that are not valid UUIDv7s are left out. Close the stream.
     */
    public Stream<String> ids() {
        return listing.validIds().stream();
    }

    /**
     * @return the number of record files with a valid UUIDv7 name (no file is read)
     */
    public long count() {
        return listing.validIds().size();
    }

    /**
     * @param id a UUIDv7, either case
     * @return {@code <collection>/data/<bucket>/<id>.jsonc} for the lowercase id; the disk is not touched
     * @throws StorageException {@code "Invalid UUIDv7 value."}
     */
    public Path pathForId(String id) {
        String lower = UuidV7.normalize(id);
        return layout.recordFile(lower);
    }

    /** {@link #pathForId}, refusing it when {@code data/} or the bucket folder is a symbolic link. */
    private Path checkedPathForId(String id) {
        Path path = pathForId(id);
        SafePaths.requireNoLinks(collectionRoot, path.getParent());
        return path;
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
        BufferedReader reader;
        CountingInputStream counted;
        long size;
        try {
            size = Files.size(file);
            counted = new CountingInputStream(Files.newInputStream(file));
            reader = new BufferedReader(new java.io.InputStreamReader(counted,
                    StandardCharsets.UTF_8.newDecoder()
                            .onMalformedInput(java.nio.charset.CodingErrorAction.REPORT)
                            .onUnmappableCharacter(java.nio.charset.CodingErrorAction.REPORT)));
        } catch (IOException | RuntimeException e) {
            throw new StorageException("Could not open JSONL import file: " + file, e);
        }
        try (reader) {
            return withWriteLock(() -> {
                ProgressTracker progress = ProgressTracker.start("import", -1, size, listener);
                WriteSession session = session();
                long n = 0;
                long lineNo = 0;
                try {
                    for (String line = reader.readLine(); line != null; line = reader.readLine()) {
                        lineNo++;
                        if (line.isBlank()) {
                            continue;
                        }
                        session.put(prepareItem(JsonlRows.importRow(line, file, lineNo)));
                        n++;
                        progress.advance(1, counted.take());
                    }
                } catch (IOException e) {
                    throw new StorageException("Could not read JSONL import file: " + file + " at line " + lineNo, e);
                } finally {
                    try {
                        session.finish();
                    } finally {
                        progress.advance(0, counted.take());
                        progress.finish();
                    }
                }
                return n;
            });
        } catch (IOException e) {
            throw new StorageException("Could not close JSONL import file: " + file, e);
        }
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
        if (Files.isDirectory(file)) {
            throw new StorageException("Could not open JSONL export file: " + file + " is a directory");
        }
        Path target = file.toAbsolutePath();
        AtomicFiles.ensureDirectory(target.getParent());
        Path temp = target.resolveSibling("." + target.getFileName() + "." + writerPrefix + "."
                + tempCounter.incrementAndGet() + ".tmp");
        return withWriteLock(() -> {
            long n = 0;
            ProgressTracker progress = ProgressTracker.start("export", count(), ProgressTracker.UNKNOWN_BYTES, listener);
            try (OutputStream out = new java.io.BufferedOutputStream(Files.newOutputStream(temp,
                    StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING, StandardOpenOption.WRITE), 1 << 20);
                    Stream<StorageRecord> records = stream()) {
                for (Iterator<StorageRecord> it = records.iterator(); it.hasNext(); ) {
                    StorageRecord r = it.next();
                    byte[] line = CanonicalJson.recordBytes(r.id(), r.data());
                    out.write(line);
                    n++;
                    progress.advance(1, line.length);
                }
            } catch (IOException | RuntimeException e) {
                AtomicFiles.deleteQuietly(temp);
                try {
                    progress.finish();
                } catch (RuntimeException listenerFailure) {
                    e.addSuppressed(listenerFailure);
                }
                if (e instanceof StorageException se) {
                    throw se;
                }
                throw new StorageException("Could not open JSONL export file: " + file, e);
            }
            try (var channel = java.nio.channels.FileChannel.open(temp, StandardOpenOption.WRITE)) {
                channel.force(true);
            } catch (IOException e) {
                AtomicFiles.deleteQuietly(temp);
                progress.finish();
                throw new StorageException("Could not sync JSONL export file: " + temp, e);
            }
            AtomicFiles.moveAtomic(temp, target);
            progress.finish();
            return n;
        });
    }

    /**
     * @return the collection's index manager: declare indexes with
     *     {@code indexes().field("slug").unique().field("kind").sync()}
     */
    public IndexManager indexes() {
        return indexes;
    }

    /**
     * @return an empty query on this collection, planned with its indexes
     *
     */
    public QueryBuilder query() {
        return QueryBuilder.on(Observed.queries(executor, options.observer(), StoreKind.COLLECTION, collection));
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
     * @return {@code ok}, {@code errors}, {@code stats}
     * @throws dev.storh.LockTimeoutException when drift was found and the write lock stayed held
     *     longer than {@link DocStoreOptions#lockTimeout()}
     */
    @Override
    public VerifyReport<StoreStats> verify() {
        return verify(ProgressListener.NONE);
    }

    /**
     * {@link #verify()}, reporting progress as operation {@code "verify"}: record files read of
     * those listed when the verify began, and their bytes. The second pass that index drift
     * triggers (under the lock) is not reported: the listener sees one run.
     *
     * @param listener receives the progress; an exception it throws stops the verify
     * @return {@code ok}, {@code errors}, {@code stats}
     */
    @Override
    public VerifyReport<StoreStats> verify(ProgressListener listener) {
        Maintenance.Verification unlocked = Maintenance.verify(dataDir, indexes, listener);
        if (!unlocked.indexDrift()) {
            return unlocked.report();
        }
        CollectionLock l;
        try {
            l = lock();
        } catch (StorageException cannotLock) {
            return unlocked.report(); // closed, or no lock file can be opened (read-only): nobody here writes
        }
        l.lock(options.lockTimeout());
        try {
            return Maintenance.verify(dataDir, indexes, ProgressListener.NONE).report();
        } finally {
            l.unlock();
        }
    }

    /**
     * @return the same report as {@link #verify()}
     */
    @Override
    public VerifyReport<StoreStats> health() {
        return verify();
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
        return withWriteLock(() -> {
            ProgressTracker progress = ProgressTracker.start("reindex", count(), ProgressTracker.UNKNOWN_BYTES, listener);
            try {
                return indexes.rebuild(progress);
            } finally {
                progress.finish();
            }
        });
    }

    /**
     * Reads and validates every record file. No lock is taken; files deleted meanwhile are
     * not counted.
     *
     * @return records, bytes, corrupt files and index definitions
     */
    @Override
    public StoreStats stats() {
        return Maintenance.stats(dataDir, indexes);
    }

    /**
     * Mends the collection under the write lock: removes orphan temp files (those of crashed writers, and any older than a minute), moves
     * every corrupt record file to {@code .storh/corrupt/<name>} (or {@code <id>-<8 hex>.jsonc} when
     * taken), then rebuilds the indexes. Afterwards {@link #verify()} is clean unless new damage
     * happens.
     *
     * @return quarantined files, removed temp files and the rebuild's counts
     * @throws StorageException {@code "Could not quarantine corrupt storage record: <path>"}
     */
    @Override
    public RepairReport<DocRepair> repair() {
        return repair(ProgressListener.NONE);
    }

    /**
     * {@link #repair()}, reporting progress as operation {@code "repair"}: each record counts twice,
     * once read in the scan for corrupt files and once in the index rebuild.
     *
     * @param listener receives the progress; an exception it throws stops the repair (files already
     *     quarantined stay there)
     * @return quarantined files, removed temp files and the rebuild's counts
     */
    @Override
    public RepairReport<DocRepair> repair(ProgressListener listener) {
        return withWriteLock(() -> Maintenance.repair(collectionRoot, dataDir, indexes, listener));
    }

    /**
     * A DocStore keeps one file per record, so there is nothing to compact; reports the record
     * count of a full scan, as the original does.
     *
     * @return {@code ok} and {@code records}
     */
    @Override
    public CompactReport<DocCompact> compact() {
        return compact(ProgressListener.NONE);
    }

    /**
     * {@link #compact()}, reporting progress as operation {@code "compact"}: record files read of
     * those listed, and their bytes.
     *
     * @param listener receives the progress
     * @return {@code ok} and {@code records}
     */
    @Override
    public CompactReport<DocCompact> compact(ProgressListener listener) {
        StoreStats counted = Maintenance.stats(dataDir, indexes, "compact", listener);
        return new CompactReport<>(true, counted.bytes(), counted.bytes(), new DocCompact(counted.records()));
    }

    /**
     * Removes this instance's writer marker and releases its hold on the lock file. Further writes
     * fail; reads still work.
     */
    @Override
    public void close() {
        synchronized (lifecycle) {
            if (closed) {
                return;
            }
            closed = true;
            if (markerRegistered) {
                AtomicFiles.deleteQuietly(marker);
                AtomicFiles.syncDirectory(marker.getParent());
            }
            if (lock != null) {
                lock.close();
            }
        }
    }

    @Override
    public String toString() {
        return "DocStore[" + collectionRoot + "]";
    }

    // ---------------------------------------------------------------- writing

    private PreparedRecord prepare(Map<String, ?> data, String id) {
        if (data == null) {
            throw new StorageException("Record data must not be null" + (id == null ? "." : " (id " + id + ")."));
        }
        if (options.schema() != null) {
            options.schema().validate(data);
        }
        String resolved;
        if (id != null) {
            resolved = UuidV7.normalize(id);
        } else if (options.idGenerator() != null) {
            String generated = options.idGenerator().get();
            if (!UuidV7.isValid(generated)) {
                throw new StorageException("Invalid UUIDv7 value from the id generator: \"" + generated + "\"");
            }
            resolved = generated.toLowerCase(Locale.ROOT);
        } else {
            resolved = UuidV7.generate();
        }
        byte[] bytes;
        try {
            bytes = CanonicalJson.recordBytes(resolved, data);
        } catch (StorageException e) {
            throw new StorageException("Could not encode record " + resolved + ": " + e.getMessage(), e);
        }
        return new PreparedRecord(resolved, bytes, new LinkedHashMap<>(data), id != null || options.idGenerator() != null);
    }

    @SuppressWarnings("unchecked")
    private PreparedRecord prepareItem(Map<String, ?> item) {
        if (item == null) {
            throw new StorageException("Record rows must not be null.");
        }
        Object id = item.get("id");
        Object data = item.get("data");
        Map<String, ?> payload;
        if (data instanceof Map<?, ?> map) {
            payload = (Map<String, ?>) map;
        } else if (data instanceof List<?> list) {
            payload = RecordFiles.dataOf(list);
        } else {
            payload = item;
        }
        return prepare(payload, id instanceof String s ? s : null);
    }

    private WriteSession session() {
        return new WriteSession(writer, indexes, recordId -> RecordFiles.readOrNull(checkedPathForId(recordId)));
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
        CollectionLock l = lock();
        l.lock(options.lockTimeout());
        try {
            // Writes go to data/ and .storh/: never through a link that may leave the collection.
            SafePaths.requireNoLinks(collectionRoot, dataDir);
            SafePaths.requireNoLinks(collectionRoot, marker.getParent());
            SafePaths.requireNoLinks(collectionRoot, layout.indexEntriesDir());
            if (!markerRegistered) {
                registerMarker();
            }
            return action.get();
        } finally {
            l.unlock();
        }
    }

    private CollectionLock lock() {
        CollectionLock l = lock;
        if (closed) {
            throw new StorageException("DocStore is closed: " + collectionRoot);
        }
        if (l != null) {
            return l;
        }
        synchronized (lifecycle) {
            if (closed) {
                throw new StorageException("DocStore is closed: " + collectionRoot);
            }
            if (lock == null) {
                SafePaths.requireNoLinks(collectionRoot, lockFile);
                AtomicFiles.ensureDirectory(lockFile.getParent());
                lock = CollectionLock.open(lockFile);
            }
            return lock;
        }
    }

    private void registerMarker() {
        synchronized (lifecycle) {
            if (!markerRegistered) {
                WriterMarkers.register(marker);
                markerRegistered = true;
            }
        }
    }

}
