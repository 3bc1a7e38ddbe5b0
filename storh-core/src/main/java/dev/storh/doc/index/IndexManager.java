package dev.storh.doc.index;

import dev.storh.StorageException;
import dev.storh.StorageRecord;
import dev.storh.UniqueConstraintException;
import dev.storh.progress.ProgressTracker;
import dev.storh.schema.Schema;
import dev.storh.schema.SchemaField;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import java.util.stream.Stream;

/**
 * The secondary indexes of one DocStore collection,
 * in the original's files under {@code <collection>/.storh/indexes/}.
 *
 * <pre>
 * store.indexes().field("slug").unique().field("kind").field("publishedAt").range().sync();
 * </pre>
 *
 * Declarations collect in a pending set and reach disk with {@link #sync()}: the manifest is
 * rewritten and, when the set changed, every index is rebuilt from the records. Definitions only
 * grow (flags are ORed), as in the original. The store keeps the indexes in step with every
 * write under the collection write lock, re-reading the manifest when another process changed it
 * (W9). Rebuilds write a complete new {@code entries/} folder beside the old one and swap it in,
 * so a failed rebuild leaves the old indexes in place (W8).
 *
 * <p><b>Readers during a rebuild.</b> An indexed read answers from the old indexes or the new
 * ones, never from a half-swapped set: on Linux the new folder is exchanged with the old one in
 * one {@code renameat2(RENAME_EXCHANGE)} step, visible to every process at once; elsewhere the
 * two renames of the swap run under this manager's exclusive swap lock, which every read of this
 * JVM takes shared (readers in other processes may then find no index for a moment). Thread-safe.
 */
public final class IndexManager {

    /** A record's change for index maintenance: old data (or null) and new data (or null). */
    public record Change(String id, Map<String, Object> before, Map<String, Object> after) {
    }

    /** The collection's records, read from disk in id order. */
    public interface RecordSource {
        /**
         * @param onUnreadable receives the file name's id and the error of each record file that
         *     cannot be read or decoded, which is then skipped; {@code null} to throw instead
         * @return the records; the caller closes the stream
         */
        Stream<StorageRecord> records(java.util.function.BiConsumer<String, StorageException> onUnreadable);
    }

    /** Runs an action under the collection write lock. */
    public interface Locker {
        /**
         * @param <T> result type
         * @param action the action
         * @return its result
         */
        <T> T withWriteLock(Supplier<T> action);
    }

    private final dev.storh.doc.DocLayout layout;
    private final dev.storh.fs.StoreFiles files;
    private final Locker locker;
    private final RecordSource records;
    private final IndexTrust trust;
    /** The index state, built at the first call that needs it ({@link #state()}); {@code null} until then. */
    private volatile State state;

    /**
     * What the manager reads and writes through, built once, at the first call that needs it: an open
     * of a collection reads no index file, and a store that is closed unused never does.
     */
    private static final class State {
        final IndexReads reads;
        final IndexUpdates updates;
        final IndexRebuilds rebuilds;
        final PathIndexes paths;
        final DeferredSyncs deferred;
        final DeclaredIndexes declared;

        State(dev.storh.fs.StoreFiles files, dev.storh.doc.DocLayout layout, Locker locker, RecordSource records, IndexTrust trust) {
            IndexSwap swap = new IndexSwap();
            this.reads = new IndexReads(files, layout.indexEntriesDir(), swap, locker, records, trust);
            this.deferred = new DeferredSyncs(files);
            this.updates = new IndexUpdates(deferred, layout.indexEntriesDir(), swap, reads);
            this.rebuilds = new IndexRebuilds(files, layout, swap, reads, records);
            this.paths = new PathIndexes(files, deferred, layout.indexesDir(), layout.indexEntriesDir(), swap, locker, records);
            this.declared = new DeclaredIndexes(files, layout.indexManifest(), trust);
        }
    }

