package dev.storh.doc.index;

import dev.storh.StorageException;
import dev.storh.StorageRecord;
import dev.storh.fs.AtomicFiles;
import dev.storh.fs.StoreFiles;
import dev.storh.fs.SyncPool;
import dev.storh.query.Values;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The index content that a set of records implies: built by a full scan, then either written as a
 * fresh {@code entries/} folder (rebuild) or compared with the files on disk (verify).
 */
final class ExpectedIndexes {

    private record Bucket(Object value, TreeSet<String> ids) {
    }

    private final List<IndexDefinition> definitions;
    private final List<IndexDefinition[]> pairs;
    private final Map<String, TreeMap<String, Bucket>> equality = new LinkedHashMap<>();
    private final Map<String, TreeMap<String, TreeSet<String>>> compound = new LinkedHashMap<>();
    private final Map<String, Map<String, Object>> range = new LinkedHashMap<>();
    private final Map<String, TreeSet<String>> unindexed = new LinkedHashMap<>();
    private final PathIndexes.Expected paths;

    ExpectedIndexes(List<IndexDefinition> definitions) {
        this(definitions, IndexUpdates.compoundPairs(definitions), List.of());
    }

    /**
     * @param definitions the original's definitions
     * @param pathDefinitions the path indexes to build or compare too
     */
    ExpectedIndexes(List<IndexDefinition> definitions, List<PathIndexDefinition> pathDefinitions) {
        this(definitions, IndexUpdates.compoundPairs(definitions), pathDefinitions);
    }

    /**
     * @param definitions the definitions to build
     * @param pairs the compound pairs to build (each of two equality definitions)
     */
    ExpectedIndexes(List<IndexDefinition> definitions, List<IndexDefinition[]> pairs, List<PathIndexDefinition> pathDefinitions) {
        this.definitions = definitions;
        this.pairs = pairs;
        this.paths = new PathIndexes.Expected(pathDefinitions);
        for (IndexDefinition d : definitions) {
            if (d.range()) {
                range.put(d.field(), new HashMap<>());
                unindexed.put(d.field(), new TreeSet<>());
            } else {
                equality.put(d.field(), new TreeMap<>());
            }
        }
        for (IndexDefinition[] p : pairs) {
            compound.put(label(p), new TreeMap<>());
        }
    }

    private static String label(IndexDefinition[] p) {
        return p[0].field() + "\t" + p[1].field();
    }

    void add(StorageRecord r) {
        paths.add(r);
        Map<String, Object> data = r.data();
        for (IndexDefinition d : definitions) {
            if (!data.containsKey(d.field())) {
                continue;
            }
            if (!IndexKeys.isIndexable(data.get(d.field()))) {
                if (d.range()) {
                    unindexed.get(d.field()).add(r.id());
                }
                continue;
            }
            Object v = Values.normalise(data.get(d.field()));
            if (d.range()) {
                range.get(d.field()).put(r.id(), v);
            } else {
                equality.get(d.field()).computeIfAbsent(IndexKeys.valueKey(v), k -> new Bucket(v, new TreeSet<>()))
                        .ids().add(r.id());
            }
        }
        for (IndexDefinition[] p : pairs) {
            Object l = data.get(p[0].field());
            Object rr = data.get(p[1].field());
            if (data.containsKey(p[0].field()) && data.containsKey(p[1].field()) && IndexKeys.isIndexable(l)
                    && IndexKeys.isIndexable(rr)) {
                compound.get(label(p)).computeIfAbsent(IndexKeys.compoundKey(Values.normalise(l), Values.normalise(rr)),
                        k -> new TreeSet<>()).add(r.id());
            }
        }
    }

    /**
     * Writes all index files into a new, empty entries folder.
     *
     * @param files the collection's byte seam, which every write goes through
     * @param entries the folder
     */
    void writeTo(StoreFiles files, Path entries) {
        List<Runnable> valueFiles = new ArrayList<>();
        equality.forEach((field, buckets) -> {
            Path dir = IndexLayout.equalityDir(entries, field);
            if (!buckets.isEmpty()) {
                AtomicFiles.ensureDirectory(files, files.nameOf(dir));
            }
            buckets.forEach((key, b) -> valueFiles.add(() -> AtomicFiles.writeAtomic(files,
                    files.nameOf(IndexLayout.valueFile(dir, key)), EqualityFiles.encode(field, key, b.value(), b.ids()))));
        });
        for (IndexDefinition[] p : pairs) {
            TreeMap<String, TreeSet<String>> buckets = compound.get(label(p));
            Path dir = IndexLayout.compoundDir(entries, p[0].field(), p[1].field());
            if (!buckets.isEmpty()) {
                AtomicFiles.ensureDirectory(files, files.nameOf(dir));
            }
            buckets.forEach((key, ids) -> valueFiles.add(() -> AtomicFiles.writeAtomic(files,
                    files.nameOf(IndexLayout.valueFile(dir, key)), EqualityFiles.encode(label(p), key, null, ids))));
        }
        SyncPool.forEach(valueFiles, Runnable::run); // a new tree: its files are written side by side
        range.forEach((field, state) -> {
            RangeFiles rf = new RangeFiles(files, entries, field);
            if (!state.isEmpty()) {
                AtomicFiles.ensureDirectory(files, files.nameOf(rf.main().getParent()));
                rf.writeMain(state);
            }
            rf.writeUnindexed(unindexed.get(field));
        });
        paths.writeTo(files, entries);
    }

