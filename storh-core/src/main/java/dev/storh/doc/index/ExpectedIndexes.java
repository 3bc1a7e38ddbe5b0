package dev.storh.doc.index;

import dev.storh.StorageRecord;
import dev.storh.fs.StoreFiles;
import dev.storh.json.CanonicalJson;
import dev.storh.query.Values;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The index content that a set of records implies: built by a full scan, then either written as a
 * fresh {@code entries/} folder (rebuild) or compared with the files on disk (verify). The rows go
 * through an external sort ({@link SortedRows}), so the memory held does not grow with the number
 * of records: a rebuild sorts them by index and key and writes each file as its rows come
 * ({@link IndexTreeWriter}); a verify also sorts the files' content, by index and id, and compares
 * the two one id at a time. Only the ids of records whose range field holds a list or an object
 * are kept in memory. Not thread-safe: one pass uses one.
 */
final class ExpectedIndexes implements AutoCloseable {

    /** Separates the parts of a row; no key or record id holds it. */
    static final char SEP = '\u0001';

    /** One index the rows are for: an equality field, a compound pair or a range field. */
    record Slot(String tag, String kind, String label, IndexDefinition def, IndexDefinition[] pair) {
        boolean range() {
            return kind.equals("range");
        }
    }

    private final List<Slot> slots = new ArrayList<>();
    private final Map<String, TreeSet<String>> unindexed = new LinkedHashMap<>();
    private final PathIndexes.Expected paths;
    private final SortedRows rows;
    private final boolean build;

    /**
     * @param budgetChars characters of rows held before a sorted run is written ({@link SortedRows})
     */
    ExpectedIndexes(StoreFiles files, String scratchDir, long budgetChars, boolean build, List<IndexDefinition> definitions,
            List<IndexDefinition[]> pairs, List<PathIndexDefinition> pathDefinitions) {
        this.build = build;
        this.paths = new PathIndexes.Expected(pathDefinitions);
        this.rows = new SortedRows(files, scratchDir, budgetChars);
        for (IndexDefinition d : definitions) {
            if (d.range()) {
                unindexed.put(d.field(), new TreeSet<>());
            } else {
                slots.add(new Slot(tag(slots.size()), "equality", d.field(), d, null));
            }
        }
        for (IndexDefinition[] p : pairs) {
            slots.add(new Slot(tag(slots.size()), "compound", label(p), null, p));
        }
        for (IndexDefinition d : definitions) {
            if (d.range()) {
                slots.add(new Slot(tag(slots.size()), "range", d.field(), d, null));
            }
        }
    }

    /**
     * @param files the collection's byte seam
     * @param scratchDir where sort runs go (a seam name), {@code null} to sort in memory
     * @param definitions the definitions to build
     * @param pairs the compound pairs to build (each of two equality definitions)
     * @param pathDefinitions the path indexes to build
     * @return an empty set of rows to fill with {@link #add}, then {@link #writeTo}
     */
    static ExpectedIndexes forBuild(StoreFiles files, String scratchDir, List<IndexDefinition> definitions,
            List<IndexDefinition[]> pairs, List<PathIndexDefinition> pathDefinitions) {
        return new ExpectedIndexes(files, scratchDir, SortedRows.BUDGET_CHARS, true, definitions, pairs, pathDefinitions);
    }

    /**
     * @param files the collection's byte seam
     * @param scratchDir where sort runs go (a seam name), {@code null} to sort in memory
     * @param definitions the original's definitions (the compound pairs follow from them)
     * @param pathDefinitions the path indexes to compare too
     * @return an empty set of rows to fill with {@link #add}, then {@link #compareWith}
     */
    static ExpectedIndexes forVerify(StoreFiles files, String scratchDir, List<IndexDefinition> definitions,
            List<PathIndexDefinition> pathDefinitions) {
        return new ExpectedIndexes(files, scratchDir, SortedRows.BUDGET_CHARS, false, definitions, IndexUpdates.compoundPairs(definitions),
                pathDefinitions);
    }

    private static String tag(int n) {
        return String.format(java.util.Locale.ROOT, "%04d", n);
    }

    static String label(IndexDefinition[] p) {
        return p[0].field() + "\t" + p[1].field();
    }

    /** @return how many sorted runs were written to the scratch folder so far */
    int runs() {
        return rows.runs();
    }