    /**
     * @param files the collection's byte seam (rooted at {@code collectionRoot})
     * @param collectionRoot the collection folder
     * @param locker runs actions under the collection write lock
     * @param records streams the collection's records from disk, in id order
     * @param trust when index state checked before may be read without looking at its files again
     */
    public IndexManager(dev.storh.fs.StoreFiles files, Path collectionRoot, Locker locker, RecordSource records, IndexTrust trust) {
        this.files = files;
        this.layout = dev.storh.doc.DocLayout.of(collectionRoot);
        this.locker = locker;
        this.records = records;
        this.trust = trust;
    }

    /** @return the index state, built by the first caller (others wait for it and share it) */
    private State state() {
        State s = state;
        if (s == null) {
            synchronized (this) {
                s = state;
                if (s == null) {
                    s = new State(files, layout, locker, records, trust);
                    state = s;
                }
            }
        }
        return s;
    }

    /**
     * Turns storh's append-only value files on or off, from the next {@link #sync()} on (recorded in
     * the manifest as {@code "layout": "value-deltas"}). With them, a write appends its change of an
     * equality or compound value to a small delta file beside the value file instead of rewriting
     * the value file, so a put or a delete costs the same however many records share the value;
     * reads merge the delta. <b>Not for a collection shared with the PHP original</b>, which reads
     * the value files only: turning them off again ({@code valueDeltas(false).sync()}) rebuilds
     * every index in the original's files before handing it over. See docs/indexes.md.
     *
     * @param on whether writes append value deltas
     * @return this manager
     */
    public IndexManager valueDeltas(boolean on) {
        state().declared.requestValueDeltas(on);
        return this;
    }

    /** @return whether writes append value deltas (the manifest says so; re-read when it changed on disk) */
    public boolean valueDeltas() {
        State s = state();
        s.declared.current();
        return s.declared.valueDeltas();
    }

    /**
     * @return whether writes append value deltas once the next {@link #sync()} has run: the layout
     *     last asked for by {@link #valueDeltas(boolean)}, else the manifest's ({@link #valueDeltas()})
     */
    public boolean valueDeltasAfterSync() {
        Boolean asked = state().declared.requestedValueDeltas();
        return asked != null ? asked : valueDeltas();
    }

    // ------------------------------------------------------------------ declaring

    /**
     * @param name a top-level field
     * @return a builder to flag it ({@code unique()}, {@code range()}, {@code index()}) or declare the next field
     * @throws StorageException {@code "Index field cannot be empty."}
     */
    public IndexFieldBuilder field(String name) {
        defineField(name, false, false);
        return new IndexFieldBuilder(this, name);
    }

    /**
     * Adds a definition to the pending set, ORing flags with any earlier one.
     *
     * @param name a top-level field
     * @param unique unique index
     * @param range range index
     * @return this manager
     * @throws StorageException {@code "Index field cannot be empty."}
     */
    public IndexManager defineField(String name, boolean unique, boolean range) {
        if (name == null || name.isBlank()) {
            throw new StorageException("Index field cannot be empty.");
        }
        state().declared.define(new IndexDefinition(name, unique, range));
        return this;
    }

    /**
     * @param schema a schema; each indexed field is defined with its unique/range flags
     * @return this manager
     */
    public IndexManager applySchema(Schema schema) {
        for (SchemaField f : schema.fields()) {
            if (f.indexed()) {
                defineField(f.name(), f.unique(), f.range());
            }
        }
        return this;
    }

    /**
     * Adds a path index to the pending set ({@link PathIndexDefinition}): an index on a nested
     * path, whose entries include every element of the lists the path reaches (multikey), kept in
     * storh's own files beside the original's; with {@code unique}, {@code null} and a missing path
     * are never checked; with {@code ignoreCase}, strings are indexed case-folded. A definition of the
     * same path and case mode merges by ORing {@code unique}. Takes effect with {@link #sync()}.
     *
     * <pre>
     * store.indexes().definePath(FieldPath.of("publisher", "name"), false, false)
     *      .definePath(FieldPath.of("tags"), false, true).sync();
     * </pre>
     *
     * @param path the path; {@code FieldPath.of("email")} indexes a top-level key
     * @param unique whether two records may not reach an identical non-null value
     * @param ignoreCase whether strings are indexed case-folded (per {@code Locale.ROOT})
     * @return this manager
     * @throws StorageException {@code "Index field cannot be empty."} without a path
     */
    public IndexManager definePath(dev.storh.query.FieldPath path, boolean unique, boolean ignoreCase) {
        state().paths.define(new PathIndexDefinition(path, unique, ignoreCase));
        return this;
    }

