package dev.storh.doc;

import dev.storh.StorageException;
import dev.storh.doc.index.IndexManager;
import dev.storh.doc.index.IndexTrust;
import dev.storh.fs.AtomicFiles;
import dev.storh.fs.MetaLayout;
import dev.storh.fs.StoreFiles;
import dev.storh.fs.WriterMarkers;
import dev.storh.fs.WritersFolder;
import dev.storh.observe.Observed;
import dev.storh.observe.StoreObserver;
import dev.storh.observe.StoreOperation;
import dev.storh.query.AroundQueryExecutor;
import dev.storh.query.QueryExecutor;
import dev.storh.query.RecordQuery;
import dev.storh.schema.Schema;
import dev.storh.store.StoreKind;
import dev.storh.store.StoreNames;
import java.nio.file.Path;
import java.util.function.Supplier;

/**
 * The parts of one open {@link DocStore}: its byte seams and names, which an open needs, and the
 * rest, wired together at the first call that needs them ({@link #wired()}): write gate, record reads
 * and writes (with their caches), indexes, query executor, JSONL transfer and maintenance. An open of
 * a collection that no writer left unfinished so builds none of them, and a store closed unused never
 * does. {@code DocStore} is the public face that documents and observes them. Thread-safe: the first
 * callers of {@link #wired()} on many threads share one set of parts; every part is thread-safe.
 */
final class DocParts {

    /** The parts of a store's operations, wired together once ({@link DocParts#wired()}). */
    static final class Wired {
        final WriteGate gate;
        final RecordReads reads;
        final RecordWrites writes;
        final IndexManager indexes;
        final QueryExecutor executor;
        final JsonlTransfer jsonl;
        final DocUpkeep upkeep;
        final ListingCache listing;
        final BatchJournal journal;

        Wired(DocStore store, DocLayout layout, UndoFiles undoable, DocStoreOptions options) {
            StoreFiles files = undoable;
            Path collectionRoot = layout.root();
            String writerPrefix = WriterMarkers.newWriterPrefix();
            RecordPreparer preparer = new RecordPreparer(options);
            this.gate = new WriteGate(files, layout, writerPrefix, options.lockTimeout());
            RecordCache cache = new RecordCache(files, layout, options.cache(), options.cacheValidation(), writerPrefix);
            this.listing = new ListingCache(files, layout, true);
            ListingCache listed = listing;
            RecordWrites.Invalidation invalidate = gone -> {
                cache.invalidate(gone);
                listed.invalidate(DocLayout.bucketOf(gone));
            };
            RecordWriter.Written written = (id, bytes) -> {
                if (bytes == null) {
                    cache.invalidate(id);
                } else {
                    cache.fill(id, bytes); // the cache learns our own writes
                }
                listed.invalidate(DocLayout.bucketOf(id));
            };
            this.reads = new RecordReads(files, layout, cache, listing);
            RecordReads read = reads;
            IndexTrust trust = new IndexTrust(new WritersFolder(files, MetaLayout.WRITERS, WriterQuiet.ownMarkers(writerPrefix)),
                    gate::writes);
            this.indexes = new IndexManager(files, collectionRoot, gate::withWriteLock, onUnreadable -> read.stream(
                    onUnreadable == null ? RecordQuery.all() : RecordQuery.all().continueOnError(onUnreadable)), trust);
            RecordWriter writer = new RecordWriter(files, layout, writerPrefix, written);
            this.journal = new BatchJournal(files, layout, writer.temps());
            this.writes = new RecordWrites(preparer, gate, writer, indexes, reads, undoable, invalidate, journal);
            this.jsonl = new JsonlTransfer(store, preparer, writes::session, writerPrefix);
            // each query looks at the writers folder once for all of its index reads (IndexTrust#during)
            this.executor = new AroundQueryExecutor(new DocQueryExecutor(reads, indexes), trust::during, trust::during);
            this.upkeep = new DocUpkeep(files, layout, gate, indexes, reads);
        }
    }

    final DocLayout layout;
    final StoreFiles files;
    private final UndoFiles undoable;
    private final StoreFiles parentFiles;
    private final StoreObserver observer;
    private final String collection;
    private final DocStore store;
    private final DocStoreOptions options;
    /** Built by the first {@link #wired()}; guarded by {@code this} for writes. */
    private volatile Wired wired;
    /** Whether the store was closed (guarded by {@code this}): parts wired after that come closed. */
    private boolean closed;

