package dev.storh.doc.index;

import dev.storh.StorageException;
import dev.storh.StorageRecord;
import dev.storh.UniqueConstraintException;
import dev.storh.fs.StoreFiles;
import dev.storh.json.JsonNumbers;
import dev.storh.query.Condition;
import dev.storh.query.Operator;
import dev.storh.query.Values;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;

/**
 * The path indexes of one collection ({@link PathIndexDefinition}): their definitions in
 * {@code paths.jsonc}, their files under {@code entries/paths/}, their in-memory states, the unique
 * checks and write maintenance, and the id sets they give the planner. An index whose files are
 * missing (never built, or removed by a rebuild of the original) is built from the records under the
 * write lock the first time it is needed. Thread-safe.
 */
final class PathIndexes {

    private static final long FOLD_BYTES = 1 << 20;

    /** The key of {@link #checkUnique}'s pending values that says the batch has read the definitions. */
    private static final String LOOKED = "\0paths looked";

    private final StoreFiles files;
    /** The seam of write maintenance ({@link #apply}): its fsyncs wait for the deferred syncs, as the value files' do. */
    private final StoreFiles writes;
    private final Path entries;
    private final Path manifest;
    private final IndexSwap swap;
    private final IndexManager.Locker locker;
    private final IndexManager.RecordSource records;
    private final Object pendingLock = new Object();
    private final List<PathIndexDefinition> pending = new ArrayList<>();
    private final Map<String, PathIndexState> states = new ConcurrentHashMap<>();
    private volatile List<PathIndexDefinition> definitions;
    private volatile IndexManifest.Stamp stamp;

    PathIndexes(StoreFiles files, StoreFiles writes, Path indexesDir, Path entries, IndexSwap swap, IndexManager.Locker locker,
            IndexManager.RecordSource records) {
        this.files = files;
        this.writes = writes;
        this.entries = entries;
        this.manifest = indexesDir.resolve(dev.storh.doc.DocLayout.PATH_INDEX_MANIFEST);
        this.swap = swap;
        this.locker = locker;
        this.records = records;
        this.stamp = IndexManifest.stamp(files, manifest);
        this.definitions = readUnlessAbsent(stamp);
        pending.addAll(definitions);
    }

    // ------------------------------------------------------------------ definitions

    void define(PathIndexDefinition d) {
        synchronized (pendingLock) {
            PathManifest.merge(pending, d);
        }
    }

    /**
     * @return the definitions in force, re-read when the file changed on disk
     */
    List<PathIndexDefinition> definitions() {
        IndexManifest.Stamp now = IndexManifest.stamp(files, manifest);
        if (!IndexManifest.sameStamp(now, stamp)) {
            List<PathIndexDefinition> defs = readUnlessAbsent(now);
            synchronized (pendingLock) {
                defs.forEach(d -> PathManifest.merge(pending, d));
            }
            definitions = defs;
            stamp = now;
        }
        return definitions;
    }

    /**
     * @param now the file's stamp, taken just before
     * @return its definitions; none without a read when the stamp found no file (most collections
     *     have no path index: a read would only fail inside the seam)
     */
    private List<PathIndexDefinition> readUnlessAbsent(IndexManifest.Stamp now) {
        return now.version() == null ? List.of() : PathManifest.read(files, manifest);
    }

    /**
     * Writes the pending definitions (merged with the file's) and builds the indexes that are new;
     * under the write lock.
     *
     * @param build whether to build new indexes now (else on first use)
     * @return the definitions in force
     */
    List<PathIndexDefinition> sync(boolean build) {
        List<PathIndexDefinition> before = PathManifest.read(files, manifest);
        List<PathIndexDefinition> after;
        synchronized (pendingLock) {
            before.forEach(d -> PathManifest.merge(pending, d));
            pending.sort(PathManifest.ORDER);
            after = List.copyOf(pending);
        }
        if (!after.equals(before) || !after.isEmpty() && !IndexBytes.exists(files, manifest)) {
            PathManifest.write(files, manifest, after);
        }
        definitions = after;
        stamp = IndexManifest.stamp(files, manifest);
        if (build) {
            List<PathIndexDefinition> fresh = after.stream().filter(d -> before.stream().noneMatch(d::sameIndex)).toList();
            if (!fresh.isEmpty()) {
                build(fresh, entries);
            }
        }
        return after;
    }

