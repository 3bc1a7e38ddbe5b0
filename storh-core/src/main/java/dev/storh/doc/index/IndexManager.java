package dev.storh.doc.index;

import dev.storh.StorageException;
import dev.storh.StorageRecord;
import dev.storh.UniqueConstraintException;
import dev.storh.fs.AtomicFiles;
import dev.storh.progress.ProgressTracker;
import dev.storh.schema.Schema;
import dev.storh.schema.SchemaField;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
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

    private static final SecureRandom RANDOM = new SecureRandom();

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
    private final Path indexesDir;
    private final Path manifest;
    private final Locker locker;
    private final RecordSource records;
    /** Shared by index reads, exclusive around swaps that may leave an index file missing. */
    private final java.util.concurrent.locks.ReentrantReadWriteLock swap = new java.util.concurrent.locks.ReentrantReadWriteLock();
    private final Object pendingLock = new Object();
    private final TreeMap<String, IndexDefinition> pending = new TreeMap<>(dev.storh.query.Values::compareUtf8);
    private volatile List<IndexDefinition> definitions;
    private volatile IndexManifest.Stamp stamp;
    private final Map<String, CachedRange> rangeCache = new ConcurrentHashMap<>();

    private static final class CachedRange {
        final IndexManifest.Stamp main;
        final IndexManifest.Stamp delta;
        final Map<String, Object> state;
        volatile RangeView view;

        CachedRange(IndexManifest.Stamp main, IndexManifest.Stamp delta, Map<String, Object> state) {
            this.main = main;
            this.delta = delta;
            this.state = state;
        }
    }

    /**
     * @param collectionRoot the collection folder
     * @param locker runs actions under the collection write lock
     * @param records streams the collection's records from disk, in id order
     */
    public IndexManager(Path collectionRoot, Locker locker, RecordSource records) {
        this(dev.storh.fs.LocalFiles.at(collectionRoot), collectionRoot, locker, records);
    }

    /**
     * @param files the collection's byte seam (rooted at {@code collectionRoot})
     * @param collectionRoot the collection folder
     * @param locker runs actions under the collection write lock
     * @param records streams the collection's records from disk, in id order
     */
    public IndexManager(dev.storh.fs.StoreFiles files, Path collectionRoot, Locker locker, RecordSource records) {
        this.files = files;
        this.layout = dev.storh.doc.DocLayout.of(collectionRoot);
        this.indexesDir = layout.indexesDir();
        this.manifest = layout.indexManifest();
        this.locker = locker;
        this.records = records;
        this.stamp = IndexManifest.stamp(manifest);
        this.definitions = IndexManifest.read(manifest);
        definitions.forEach(d -> pending.put(d.field(), d));
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
        IndexDefinition d = new IndexDefinition(name, unique, range);
        synchronized (pendingLock) {
            pending.merge(name, d, IndexDefinition::merge);
        }
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
            List<IndexDefinition> before = IndexManifest.read(manifest);
            List<IndexDefinition> after;
            synchronized (pendingLock) {
                before.forEach(d -> pending.merge(d.field(), d, IndexDefinition::merge));
                after = List.copyOf(pending.values());
            }
            IndexManifest.write(files, manifest, after);
            remember(after);
            if (rebuild && !before.equals(after)) {
                rebuildChanged(before, after);
            }
            return after;
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
        refresh();
        return definitions;
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
     * @return whether any index is defined
     */
    public boolean active() {
        return !definitions().isEmpty();
    }

    private void remember(List<IndexDefinition> defs) {
        definitions = defs;
        stamp = IndexManifest.stamp(manifest);
    }

    private void refresh() {
        IndexManifest.Stamp now = IndexManifest.stamp(manifest);
        if (!IndexManifest.sameStamp(now, stamp)) {
            List<IndexDefinition> defs = IndexManifest.read(manifest);
            synchronized (pendingLock) {
                defs.forEach(d -> pending.merge(d.field(), d, IndexDefinition::merge));
            }
            definitions = defs;
            stamp = now;
        }
    }

    Path entries() {
        return layout.indexEntriesDir();
    }

    // ------------------------------------------------------------------ writes

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
        for (IndexDefinition d : definitions) {
            if (!d.unique() || !data.containsKey(d.field()) || !IndexKeys.isIndexable(data.get(d.field()))) {
                continue;
            }
            Object value = dev.storh.query.Values.normalise(data.get(d.field()));
            String vk = IndexKeys.valueKeys(value).get(0); // one key per identity class (0.0 and -0.0)
            String inBatch = pendingValues.getOrDefault(d.field(), Map.of()).get(vk);
            if (inBatch != null && !inBatch.equals(id)) {
                throw new UniqueConstraintException(d.field(), value, inBatch);
            }
            for (String other : idsEqual(d, value)) {
                if (!other.equals(id)) {
                    throw new UniqueConstraintException(d.field(), value, other);
                }
            }
            pendingValues.computeIfAbsent(d.field(), f -> new HashMap<>()).put(vk, id);
        }
    }

    /**
     * Applies a batch of record changes to the index files, under the write lock. Each value
     * file is rewritten once per batch and each range delta appended once; changes of one id apply
     * in order. Unchanged values are left alone (the original removes and re-adds them, W7).
     *
     * @param changes in the order the records were written
     */
    public void apply(List<Change> changes) {
        List<IndexDefinition> defs = definitions;
        if (defs.isEmpty() || changes.isEmpty()) {
            return;
        }
        Path entries = entries();
        Map<Path, FileUpdate> files = new LinkedHashMap<>();
        Map<String, List<byte[]>> rangeLines = new LinkedHashMap<>();
        Map<String, Map<String, Boolean>> unindexed = new LinkedHashMap<>();
        List<IndexDefinition[]> pairs = compoundPairs(defs);
        for (Change c : changes) {
            for (IndexDefinition d : defs) {
                if (d.range()) {
                    trackUnindexed(c, d.field(), unindexed);
                }
                boolean hadOld = c.before() != null && c.before().containsKey(d.field())
                        && IndexKeys.isIndexable(c.before().get(d.field()));
                boolean hasNew = c.after() != null && c.after().containsKey(d.field())
                        && IndexKeys.isIndexable(c.after().get(d.field()));
                Object oldValue = hadOld ? dev.storh.query.Values.normalise(c.before().get(d.field())) : null;
                Object newValue = hasNew ? dev.storh.query.Values.normalise(c.after().get(d.field())) : null;
                if (hadOld && hasNew && dev.storh.query.Values.identical(oldValue, newValue)
                        && IndexKeys.valueKey(oldValue).equals(IndexKeys.valueKey(newValue))) {
                    continue;
                }
                if (d.range()) {
                    List<byte[]> lines = rangeLines.computeIfAbsent(d.field(), f -> new ArrayList<>());
                    if (hadOld) {
                        lines.add(RangeFiles.encodeLine(IndexKeys.rangeKey(oldValue), oldValue, -1, List.of(), List.of(c.id())));
                    }
                    if (hasNew) {
                        lines.add(RangeFiles.encodeLine(IndexKeys.rangeKey(newValue), newValue, 1, List.of(c.id()), List.of()));
                    }
                } else {
                    Path dir = EqualityFiles.equalityDir(entries, d.field());
                    if (hadOld) {
                        String key = IndexKeys.valueKey(oldValue);
                        files.computeIfAbsent(dir.resolve(key + ".jsonc"), p -> new FileUpdate(d.field(), key, oldValue))
                                .set(c.id(), false);
                    }
                    if (hasNew) {
                        String key = IndexKeys.valueKey(newValue);
                        files.computeIfAbsent(dir.resolve(key + ".jsonc"), p -> new FileUpdate(d.field(), key, newValue))
                                .set(c.id(), true);
                    }
                }
            }
            for (IndexDefinition[] pair : pairs) {
                String label = pair[0].field() + "\t" + pair[1].field();
                Path dir = EqualityFiles.compoundDir(entries, pair[0].field(), pair[1].field());
                String oldKey = compoundKey(c.before(), pair);
                String newKey = compoundKey(c.after(), pair);
                if (oldKey != null && oldKey.equals(newKey)) {
                    continue;
                }
                if (oldKey != null) {
                    files.computeIfAbsent(dir.resolve(oldKey + ".jsonc"), p -> new FileUpdate(label, oldKey, null))
                            .set(c.id(), false);
                }
                if (newKey != null) {
                    files.computeIfAbsent(dir.resolve(newKey + ".jsonc"), p -> new FileUpdate(label, newKey, null))
                            .set(c.id(), true);
                }
            }
        }
        files.forEach((path, u) -> {
            AtomicFiles.ensureDirectory(path.getParent());
            EqualityFiles.update(path, u.field, u.key, u.value, u.removed(), u.added());
        });
        rangeLines.forEach((field, lines) -> {
            RangeFiles rf = new RangeFiles(entries, field);
            AtomicFiles.ensureDirectory(rf.delta().getParent());
            rf.appendDelta(lines);
            long deltaBytes = rf.deltaBytes();
            if (deltaBytes > (1 << 20) && deltaBytes > rf.mainBytes() / 4) {
                swapping(() -> rf.writeMain(rf.load(null))); // fold the delta (W5)
            }
            rangeCache.remove(field);
        });
        unindexed.forEach((field, ops) -> {
            RangeFiles rf = new RangeFiles(entries, field);
            java.util.Set<String> ids = rf.readUnindexed();
            if (ids != null) { // without the file (a rebuild by the original) nothing is known to keep
                ops.forEach((id, present) -> {
                    if (present) {
                        ids.add(id);
                    } else {
                        ids.remove(id);
                    }
                });
                rf.writeUnindexed(ids);
            }
        });
    }

    /** Notes a record whose range field starts or stops holding a list or an object. */
    private static void trackUnindexed(Change c, String field, Map<String, Map<String, Boolean>> out) {
        boolean before = c.before() != null && c.before().containsKey(field) && !IndexKeys.isIndexable(c.before().get(field));
        boolean after = c.after() != null && c.after().containsKey(field) && !IndexKeys.isIndexable(c.after().get(field));
        if (before != after) {
            out.computeIfAbsent(field, f -> new LinkedHashMap<>()).put(c.id(), after);
        }
    }

    private static String compoundKey(Map<String, Object> data, IndexDefinition[] pair) {
        if (data == null || !data.containsKey(pair[0].field()) || !data.containsKey(pair[1].field())) {
            return null;
        }
        Object l = dev.storh.query.Values.normalise(data.get(pair[0].field()));
        Object r = dev.storh.query.Values.normalise(data.get(pair[1].field()));
        return IndexKeys.isIndexable(l) && IndexKeys.isIndexable(r) ? IndexKeys.compoundKey(l, r) : null;
    }

    /**
     * @param defs definitions sorted by name
     * @return every pair of non-unique equality definitions, left name first
     */
    static List<IndexDefinition[]> compoundPairs(List<IndexDefinition> defs) {
        List<IndexDefinition> plain = defs.stream().filter(d -> d.equality() && !d.unique()).toList();
        List<IndexDefinition[]> pairs = new ArrayList<>();
        for (int i = 0; i < plain.size(); i++) {
            for (int j = i + 1; j < plain.size(); j++) {
                pairs.add(new IndexDefinition[] {plain.get(i), plain.get(j)});
            }
        }
        return pairs;
    }

    private static final class FileUpdate {
        final String field;
        final String key;
        final Object value;
        final Map<String, Boolean> ops = new LinkedHashMap<>();

        FileUpdate(String field, String key, Object value) {
            this.field = field;
            this.key = key;
            this.value = value;
        }

        void set(String id, boolean present) {
            ops.put(id, present);
        }

        List<String> added() {
            return ops.entrySet().stream().filter(Map.Entry::getValue).map(Map.Entry::getKey).toList();
        }

        List<String> removed() {
            return ops.entrySet().stream().filter(e -> !e.getValue()).map(Map.Entry::getKey).toList();
        }
    }

    // ------------------------------------------------------------------ reads

    /**
     * @param d a definition
     * @param value an indexable value (JSON model)
     * @return ids whose field may be identical to the value, ascending: on a range field exactly those;
     *     on an equality field every id filed under the value's key(s), which also holds values the
     *     original reads as the same double (check the records)
     */
    public List<String> idsEqual(IndexDefinition d, Object value) {
        return reading(() -> idsEqualUnlocked(d, value));
    }

    private List<String> idsEqualUnlocked(IndexDefinition d, Object value) {
        Object v = dev.storh.query.Values.normalise(value);
        if (!IndexKeys.isIndexable(v)) {
            return List.of();
        }
        if (d.range()) {
            List<String> ids = new ArrayList<>();
            rangeState(d.field()).forEach((id, stored) -> {
                if (dev.storh.query.Values.identical(stored, v)) {
                    ids.add(id);
                }
            });
            ids.sort(null);
            return ids;
        }
        List<String> keys = IndexKeys.valueKeys(v);
        Path dir = EqualityFiles.equalityDir(entries(), d.field());
        if (keys.size() == 1) {
            return EqualityFiles.ids(dir.resolve(keys.get(0) + ".jsonc"));
        }
        java.util.TreeSet<String> ids = new java.util.TreeSet<>();
        keys.forEach(key -> ids.addAll(EqualityFiles.ids(dir.resolve(key + ".jsonc"))));
        return new ArrayList<>(ids);
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
        RangeFiles rf = new RangeFiles(entries(), field);
        java.util.Set<String> known = reading(rf::readUnindexed);
        if (known != null) {
            return known;
        }
        try {
            return locker.withWriteLock(() -> {
                java.util.Set<String> again = rf.readUnindexed();
                if (again != null) {
                    return again;
                }
                java.util.Set<String> built = scanUnindexed(field);
                rf.writeUnindexed(built);
                return built;
            });
        } catch (StorageException readOnly) {
            return scanUnindexed(field);
        }
    }

    private java.util.Set<String> scanUnindexed(String field) {
        java.util.Set<String> ids = new java.util.TreeSet<>();
        try (Stream<StorageRecord> all = records.records((id, unreadable) -> { })) { // verify reports those
            all.forEach(r -> {
                if (r.data().containsKey(field) && !IndexKeys.isIndexable(r.data().get(field))) {
                    ids.add(r.id());
                }
            });
        }
        return ids;
    }

    /**
     * @param d an equality definition
     * @param value an indexable value
     * @return the {@code count} of its value file (0 when absent)
     */
    public long countEqual(IndexDefinition d, Object value) {
        return reading(() -> {
            long total = 0;
            for (String key : IndexKeys.valueKeys(dev.storh.query.Values.normalise(value))) {
                total += countFile(d, key);
            }
            return total;
        });
    }

    private long countFile(IndexDefinition d, String key) {
        Path file = EqualityFiles.equalityDir(entries(), d.field()).resolve(key + ".jsonc");
        EqualityFiles.Head head = EqualityFiles.head(file, key, 0);
        if (head.count() >= 0) {
            return head.count();
        }
        EqualityFiles.Entry e = EqualityFiles.read(file);
        return e == null ? 0 : e.ids().size();
    }

    /**
     * @param d an equality definition
     * @param value an indexable value
     * @param limit how many ids to read, at least 1
     * @return the first {@code limit} ids of the value file, ascending, read without parsing the rest
     */
    public List<String> idsEqualLimited(IndexDefinition d, Object value, int limit) {
        return reading(() -> idsEqualLimitedUnlocked(d, value, limit));
    }

    private List<String> idsEqualLimitedUnlocked(IndexDefinition d, Object value, int limit) {
        Object v = dev.storh.query.Values.normalise(value);
        if (d.range() || !IndexKeys.isIndexable(v) || IndexKeys.valueKeys(v).size() > 1) {
            List<String> all = idsEqualUnlocked(d, v);
            return all.size() > limit ? all.subList(0, limit) : all;
        }
        String key = IndexKeys.valueKey(v);
        return EqualityFiles.head(EqualityFiles.equalityDir(entries(), d.field()).resolve(key + ".jsonc"), key, limit).ids();
    }

    /**
     * @param left definition whose name sorts first
     * @param leftValue its value
     * @param right the other definition
     * @param rightValue its value
     * @return ids of the compound bucket, ascending
     */
    public List<String> idsCompound(IndexDefinition left, Object leftValue, IndexDefinition right, Object rightValue) {
        return reading(() -> EqualityFiles.ids(EqualityFiles.compoundDir(entries(), left.field(), right.field())
                .resolve(IndexKeys.compoundKey(dev.storh.query.Values.normalise(leftValue),
                        dev.storh.query.Values.normalise(rightValue)) + ".jsonc")));
    }

    /**
     * @param field a range-indexed field
     * @return id → value as the range files say (main then delta), cached until the files change
     */
    public Map<String, Object> rangeState(String field) {
        return cachedRange(field).state;
    }

    /**
     * @param field a range-indexed field
     * @return its entries sorted by value in query order, cached until the files change
     */
    public RangeView rangeView(String field) {
        CachedRange cached = cachedRange(field);
        RangeView view = cached.view;
        if (view == null) {
            view = new RangeView(cached.state);
            cached.view = view;
        }
        return view;
    }

    private CachedRange cachedRange(String field) {
        return reading(() -> cachedRangeUnlocked(field));
    }

    /** Runs an index read under the shared swap lock, so no swap is half done meanwhile. */
    private <T> T reading(Supplier<T> read) {
        swap.readLock().lock();
        try {
            return read.get();
        } finally {
            swap.readLock().unlock();
        }
    }

    /** Runs steps that may leave index files missing for a moment with readers of this JVM excluded. */
    private void swapping(Runnable steps) {
        swap.writeLock().lock();
        try {
            steps.run();
        } finally {
            swap.writeLock().unlock();
        }
    }

    private CachedRange cachedRangeUnlocked(String field) {
        RangeFiles rf = new RangeFiles(entries(), field);
        IndexManifest.Stamp mainStamp = IndexManifest.stamp(rf.main());
        IndexManifest.Stamp deltaStamp = IndexManifest.stamp(rf.delta());
        CachedRange cached = rangeCache.get(field);
        if (cached != null && IndexManifest.sameStamp(cached.main, mainStamp)
                && IndexManifest.sameStamp(cached.delta, deltaStamp)) {
            return cached;
        }
        Map<String, Object> state = java.util.Collections.unmodifiableMap(rf.load(null));
        CachedRange fresh = new CachedRange(mainStamp, deltaStamp, state);
        rangeCache.put(field, fresh);
        return fresh;
    }

    // ------------------------------------------------------------------ rebuild and verify

    private ReindexReport rebuildLocked(boolean skipUnreadable) {
        return rebuildLocked(skipUnreadable, ProgressTracker.none());
    }

    private ReindexReport rebuildLocked(boolean skipUnreadable, ProgressTracker progress) {
        List<IndexDefinition> defs = IndexManifest.read(manifest);
        remember(defs);
        cleanLeftovers();
        String suffix = HexFormat.of().formatHex(randomBytes());
        Path building = layout.indexEntriesBuilding(suffix);
        long scanned = 0;
        List<String> skipped = new ArrayList<>();
        try {
            ExpectedIndexes expected = new ExpectedIndexes(defs);
            try (Stream<StorageRecord> all = records.records(skipUnreadable ? (id, e) -> skipped.add(e.getMessage()) : null)) {
                Iterator<StorageRecord> it = all.iterator();
                while (it.hasNext()) {
                    expected.add(it.next());
                    scanned++;
                    progress.advance(1, 0);
                }
            }
            AtomicFiles.ensureDirectory(building);
            expected.writeTo(building);
            AtomicFiles.replaceTree(building, entries(), layout.indexEntriesAside(suffix), this::swapping);
        } catch (RuntimeException e) {
            deleteTree(building);
            throw e;
        }
        rangeCache.clear();
        return new ReindexReport(defs.size(), scanned, skipped);
    }

    /**
     * Rebuilds only what a definition change touched: the files of new or re-flagged fields and
     * the compound buckets of new pairs; buckets of pairs that no longer exist are removed. Other
     * indexes are left as they are.
     */
    private void rebuildChanged(List<IndexDefinition> before, List<IndexDefinition> after) {
        List<IndexDefinition> changed = after.stream().filter(d -> !before.contains(d)).toList();
        java.util.Set<String> beforePairs = new java.util.HashSet<>();
        compoundPairs(before).forEach(p -> beforePairs.add(p[0].field() + "\t" + p[1].field()));
        List<IndexDefinition[]> afterPairs = compoundPairs(after);
        java.util.Set<String> afterLabels = new java.util.HashSet<>();
        afterPairs.forEach(p -> afterLabels.add(p[0].field() + "\t" + p[1].field()));
        List<IndexDefinition[]> newPairs = afterPairs.stream()
                .filter(p -> !beforePairs.contains(p[0].field() + "\t" + p[1].field())).toList();
        if (!Files.isDirectory(entries()) && !before.isEmpty()) {
            rebuildLocked(false);
            return;
        }
        cleanLeftovers();
        Path building = layout.indexEntriesBuilding(HexFormat.of().formatHex(randomBytes()));
        try {
            ExpectedIndexes expected = new ExpectedIndexes(changed, newPairs);
            try (Stream<StorageRecord> all = records.records(null)) {
                all.forEach(expected::add);
            }
            AtomicFiles.ensureDirectory(building);
            expected.writeTo(building);
            Path entries = entries();
            for (IndexDefinition d : changed) {
                replace(EqualityFiles.equalityDir(building, d.field()), EqualityFiles.equalityDir(entries, d.field()));
                RangeFiles built = new RangeFiles(building, d.field());
                RangeFiles live = new RangeFiles(entries, d.field());
                swapping(() -> {
                    replaceFile(built.main(), live.main());
                    replaceFile(built.main().resolveSibling(IndexKeys.hex(d.field()) + ".idx.jsonc"),
                            live.main().resolveSibling(IndexKeys.hex(d.field()) + ".idx.jsonc"));
                    replaceFile(built.unindexed(), live.unindexed());
                    AtomicFiles.deleteQuietly(live.delta());
                });
                rangeCache.remove(d.field());
            }
            for (IndexDefinition[] p : newPairs) {
                replace(EqualityFiles.compoundDir(building, p[0].field(), p[1].field()),
                        EqualityFiles.compoundDir(entries, p[0].field(), p[1].field()));
            }
            for (IndexDefinition[] p : compoundPairs(before)) {
                if (!afterLabels.contains(p[0].field() + "\t" + p[1].field())) {
                    deleteTree(EqualityFiles.compoundDir(entries, p[0].field(), p[1].field()));
                }
            }
        } finally {
            deleteTree(building);
        }
    }

    /** Replaces the folder {@code live} by {@code built}; removes {@code live} when nothing was built. */
    private void replace(Path built, Path live) {
        if (!Files.exists(built)) {
            swapping(() -> deleteTree(live));
            return;
        }
        AtomicFiles.ensureDirectory(live.getParent());
        // The old tree goes aside under a name cleanLeftovers() knows, should a crash leave it.
        AtomicFiles.replaceTree(built, live, layout.indexEntriesAside(HexFormat.of().formatHex(randomBytes())),
                this::swapping);
    }

    /** Renames {@code built} over the file {@code live} in one step; removes {@code live} when nothing was built. */
    private static void replaceFile(Path built, Path live) {
        if (!Files.exists(built)) {
            AtomicFiles.deleteQuietly(live);
            return;
        }
        AtomicFiles.ensureDirectory(live.getParent());
        AtomicFiles.moveAtomic(built, live);
    }

    /**
     * @return whether {@code .storh/indexes/} holds a tree a crashed build or swap left behind, or
     *     a temp file (of the manifest); one listing of that folder, not recursive
     */
    public boolean hasLeftovers() {
        try (DirectoryStream<Path> dirs = Files.newDirectoryStream(indexesDir,
                dev.storh.doc.DocLayout.INDEX_FOLDER_LEFTOVER_GLOB)) {
            return dirs.iterator().hasNext();
        } catch (IOException noIndexes) {
            return false;
        }
    }

    /**
     * Deletes the trees a crashed build or swap left in {@code .storh/indexes/}; call it only under
     * the collection write lock (a builder holds it while its tree is in use).
     */
    public void cleanLeftovers() {
        try (DirectoryStream<Path> dirs = Files.newDirectoryStream(indexesDir, dev.storh.doc.DocLayout.INDEX_LEFTOVER_GLOB)) {
            for (Path p : dirs) {
                deleteTree(p);
            }
        } catch (IOException ignored) {
            // nothing to clean
        }
    }

    private static byte[] randomBytes() {
        byte[] b = new byte[6];
        RANDOM.nextBytes(b);
        return b;
    }

    /** Best-effort removal of a temporary or superseded entries folder. */
    static void deleteTree(Path root) {
        try {
            AtomicFiles.deleteTree(root);
        } catch (StorageException ignored) {
            // a leftover folder is cleaned by the next rebuild (cleanLeftovers)
        }
    }

    /**
     * Compares every index file with what the records imply.
     *
     * @param recordsOnDisk the records, in id order
     * @return error strings in the original's forms; empty when the indexes match
     */
    public List<String> verify(Stream<StorageRecord> recordsOnDisk) {
        List<IndexDefinition> defs = definitions();
        ExpectedIndexes expected = new ExpectedIndexes(defs);
        recordsOnDisk.forEach(expected::add);
        return expected.compareWith(entries());
    }
}