    /**
     * @return the path indexes in force (re-read when their file changed on disk)
     */
    public List<PathIndexDefinition> pathDefinitions() {
        return state().paths.definitions();
    }

    /**
     * @return every top-level key an index reads (the fields of the original's definitions and the
     *     first key of every path index); writes keep these of a record's old data for maintenance
     */
    public java.util.Set<String> indexedKeys() {
        java.util.Set<String> keys = new java.util.LinkedHashSet<>();
        definitions().forEach(d -> keys.add(d.field()));
        pathDefinitions().forEach(d -> keys.add(d.path().segments().get(0)));
        return keys;
    }

    /**
     * Writes the pending definitions (merged with any another process wrote) to the manifest and,
     * when the set changed, builds the indexes of the new or re-flagged fields (and new compound
     * pairs) from the records, leaving the others untouched.
     *
     * @return the definitions now in force
     */
    public List<IndexDefinition> sync() {
        return sync(true);
    }

    /**
     * @param rebuild whether to rebuild when the definition set changed; without it, records
     *     already stored are not indexed until {@link #rebuild()}
     * @return the definitions now in force
     */
    public List<IndexDefinition> sync(boolean rebuild) {
        return locker.withWriteLock(() -> {
            State s = state();
            DeclaredIndexes.Written w = s.declared.write();
            if (rebuild && w.deltasTurnedOff()) {
                s.rebuilds.rebuild(w.after(), s.paths.definitions(), false, ProgressTracker.none()); // the original's files only
            } else if (rebuild && !w.before().equals(w.after())) {
                s.rebuilds.rebuildChanged(w.before(), w.after(), s.paths.definitions());
            }
            s.paths.sync(rebuild);
            return w.after();
        });
    }

    /**
     * Rebuilds every index from the record files, under the write lock.
     *
     * @return {@code fields} (definitions) and {@code entries} (records read)
     * @throws StorageException when a record is corrupt; the old indexes then stay in place
     */
    public ReindexReport rebuild() {
        return rebuild(ProgressTracker.none());
    }

    /**
     * {@link #rebuild()}, advancing {@code progress} by one item per record read.
     *
     * @param progress the tracker of the operation the rebuild belongs to (a reindex or a repair);
     *     not finished here
     * @return {@code fields} (definitions) and {@code entries} (records read)
     * @throws StorageException when a record is corrupt; the old indexes then stay in place
     */
    public ReindexReport rebuild(ProgressTracker progress) {
        return locker.withWriteLock(() -> rebuildLocked(false, progress));
    }

    /**
     * Rebuilds every index from the readable record files, under the write lock, skipping the
     * ones that cannot be read or decoded (e.g. torn by a crash) instead of failing: recovery
     * after a crashed writer, so the store opens and the damage can be verified and repaired.
     *
     * @return the counts, with one message per skipped file (naming its path) in
     *     {@link ReindexReport#skipped()}
     * @throws StorageException when the index files cannot be written
     */
    public ReindexReport rebuildSkippingUnreadable() {
        return locker.withWriteLock(() -> rebuildLocked(true, ProgressTracker.none()));
    }

    /**
     * @return the definitions in force (re-read when the manifest changed on disk), sorted by field
     */
    public List<IndexDefinition> definitions() {
        return state().declared.current();
    }

    /**
     * @param field a field
     * @return its definition, if any
     */
    public Optional<IndexDefinition> definition(String field) {
        for (IndexDefinition d : definitions()) {
            if (d.field().equals(field)) {
                return Optional.of(d);
            }
        }
        return Optional.empty();
    }

