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
 * The parts of one open {@link DocStore}, wired together once: its byte seam, write gate, record
 * reads and writes (with their caches), indexes, query executor, JSONL transfer and maintenance.
 * {@code DocStore} is the public face that documents and observes them. Immutable after
 * construction; every part is thread-safe.
 */
final class DocParts {

    final DocLayout layout;
    final StoreFiles files;
    final WriteGate gate;
    final RecordReads reads;
    final RecordWrites writes;
    final IndexManager indexes;
    final QueryExecutor executor;
    final JsonlTransfer jsonl;
    final DocUpkeep upkeep;
    final ListingCache listing;
    private final BatchJournal journal;
    private final StoreFiles parentFiles;
    private final StoreObserver observer;
    private final String collection;

    /**
     * @param store the store the parts serve (JSONL transfer reads and writes through it)
     * @param collectionRoot the collection folder
     * @param options the store's options
     */
    DocParts(DocStore store, Path collectionRoot, DocStoreOptions options) {
        this.layout = DocLayout.of(collectionRoot);
        this.observer = options.observer();
        this.collection = store.collection();
        // The parent's seam first: a test's factory may keep the seam it made last.
        this.parentFiles = options.files(collectionRoot.getParent());
        UndoFiles undoable = new UndoFiles(options.files(collectionRoot));
        this.files = undoable;
        String writerPrefix = WriterMarkers.newWriterPrefix();
        RecordPreparer preparer = new RecordPreparer(options);
        this.gate = new WriteGate(files, layout, writerPrefix, options.lockTimeout());
        RecordCache cache = new RecordCache(files, layout, options.cache(), options.cacheValidation(), writerPrefix);
        this.listing = new ListingCache(files, layout, true);
        RecordWrites.Invalidation invalidate = gone -> {
            cache.invalidate(gone);
            listing.invalidate(DocLayout.bucketOf(gone));
        };
        RecordWriter.Written written = (id, bytes) -> {
            if (bytes == null) {
                cache.invalidate(id);
            } else {
                cache.fill(id, bytes); // the cache learns our own writes
            }
            listing.invalidate(DocLayout.bucketOf(id));
        };
        this.reads = new RecordReads(files, layout, cache, listing);
        IndexTrust trust = new IndexTrust(new WritersFolder(files, MetaLayout.WRITERS, WriterQuiet.ownMarkers(writerPrefix)),
                gate::writes);
        this.indexes = new IndexManager(files, collectionRoot, gate::withWriteLock, onUnreadable -> reads.stream(
                onUnreadable == null ? RecordQuery.all() : RecordQuery.all().continueOnError(onUnreadable)), trust);
        RecordWriter writer = new RecordWriter(files, layout, writerPrefix, written);
        this.journal = new BatchJournal(files, layout, writer.temps());
        this.writes = new RecordWrites(preparer, gate, writer, indexes, reads, undoable, invalidate, journal);
        this.jsonl = new JsonlTransfer(store, preparer, writes::session, writerPrefix);
        // each query looks at the writers folder once for all of its index reads (IndexTrust#during)
        this.executor = new AroundQueryExecutor(new DocQueryExecutor(reads, indexes), trust::during, trust::during);
        this.upkeep = new DocUpkeep(files, layout, gate, indexes, reads);
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
        return Observed.queries(executor, observer, StoreKind.COLLECTION, collection);
    }

    /**
     * @param root the folder holding collections
     * @param collection the collection name
     * @param options the options given, or {@code null} for the defaults
     * @return the options to open with
     * @throws StorageException when the root is null, the name unsafe or the schema names another collection
     */
    static DocStoreOptions checked(Path root, String collection, DocStoreOptions options) {
        if (root == null) {
            throw new StorageException("DocStore root must not be null.");
        }
        StoreNames.folder(root, "collection", collection); // refuses an unsafe name first
        DocStoreOptions opts = options == null ? DocStoreOptions.defaults() : options;
        if (opts.schema() != null && !opts.schema().collectionName().equals(collection)) {
            throw new StorageException("Schema collection does not match DocStore collection: schema \""
                    + opts.schema().collectionName() + "\", collection \"" + collection + "\"");
        }
        return opts;
    }

    /**
     * What opening does once the parts exist: the collection folder is created when missing, then
     * the recovery from a crashed writer runs, then the schema's indexes are declared.
     *
     * @param schema the collection's schema, or {@code null}
     * @return what the recovery found and did
     */
    RecoveryReport recover(Schema schema) {
        AtomicFiles.ensureStoreFolder(parentFiles, layout.root().getFileName().toString(), files);
        RecoveryReport report;
        journal.recovering(true); // a journal retired during the open is a crashed writer's: its lost writes come back
        try {
            report = DocRecovery.recover(files, layout, indexes, gate);
        } finally {
            journal.recovering(false);
        }
        if (schema != null) {
            indexes.applySchema(schema).sync();
        }
        return report;
    }
}