    /**
     * Builds the given indexes from the records into an entries tree; under the write lock.
     */
    void build(List<PathIndexDefinition> defs, Path into) {
        Expected expected = new Expected(defs);
        try (Stream<StorageRecord> all = records.records(null)) {
            all.forEach(expected::add);
        }
        swap.swapping(() -> expected.writeTo(files, into));
        defs.forEach(d -> state(d).invalidate());
    }

    /**
     * Forgets what the states took from this instance's own writes: after a write's files were put
     * back (an undo), the next read of each index reads its files again.
     */
    void undone() {
        states.values().forEach(PathIndexState::invalidate);
    }

    private PathIndexState state(PathIndexDefinition d) {
        return states.computeIfAbsent(d.fileKey(), k -> new PathIndexState());
    }

    /**
     * @return the up-to-date state of an index, built first when its files are missing; {@code null}
     *     when it is not built and cannot be (a store that cannot take the write lock)
     */
    private PathIndexState ready(PathIndexDefinition d, boolean quiet) {
        PathIndexState s = state(d);
        PathIndexFiles f = new PathIndexFiles(files, entries, d);
        if (swap.reading(() -> s.refresh(f))) {
            return s;
        }
        try {
            return locker.withWriteLock(() -> {
                if (!swap.reading(() -> s.refresh(f))) {
                    build(List.of(d), entries);
                }
                return swap.reading(() -> s.refresh(f)) ? s : null;
            });
        } catch (StorageException e) {
            if (quiet) {
                return null; // a read-only store, or a record that cannot be read: the query scans
            }
            throw e;
        }
    }

    // ------------------------------------------------------------------ writes

    /**
     * Checks the unique path indexes for one record about to be written; under the write lock.
     *
     * @param pendingValues values of records checked earlier in the same batch (keyed per index)
     * @throws UniqueConstraintException naming the path, the value and the record holding it
     */
    void checkUnique(String id, Map<String, Object> data, Map<String, Map<String, String>> pendingValues,
            Map<String, Map<String, Object>> rewritten) {
        // The batch's first check looks at the files; later ones of the same batch (under the same
        // hold of the write lock, before its changes are applied) reuse what it found.
        boolean looked = pendingValues.containsKey(LOOKED);
        List<PathIndexDefinition> defs = looked ? definitions : definitions();
        pendingValues.putIfAbsent(LOOKED, Map.of());
        for (PathIndexDefinition d : defs) {
            if (!d.unique()) {
                continue;
            }
            List<Object> values = d.entries(data).values().stream().filter(v -> v != null).toList();
            if (values.isEmpty()) {
                continue;
            }
            String readyKey = "\0ready " + d.fileKey();
            PathIndexState s = pendingValues.containsKey(readyKey) ? states.get(d.fileKey()) : ready(d, false);
            if (s != null) {
                pendingValues.putIfAbsent(readyKey, Map.of());
            }
            Map<String, String> batch = pendingValues.computeIfAbsent("\0path " + d.fileKey(), k -> new HashMap<>());
            for (Object v : values) {
                String inBatch = batch.get(identityKey(v));
                String holder = inBatch != null && !inBatch.equals(id) ? inBatch : null;
                for (String other : s != null && holder == null ? s.identical(v) : java.util.Set.<String>of()) {
                    if (!other.equals(id) && !releases(d, rewritten.get(other), v)) {
                        holder = other;
                        break;
                    }
                }
                if (holder != null) {
                    throw new UniqueConstraintException(d.path().toString(), d.ignoreCase() ? unfolded(d, data, v) : v, holder);
                }
            }
            values.forEach(v -> batch.put(identityKey(v), id));
        }
    }

