package dev.storh.doc.index;

import dev.storh.fs.StoreFiles;
import dev.storh.UniqueConstraintException;
import dev.storh.fs.AtomicFiles;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The write side of a collection's indexes, under the collection write lock: unique checks before
 * a record is written, then the batch's changes applied to the value files, range deltas and
 * unindexed lists. Stateless apart from its collaborators; called by one writer at a time.
 */
final class IndexUpdates {

    private final StoreFiles files;
    private final Path entries;
    private final IndexSwap swap;
    private final IndexReads reads;

    /**
     * @param files the collection's byte seam
     * @param entries the live {@code entries/} folder
     * @param swap the swap lock shared with reads and rebuilds
     * @param reads the read side, for unique lookups and to drop cached range state
     */
    IndexUpdates(StoreFiles files, Path entries, IndexSwap swap, IndexReads reads) {
        this.files = files;
        this.entries = entries;
        this.swap = swap;
        this.reads = reads;
    }

    /**
     * Checks unique definitions for one record about to be written, under the write lock.
     *
     * @param id the record's id
     * @param data its new data
     * @param pendingValues unique values of records written earlier in the same unflushed batch:
     *     field → value key → id; this record's values are added
     * @throws UniqueConstraintException naming the field, value and the record holding it
     */
    void checkUnique(List<IndexDefinition> definitions, String id, Map<String, Object> data,
            Map<String, Map<String, String>> pendingValues, Map<String, Map<String, Object>> rewritten) {
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
            for (String other : reads.idsEqual(d, value)) {
                if (!other.equals(id) && !releases(rewritten.get(other), d.field(), vk)) {
                    throw new UniqueConstraintException(d.field(), value, other);
                }
            }
            pendingValues.computeIfAbsent(d.field(), f -> new HashMap<>()).put(vk, id);
        }
    }

    /**
     * @param newData the data a batch writes for the record the store has holding a value, or
     *     {@code null} when the batch leaves that record alone
     * @return whether that new data no longer holds the value (its own check sees it otherwise)
     */
    private static boolean releases(Map<String, Object> newData, String field, String valueKey) {
        if (newData == null) {
            return false;
        }
        Object v = newData.get(field);
        return v == null || !IndexKeys.isIndexable(v)
                || !IndexKeys.valueKeys(dev.storh.query.Values.normalise(v)).get(0).equals(valueKey);
    }

    /**
     * Applies a batch of record changes to the index files, under the write lock. Each value
     * file is rewritten once per batch and each range delta appended once; changes of one id apply
     * in order. Unchanged values are left alone (the original removes and re-adds them, W7).
     *
     * @param changes in the order the records were written
     * @param valueDeltas whether value changes are appended to deltas ({@link ValueDeltas}) rather
     *     than rewriting the value files
     */
    void apply(List<IndexDefinition> defs, List<IndexManager.Change> changes, boolean valueDeltas) {
        if (defs.isEmpty() || changes.isEmpty()) {
            return;
        }
        Map<Path, FileUpdate> valueFiles = new LinkedHashMap<>();
        Map<String, List<byte[]>> rangeLines = new LinkedHashMap<>();
        Map<String, Map<String, Boolean>> unindexed = new LinkedHashMap<>();
        List<IndexDefinition[]> pairs = compoundPairs(defs);
        // folder names are hex of the field names: built once per batch, not once per change
        Path[] equalityDirs = new Path[defs.size()];
        for (int i = 0; i < defs.size(); i++) {
            equalityDirs[i] = defs.get(i).range() ? null : IndexLayout.equalityDir(entries, defs.get(i).field());
        }
        Path[] pairDirs = new Path[pairs.size()];
        String[] pairLabels = new String[pairs.size()];
        for (int i = 0; i < pairs.size(); i++) {
            IndexDefinition[] pair = pairs.get(i);
            pairDirs[i] = IndexLayout.compoundDir(entries, pair[0].field(), pair[1].field());
            pairLabels[i] = pair[0].field() + "\t" + pair[1].field();
        }
        for (IndexManager.Change c : changes) {
            for (int di = 0; di < defs.size(); di++) {
                IndexDefinition d = defs.get(di);
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
                    Path dir = equalityDirs[di];
                    if (hadOld) {
                        String key = IndexKeys.valueKey(oldValue);
                        valueFiles.computeIfAbsent(IndexLayout.valueFile(dir, key), p -> new FileUpdate(d.field(), key, oldValue))
                                .set(c.id(), false);
                    }
                    if (hasNew) {
                        String key = IndexKeys.valueKey(newValue);
                        valueFiles.computeIfAbsent(IndexLayout.valueFile(dir, key), p -> new FileUpdate(d.field(), key, newValue))
                                .set(c.id(), true);
                    }
                }
            }
            for (int pi = 0; pi < pairs.size(); pi++) {
                IndexDefinition[] pair = pairs.get(pi);
                String label = pairLabels[pi];
                Path dir = pairDirs[pi];
                String oldKey = compoundKey(c.before(), pair);
                String newKey = compoundKey(c.after(), pair);
                if (oldKey != null && oldKey.equals(newKey)) {
                    continue;
                }
                if (oldKey != null) {
                    valueFiles.computeIfAbsent(IndexLayout.valueFile(dir, oldKey), p -> new FileUpdate(label, oldKey, null))
                            .set(c.id(), false);
                }
                if (newKey != null) {
                    valueFiles.computeIfAbsent(IndexLayout.valueFile(dir, newKey), p -> new FileUpdate(label, newKey, null))
                            .set(c.id(), true);
                }
            }
        }
        java.util.Set<Path> folders = new java.util.HashSet<>(); // each value folder checked once per batch
        valueFiles.forEach((path, u) -> {
            List<String> removed = u.removed();
            List<String> added = u.added();
            if (removed.isEmpty() && added.isEmpty()) {
                return; // every id ends as it began (moved away and back within the batch)
            }
            if (folders.add(path.getParent())) {
                AtomicFiles.ensureDirectory(files, files.nameOf(path.getParent()));
            }
            if (valueDeltas) {
                ValueDeltas.update(files, path, u.field, u.key, u.value, removed, added);
            } else {
                EqualityFiles.update(files, path, u.field, u.key, u.value, removed, added);
            }
        });
        rangeLines.forEach((field, lines) -> {
            RangeFiles rf = new RangeFiles(files, entries, field);
            AtomicFiles.ensureDirectory(files, files.nameOf(rf.delta().getParent()));
            rf.appendDelta(lines);
            long deltaBytes = rf.deltaBytes();
            if (deltaBytes > (1 << 20) && deltaBytes > rf.mainBytes() / 4) {
                swap.swapping(rf::fold); // fold the delta (W5), streamed
            }
            reads.forget(field);
        });
        unindexed.forEach((field, ops) -> {
            RangeFiles rf = new RangeFiles(files, entries, field);
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
    private static void trackUnindexed(IndexManager.Change c, String field, Map<String, Map<String, Boolean>> out) {
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
        /** id → whether the value held it before the batch (a first removal says it did) and holds it after. */
        final Map<String, boolean[]> ops = new LinkedHashMap<>();

        FileUpdate(String field, String key, Object value) {
            this.field = field;
            this.key = key;
            this.value = value;
        }

        void set(String id, boolean present) {
            ops.computeIfAbsent(id, i -> new boolean[] {!present, present})[1] = present;
        }

        /** @return ids the value did not hold before the batch and holds after it */
        List<String> added() {
            return ops.entrySet().stream().filter(e -> !e.getValue()[0] && e.getValue()[1]).map(Map.Entry::getKey).toList();
        }

        /** @return ids the value held before the batch and no longer holds */
        List<String> removed() {
            return ops.entrySet().stream().filter(e -> e.getValue()[0] && !e.getValue()[1]).map(Map.Entry::getKey).toList();
        }
    }
}