    /**
     * @param store the store the parts serve (JSONL transfer reads and writes through it)
     * @param collectionRoot the collection folder
     * @param options the store's options
     */
    DocParts(DocStore store, Path collectionRoot, DocStoreOptions options) {
        this.layout = DocLayout.of(collectionRoot);
        this.observer = options.observer();
        this.collection = store.collection();
        this.store = store;
        this.options = options;
        // The parent's seam first: a test's factory may keep the seam it made last.
        this.parentFiles = options.files(collectionRoot.getParent());
        this.undoable = new UndoFiles(options.files(collectionRoot));
        this.files = undoable;
    }

    /**
     * @return the store's parts, wired together by the first call (callers on other threads meanwhile
     *     wait for it and share them); a store closed before comes with its write gate closed
     */
    Wired wired() {
        Wired w = wired;
        if (w == null) {
            synchronized (this) {
                w = wired;
                if (w == null) {
                    w = new Wired(store, layout, undoable, options);
                    if (closed) {
                        w.gate.close();
                    }
                    wired = w;
                }
            }
        }
        return w;
    }

    /**
     * Closes the store: saves the listing counts, closes the write gate (removing the writer marker)
     * and drops the collection's cached records, of the parts wired so far; parts wired later come
     * closed. Idempotent.
     */
    void close() {
        Wired w;
        synchronized (this) {
            closed = true;
            w = wired;
        }
        if (w != null) {
            w.listing.save();
            w.gate.close();
            w.reads.forget();
        }
    }

    /**
     * Runs a data operation, timed for the store's observer when there is one.
     *
     * @param <T> the result type
     * @param operation what runs
     * @param action the operation; runs on the calling thread
     * @return its result
     */
    <T> T observed(StoreOperation operation, Supplier<T> action) {
        return Observed.call(observer, StoreKind.COLLECTION, collection, operation, action);
    }

    /** @return the query executor, its queries timed for the store's observer */
    QueryExecutor queries() {
        return Observed.queries(wired().executor, observer, StoreKind.COLLECTION, collection);
    }

    /**
     * @param root the folder holding collections
     * @param collection the collection name
     * @return the collection folder, {@code <root>/<collection>}, absolute and normalised
     * @throws StorageException when the root is null or the name unsafe
     */
    static Path folder(Path root, String collection) {
        if (root == null) {
            throw new StorageException("DocStore root must not be null.");
        }
        return StoreNames.folder(root, "collection", collection);
    }

    /**
     * @param collection the collection name
     * @param options the options given, or {@code null} for the defaults
     * @return the options to open with
     * @throws StorageException when the schema names another collection
     */
    static DocStoreOptions checked(String collection, DocStoreOptions options) {
        DocStoreOptions opts = options == null ? DocStoreOptions.defaults() : options;
        if (opts.schema() != null && !opts.schema().collectionName().equals(collection)) {
            throw new StorageException("Schema collection does not match DocStore collection: schema \""
                    + opts.schema().collectionName() + "\", collection \"" + collection + "\"");
        }
        return opts;
    }

    /**
     * What opening does once the parts exist: the collection folder is created when missing (see
     * {@link DocRecovery#recover}), the recovery from a crashed writer runs, then the schema's indexes
     * are declared.
     *
     * @param schema the collection's schema, or {@code null}
     * @return what the recovery found and did
     */
    RecoveryReport recover(Schema schema) {
        RecoveryReport report;
        try {
            report = DocRecovery.recover(this);
        } finally {
            Wired w = wired;
            if (w != null) {
                w.journal.recovering(false);
            }
        }
        if (schema != null) {
            wired().indexes.applySchema(schema).sync();
        }
        return report;
    }

    /** Creates the collection folder when it is missing (with its parent's fsync). */
    void ensureFolder() {
        AtomicFiles.ensureStoreFolder(parentFiles, layout.root().getFileName().toString(), files);
    }

    /**
     * @return the parts, for a recovery that needs them: a batch journal retired while the open
     *     recovers is a crashed writer's, whose lost writes come back
     */
    Wired recovering() {
        Wired w = wired();
        w.journal.recovering(true);
        return w;
    }
}