    /**
     * @return whether a batch's new data for a record the index has holding {@code value} no longer
     *     holds it ({@code null} data: the batch leaves that record alone)
     */
    private boolean releases(PathIndexDefinition d, Map<String, Object> newData, Object value) {
        if (newData == null) {
            return false;
        }
        String key = identityKey(value);
        return d.entries(newData).values().stream().filter(v -> v != null).noneMatch(v -> identityKey(v).equals(key));
    }

    /** The record's own value (as written, not folded) that the folded entry {@code v} stands for. */
    private static Object unfolded(PathIndexDefinition d, Map<String, Object> data, Object v) {
        for (Object reached : d.path().resolve(data)) {
            for (Object candidate : reached instanceof List<?> list ? list : java.util.Collections.singletonList(reached)) {
                if (candidate instanceof String text && d.fold(text).equals(v)) {
                    return text;
                }
            }
        }
        return v;
    }

    /** A text equal for identical values only: kind, then the exact decimal for numbers. */
    private static String identityKey(Object v) {
        if (v instanceof Long || v instanceof java.math.BigInteger) {
            return "i" + v;
        }
        if (v instanceof Number n) {
            return "f" + JsonNumbers.decimalOf(n).stripTrailingZeros().toPlainString();
        }
        return v instanceof String s ? "s" + s : String.valueOf(v);
    }

    /**
     * Appends the changed records' lines to the deltas of the built indexes; under the write lock.
     * An index that is not built is left alone (it is built from the records on first use).
     */
    void apply(List<IndexManager.Change> changes) {
        for (PathIndexDefinition d : definitions()) {
            PathIndexFiles f = new PathIndexFiles(writes, entries, d);
            if (!f.built()) {
                continue;
            }
            List<byte[]> lines = new ArrayList<>();
            for (IndexManager.Change c : changes) {
                PathIndexDefinition.Entries before = d.entries(c.before());
                PathIndexDefinition.Entries after = d.entries(c.after());
                if (!same(before, after)) {
                    lines.add(PathIndexFiles.encodeLine(c.id(), after));
                }
            }
            PathIndexFiles.Appended appended = f.appendDelta(lines);
            PathIndexState s = state(d);
            if (appended != null) {
                s.adoptDelta(f, appended); // what this store wrote is not read back on the next check or query
            }
            long deltaBytes = appended != null ? appended.to() : f.deltaBytes(); // under the lock nothing else appends
            if (deltaBytes > FOLD_BYTES && deltaBytes > f.mainBytes() / 4) {
                swap.reading(() -> s.refresh(f));
                Map<String, PathIndexDefinition.Entries> snapshot = s.snapshot();
                swap.swapping(() -> f.writeMain(snapshot));
                // the state holds what was just written: reading the new main file back would cost a
                // whole read and decode of the index on the next unique check or query
                s.adoptMain(new PathIndexFiles(files, entries, d).mainStamp());
            }
        }
    }

    private static boolean same(PathIndexDefinition.Entries a, PathIndexDefinition.Entries b) {
        if (a.containers() != b.containers() || a.values().size() != b.values().size()) {
            return false;
        }
        for (int i = 0; i < a.values().size(); i++) {
            if (!Values.identical(a.values().get(i), b.values().get(i))) {
                return false;
            }
        }
        return true;
    }

    // ------------------------------------------------------------------ reads

    /**
     * @param c a condition
     * @return the index that serves it (the first in definition order), or {@code null}
     */
    PathIndexDefinition serving(Condition c) {
        if (c.path().isId() || !c.values().stream().allMatch(IndexKeys::isIndexable)) {
            return null;
        }
        Operator op = c.operator();
        for (PathIndexDefinition d : definitions()) {
            if (!d.path().equals(c.path())) {
                continue;
            }
            boolean equality = op == Operator.EQ || op == Operator.IN || op == Operator.HAS;
            if (d.ignoreCase() ? equality || c.ignoreCase() && op == Operator.PREFIX
                    : !c.ignoreCase() && (equality || op.isRange())) {
                return d;
            }
        }
        return null;
    }