    /**
     * @return whether any index (of the original's kinds or a path index) is defined
     */
    public boolean active() {
        return !definitions().isEmpty() || !pathDefinitions().isEmpty();
    }

    private ReindexReport rebuildLocked(boolean skipUnreadable, ProgressTracker progress) {
        State s = state();
        return s.rebuilds.rebuild(s.declared.reread(), s.paths.definitions(), skipUnreadable, progress);
    }

    Path entries() {
        return layout.indexEntriesDir();
    }

    // ------------------------------------------------------------------ writes, reads, leftovers

    /**
     * Checks unique definitions for one record about to be written, under the write lock.
     *
     * @param id the record's id
     * @param data its new data
     * @param pendingValues unique values of records written earlier in the same unflushed batch:
     *     field → value key → id; this record's values are added
     * @throws UniqueConstraintException naming the field, value and the record holding it
     */
    public void checkUnique(String id, Map<String, Object> data, Map<String, Map<String, String>> pendingValues) {
        checkUnique(id, data, pendingValues, Map.of());
    }

    /**
     * Checks unique definitions for one record of a batch whose records are all known before the
     * first is written: a value the store holds for a record that the batch rewrites without that
     * value counts as free (so a batch may move or swap unique values between its records); the
     * batch's own records are checked against each other through {@code pendingValues}.
     *
     * @param id the record's id
     * @param data its new data
     * @param pendingValues unique values of the batch's records checked so far: field → value key →
     *     id; this record's values are added
     * @param rewritten the new data of every record the batch writes, by id
     * @throws UniqueConstraintException naming the field, value and the record holding it
     */
    public void checkUnique(String id, Map<String, Object> data, Map<String, Map<String, String>> pendingValues,
            Map<String, Map<String, Object>> rewritten) {
        State s = state();
        s.updates.checkUnique(s.declared.known(), id, data, pendingValues, rewritten);
        s.paths.checkUnique(id, data, pendingValues, rewritten);
    }

    /**
     * Applies a batch of record changes to the index files, under the write lock. Each value
     * file is rewritten once per batch and each range delta appended once; changes of one id apply
     * in order. Unchanged values are left alone (the original removes and re-adds them, W7).
     *
     * @param changes in the order the records were written
     */
    public void apply(List<Change> changes) {
        State s = state();
        s.updates.apply(s.declared.known(), changes, s.declared.valueDeltas());
        s.paths.apply(changes);
    }

    /**
     * After the files a write changed were put back (its undo), drops what memory took from that
     * write's index changes; call under the write lock.
     */
    public void undone() {
        State s = state;
        if (s != null) {
            s.paths.undone();
        }
    }

    /**
     * The value files, range deltas and path index deltas that {@link #apply} writes reach the disk lazily: their
     * fsyncs wait for this call. Until it returns, the collection's writer marker must stay (a
     * crash then makes the next open rebuild the indexes from the records). Call under the write lock.
     *
     * @return how many files and folders were fsynced (0 when nothing waited)
     * @throws StorageException naming the file or folder that could not be synced (it stays pending)
     */
    public int syncDeferred() {
        State s = state;
        return s == null ? 0 : s.deferred.syncAll(); // nothing was written before the state was built
    }

    /**
     * @param c a query condition
     * @return the path index that can narrow it down, or {@code null}: one on the condition's path
     *     whose case mode fits the operator (see {@link PathIndexDefinition})
     */
    public PathIndexDefinition pathIndexFor(dev.storh.query.Condition c) {
        return state().paths.serving(c);
    }

    /**
     * @param d the index {@link #pathIndexFor} returned for {@code c}
     * @param c the condition
     * @return the ids of every record that may match {@code c}, ascending (records must be re-checked);
     *     {@code null} when the index cannot be read or built now (scan instead)
     */
    public java.util.SortedSet<String> pathCandidates(PathIndexDefinition d, dev.storh.query.Condition c) {
        return state().paths.candidates(d, c);
    }