    /**
     * @param files the collection's byte seam
     * @param entries the entries folder on disk
     * @return errors in the original's wording, file problems first, then sorted mismatches
     */
    List<String> compareWith(StoreFiles files, Path entries) {
        List<String> errors = new ArrayList<>();
        Set<String> mismatches = new TreeSet<>();
        equality.forEach((field, buckets) -> {
            Map<String, Set<String>> actual = readValueFiles(files, IndexLayout.equalityDir(entries, field), field, true, errors);
            Map<String, Set<String>> wanted = new TreeMap<>();
            buckets.forEach((k, b) -> wanted.put(k, b.ids()));
            diff(wanted, actual, "equality", field + " ", mismatches);
        });
        for (IndexDefinition[] p : pairs) {
            Map<String, Set<String>> actual = readValueFiles(files, IndexLayout.compoundDir(entries, p[0].field(), p[1].field()),
                    label(p), false, errors);
            diff(new TreeMap<>(compound.get(label(p))), actual, "compound", label(p) + " ", mismatches);
        }
        range.forEach((field, state) -> {
            Map<String, Object> actualState = new RangeFiles(files, entries, field).load(errors);
            Map<String, Set<String>> wanted = new TreeMap<>();
            state.forEach((id, v) -> wanted.computeIfAbsent(IndexKeys.rangeKey(v) + " " + IndexKeys.valueKey(v),
                    k -> new TreeSet<>()).add(id));
            Map<String, Set<String>> actual = new TreeMap<>();
            actualState.forEach((id, v) -> actual.computeIfAbsent(IndexKeys.rangeKey(v) + " " + IndexKeys.valueKey(v),
                    k -> new TreeSet<>()).add(id));
            diff(wanted, actual, "range", field + " ", mismatches);
            RangeFiles rangeFiles = new RangeFiles(files, entries, field);
            Set<String> listed = rangeFiles.readUnindexed();
            if (listed == null && present(files, rangeFiles.unindexed())) {
                errors.add("Unreadable index file: " + rangeFiles.unindexed());
            }
            if (listed != null && !listed.equals(unindexed.get(field))) {
                mismatches.add("Index mismatch (range): " + field + " lists and objects");
            }
        });
        errors.addAll(mismatches);
        errors.addAll(paths.compareWith(files, entries));
        return errors;
    }

    /** @return whether the file is there (a missing list of unindexed ids is no damage: the original writes none) */
    private static boolean present(StoreFiles files, Path file) {
        try {
            return files.exists(files.nameOf(file));
        } catch (IOException e) {
            return true;
        }
    }

    private static void diff(Map<String, ? extends Set<String>> wanted, Map<String, Set<String>> actual, String kind,
            String prefix, Set<String> out) {
        Set<String> keys = new TreeSet<>(wanted.keySet());
        keys.addAll(actual.keySet());
        for (String key : keys) {
            Set<String> w = wanted.containsKey(key) ? wanted.get(key) : Set.of();
            Set<String> a = actual.getOrDefault(key, Set.of());
            if (!w.equals(a)) {
                out.add("Index mismatch (" + kind + "): " + prefix + key);
            }
        }
    }

    private static Map<String, Set<String>> readValueFiles(StoreFiles files, Path dir, String expectedField, boolean checkKey,
            List<String> errors) {
        Map<String, Set<String>> actual = new TreeMap<>();
        try {
            for (Path file : IndexBytes.list(files, dir, "*.jsonc")) {
                if (file.getFileName().toString().startsWith(".")) {
                    continue;
                }
                EqualityFiles.Entry e;
                try {
                    e = EqualityFiles.read(files, file);
                } catch (StorageException ex) {
                    errors.add("Unreadable index file: " + file + " (" + ex.getMessage() + ")");
                    continue;
                }
                if (e == null) {
                    continue;
                }
                if (e.field() == null || e.key() == null) {
                    errors.add("Malformed index file: " + file);
                    continue;
                }
                if (!e.field().equals(expectedField)) {
                    errors.add("Index field mismatch: " + file);
                    continue;
                }
                if (checkKey && (!IndexKeys.isIndexable(Values.normalise(e.value()))
                        || !e.key().equals(IndexKeys.valueKey(Values.normalise(e.value()))))) {
                    errors.add("Index key mismatch: " + file);
                    continue;
                }
                if (!(e.count() instanceof Long c) || c != e.ids().size()) {
                    errors.add("Index count mismatch: " + file);
                }
                actual.computeIfAbsent(e.key(), k -> new TreeSet<>()).addAll(e.ids());
            }
        } catch (IOException e) {
            errors.add("Unreadable index file: " + dir + " (" + e.getMessage() + ")");
        }
        return actual;
    }
}