    /**
     * @param d the index serving {@code c} ({@link #serving})
     * @param c the condition
     * @return ids of every record that may match {@code c} (a superset; the planner re-checks
     *     records), ascending; {@code null} when the index is not available
     */
    TreeSet<String> candidates(PathIndexDefinition d, Condition c) {
        PathIndexState s = ready(d, true);
        if (s == null) {
            return null;
        }
        return swap.reading(() -> {
            switch (c.operator()) {
                case EQ:
                case HAS:
                    return s.equal(d.fold(c.value()));
                case IN: {
                    TreeSet<String> ids = new TreeSet<>();
                    c.values().forEach(v -> ids.addAll(s.equal(d.fold(v))));
                    return ids;
                }
                case PREFIX:
                    return c.value() instanceof String p ? s.prefixed((String) d.fold(p)) : new TreeSet<>();
                default: {
                    TreeSet<String> ids = range(s, c);
                    if (c.mayMatchContainers()) {
                        ids.addAll(s.containerIds());
                    }
                    return ids;
                }
            }
        });
    }

    private static TreeSet<String> range(PathIndexState s, Condition c) {
        Object v = c.value();
        return switch (c.operator()) {
            case GT -> s.range(v, true, true, null, false, false);
            case GTE -> s.range(v, true, false, null, false, false);
            case LT -> s.range(null, false, false, v, true, true);
            case LTE -> s.range(null, false, false, v, true, false);
            case BETWEEN -> s.range(c.values().get(0), true, false, c.values().get(1), true, false);
            default -> throw new IllegalArgumentException("not a range operator: " + c.operator());
        };
    }

    // ------------------------------------------------------------------ rebuild and verify

    /** The entries a set of records implies for some path indexes. */
    static final class Expected {
        private final List<PathIndexDefinition> defs;
        private final Map<String, TreeMap<String, PathIndexDefinition.Entries>> byIndex = new HashMap<>();

        Expected(List<PathIndexDefinition> defs) {
            this.defs = defs;
            defs.forEach(d -> byIndex.put(d.fileKey(), new TreeMap<>()));
        }

        void add(StorageRecord r) {
            for (PathIndexDefinition d : defs) {
                PathIndexDefinition.Entries e = d.entries(r.data());
                if (!e.isEmpty()) {
                    byIndex.get(d.fileKey()).put(r.id(), e);
                }
            }
        }

        void writeTo(StoreFiles files, Path entries) {
            for (PathIndexDefinition d : defs) {
                new PathIndexFiles(files, entries, d).writeMain(byIndex.get(d.fileKey()));
            }
        }

        /**
         * @return problems of the files and {@code Index mismatch (path): <path> <id>} per record
         *     whose entries differ, sorted
         */
        List<String> compareWith(StoreFiles files, Path entries) {
            List<String> errors = new ArrayList<>();
            Set<String> mismatches = new TreeSet<>();
            for (PathIndexDefinition d : defs) {
                PathIndexFiles f = new PathIndexFiles(files, entries, d);
                Map<String, PathIndexDefinition.Entries> actual = new TreeMap<>();
                if (!f.built()) {
                    errors.add("Missing path index file: " + f.main() + " (" + d.label() + ")");
                    continue;
                }
                if (!f.readMain(actual::put, errors)) {
                    continue;
                }
                f.readDelta(0, actual::put, errors);
                actual.values().removeIf(PathIndexDefinition.Entries::isEmpty);
                Map<String, PathIndexDefinition.Entries> wanted = byIndex.get(d.fileKey());
                Set<String> ids = new TreeSet<>(wanted.keySet());
                ids.addAll(actual.keySet());
                for (String id : ids) {
                    PathIndexDefinition.Entries w = wanted.getOrDefault(id, PathIndexDefinition.Entries.NONE);
                    PathIndexDefinition.Entries a = actual.getOrDefault(id, PathIndexDefinition.Entries.NONE);
                    if (!same(w, a)) {
                        mismatches.add("Index mismatch (path): " + d.label() + " " + id);
                    }
                }
            }
            errors.addAll(mismatches);
            return errors;
        }
    }
}