    void add(StorageRecord r) {
        paths.add(r);
        Map<String, Object> data = r.data();
        for (Slot s : slots) {
            if (s.pair() != null) {
                Object l = data.get(s.pair()[0].field());
                Object rr = data.get(s.pair()[1].field());
                if (data.containsKey(s.pair()[0].field()) && data.containsKey(s.pair()[1].field()) && IndexKeys.isIndexable(l)
                        && IndexKeys.isIndexable(rr)) {
                    String key = IndexKeys.compoundKey(Values.normalise(l), Values.normalise(rr));
                    rows.add(build ? s.tag() + SEP + key + SEP + r.id() : expectedRow(s, r.id(), key));
                }
                continue;
            }
            String field = s.def().field();
            if (!data.containsKey(field)) {
                continue;
            }
            if (!IndexKeys.isIndexable(data.get(field))) {
                if (s.range()) {
                    unindexed.get(field).add(r.id());
                }
                continue;
            }
            Object v = Values.normalise(data.get(field));
            if (s.range()) {
                rows.add(build ? s.tag() + SEP + RangeFiles.sortRow(r.id(), v) : expectedRow(s, r.id(), rangeGroup(v)));
            } else {
                String key = IndexKeys.valueKey(v);
                rows.add(build ? s.tag() + SEP + key + SEP + r.id() + SEP + CanonicalJson.compactText(v)
                        : expectedRow(s, r.id(), key));
            }
        }
    }

    /** @return the key a range entry is compared under: its range key and its value key */
    static String rangeGroup(Object v) {
        return IndexKeys.rangeKey(v) + " " + IndexKeys.valueKey(v);
    }

    private static String expectedRow(Slot s, String id, String key) {
        return s.tag() + SEP + escape(id) + SEP + "E" + SEP + key;
    }

    /** @return the id with no {@link #SEP} in it (a damaged index file may hold anything) */
    static String escape(String id) {
        return id.indexOf(SEP) < 0 ? id : id.replace(SEP, '\u0000');
    }

    /**
     * Writes all index files into a new, empty entries folder.
     *
     * @param files the collection's byte seam, which every write goes through
     * @param entries the folder
     */
    void writeTo(StoreFiles files, Path entries) {
        new IndexTreeWriter(files, entries, slots, rows).write();
        unindexed.forEach((field, ids) -> new RangeFiles(files, entries, field).writeUnindexed(ids));
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
        IndexFileRows actual = new IndexFileRows(files, entries, rows, errors);
        for (Slot s : slots) {
            actual.add(s);
            if (s.range()) {
                RangeFiles rangeFiles = new RangeFiles(files, entries, s.label());
                Set<String> listed = rangeFiles.readUnindexed();
                if (listed == null && present(files, rangeFiles.unindexed())) {
                    errors.add("Unreadable index file: " + rangeFiles.unindexed());
                }
                if (listed != null && !listed.equals(unindexed.get(s.label()))) {
                    mismatches.add("Index mismatch (range): " + s.label() + " lists and objects");
                }
            }
        }
        compare(rows.sorted(), mismatches);
        errors.addAll(mismatches);
        errors.addAll(paths.compareWith(files, entries));
        return errors;
    }

    /**
     * Walks rows sorted by index and id: for each, the keys the records imply against the keys the
     * files hold; every key in one set and not the other is a mismatch.
     */
    private void compare(Iterator<String> sorted, Set<String> out) {
        String group = null;
        Set<String> wanted = new TreeSet<>();
        Set<String> listed = new TreeSet<>();
        String[] replayed = {null};
        while (true) {
            String row = sorted.hasNext() ? sorted.next() : null;
            int idEnd = row == null ? -1 : row.indexOf(SEP, 5);
            String rowGroup = row == null ? null : row.substring(0, idEnd);
            if (group != null && !group.equals(rowGroup)) {
                Slot s = slots.get(Integer.parseInt(group.substring(0, 4)));
                if (replayed[0] != null) {
                    listed.add(replayed[0]);
                }
                for (String key : wanted) {
                    if (!listed.contains(key)) {
                        out.add(mismatch(s, key));
                    }
                }
                for (String key : listed) {
                    if (!wanted.contains(key)) {
                        out.add(mismatch(s, key));
                    }
                }
                wanted.clear();
                listed.clear();
                replayed[0] = null;
            }
            if (row == null) {
                return;
            }
            group = rowGroup;
            int tagEnd = row.indexOf(SEP, idEnd + 1);
            char tag = row.charAt(idEnd + 1);
            String payload = row.substring(tagEnd + 1);
            if (tag == 'E') {
                wanted.add(payload);
            } else if (tag == 'A') {
                listed.add(payload);
            } else {
                // a range line's change, in file order: the last one says where the id is
                replayed[0] = payload.startsWith("+") ? payload.substring(1) : null;
            }
        }
    }

    private static String mismatch(Slot s, String key) {
        return "Index mismatch (" + s.kind() + "): " + s.label() + " " + key;
    }

    /** @return whether the file is there (a missing list of unindexed ids is no damage: the original writes none) */
    private static boolean present(StoreFiles files, Path file) {
        try {
            return files.exists(files.nameOf(file));
        } catch (IOException e) {
            return true;
        }
    }

    /** Deletes the sort's run files. */
    @Override
    public void close() {
        rows.close();
    }
}