    /**
     * @param d a definition
     * @param value an indexable value (JSON model)
     * @return ids whose field may be identical to the value, ascending: on a range field exactly those;
     *     on an equality field every id filed under the value's key(s), which also holds values the
     *     original reads as the same double (check the records)
     */
    public List<String> idsEqual(IndexDefinition d, Object value) {
        return state().reads.idsEqual(d, value);
    }

    /**
     * The records a range condition may match that the range lines cannot hold.
     *
     * @param field a range-indexed field
     * @return ids of records whose field holds a list or an object, ascending. When the list is
     *     missing (range files rebuilt by the original), it is built once from the records under the
     *     write lock and kept; on a store that cannot be written it is computed for this call only.
     */
    public java.util.Set<String> unindexedIds(String field) {
        return state().reads.unindexedIds(field);
    }

    /**
     * @param d an equality definition
     * @param value an indexable value
     * @return the {@code count} of its value file (0 when absent)
     */
    public long countEqual(IndexDefinition d, Object value) {
        return state().reads.countEqual(d, value);
    }

    /**
     * @param d an equality definition
     * @param value an indexable value
     * @param limit how many ids to read, at least 1
     * @return the first {@code limit} ids of the value file, ascending, read without parsing the rest
     */
    public List<String> idsEqualLimited(IndexDefinition d, Object value, int limit) {
        return state().reads.idsEqualLimited(d, value, limit);
    }

    /**
     * @param left definition whose name sorts first
     * @param leftValue its value
     * @param right the other definition
     * @param rightValue its value
     * @return ids of the compound bucket, ascending
     */
    public List<String> idsCompound(IndexDefinition left, Object leftValue, IndexDefinition right, Object rightValue) {
        return state().reads.idsCompound(left, leftValue, right, rightValue);
    }

    /**
     * @param left definition whose name sorts first
     * @param leftValue its value
     * @param right the other definition
     * @param rightValue its value
     * @return the {@code count} of the compound bucket (0 when absent), kept until the file changes
     */
    public long countCompound(IndexDefinition left, Object leftValue, IndexDefinition right, Object rightValue) {
        return state().reads.countCompound(left, leftValue, right, rightValue);
    }

    /**
     * @param field a range-indexed field
     * @return reads of its range index stride by stride, each checked against the files' versions
     */
    public RangeSlices rangeSlices(String field) {
        return state().reads.slices(field);
    }

    /**
     * @param field a range-indexed field
     * @return its entries sorted by value in query order, cached until the files change
     */
    public RangeView rangeView(String field) {
        return state().reads.rangeView(field);
    }

    /**
     * @return whether {@code .storh/indexes/} holds a tree a crashed build or swap left behind, or
     *     a temp file (of the manifest); one listing of that folder, not recursive
     */
    public boolean hasLeftovers() {
        return hasLeftovers(files, layout.indexesDir());
    }

    /**
     * {@link #hasLeftovers()} without a manager: what an open looks at before it wires a store.
     *
     * @param files the collection's byte seam
     * @param indexesDir the collection's {@code .storh/indexes/}
     * @return whether that folder holds a tree a crashed build or swap left behind, or a temp file;
     *     false when it is missing or cannot be listed
     */
    public static boolean hasLeftovers(dev.storh.fs.StoreFiles files, Path indexesDir) {
        return IndexRebuilds.hasLeftovers(files, indexesDir);
    }

    /**
     * Deletes the trees a crashed build or swap left in {@code .storh/indexes/}; call it only under
     * the collection write lock (a builder holds it while its tree is in use).
     */
    public void cleanLeftovers() {
        state().rebuilds.cleanLeftovers();
    }

    /**
     * Compares every index file with what the records imply.
     *
     * @param recordsOnDisk the records, in id order
     * @return error strings in the original's forms; empty when the indexes match
     */
    public List<String> verify(Stream<StorageRecord> recordsOnDisk) {
        List<IndexDefinition> defs = definitions();
        try (ExpectedIndexes expected = ExpectedIndexes.forVerify(files, files.nameOf(layout.sortDir()), defs,
                pathDefinitions())) {
            recordsOnDisk.forEach(expected::add);
            return expected.compareWith(files, entries());
        }
    }
}
