package dev.storh.doc.index;

import dev.storh.StorageException;
import dev.storh.json.CanonicalJson;
import dev.storh.query.Condition;
import dev.storh.query.FieldPath;
import dev.storh.query.Values;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A path index: an index on a {@link FieldPath} (a top-level key, or a key inside nested objects),
 * kept in storh's own files beside the original's (the original neither reads nor checks them, see
 * {@code docs/indexes.md}). One record has one entry per value the path reaches, and one per
 * element of each list it reaches (a multikey index, as MongoDB's), so it serves conditions on
 * nested fields and on list elements alike. Every path index keeps its entries in value order, so
 * it serves equality, {@code in}, the range operators, {@code prefix} and {@code has}.
 *
 * <ul>
 *   <li>{@code ignoreCase}: string entries are kept case-folded ({@link Condition#fold}, per
 *       {@code Locale.ROOT}); the index then serves case-insensitive {@code eq}, {@code in},
 *       {@code prefix} and {@code has}, and case-sensitive {@code eq}/{@code in}/{@code has}, but no
 *       range operator.</li>
 *   <li>{@code unique}: no two records may reach an identical value (identical after folding with
 *       {@code ignoreCase}); {@code null} and a missing path are never checked, so any number of
 *       records may lack the field or hold {@code null} there. One record may repeat a value.</li>
 * </ul>
 *
 * Immutable and thread-safe.
 *
 * @param path the indexed path
 * @param unique whether two records may not reach an identical non-null value
 * @param ignoreCase whether string entries are case-folded
 */
public record PathIndexDefinition(FieldPath path, boolean unique, boolean ignoreCase) {

    /**
     * @throws StorageException {@code "Index field cannot be empty."} without a path
     */
    public PathIndexDefinition {
        if (path == null) {
            throw new StorageException("Index field cannot be empty.");
        }
    }

    /**
     * @return the path as a JSON list of keys, e.g. {@code ["publisher","name"]}: unambiguous,
     *     also for keys that contain dots; the definition's identity together with {@code ignoreCase}
     */
    public String pathText() {
        return CanonicalJson.compactText(new ArrayList<Object>(path.segments()));
    }

    /**
     * @return the name its files carry: xxh128 of {@link #pathText()}, with {@code -i} when case-folded
     */
    String fileKey() {
        return IndexKeys.xxh128(pathText().getBytes(StandardCharsets.UTF_8)) + (ignoreCase ? "-i" : "");
    }

    /**
     * @return a label naming the field in messages: the dotted path, with {@code (ignore case)}
     */
    public String label() {
        return path + (ignoreCase ? " (ignore case)" : "");
    }

    /**
     * @param other a definition of the same path and case mode
     * @return both merged: unique when either is (definitions only grow)
     */
    PathIndexDefinition merge(PathIndexDefinition other) {
        return new PathIndexDefinition(path, unique || other.unique, ignoreCase);
    }

    /**
     * @return whether {@code other} is the same index (same path and case mode)
     */
    boolean sameIndex(PathIndexDefinition other) {
        return path.equals(other.path) && ignoreCase == other.ignoreCase;
    }

    /**
     * The entries of one record.
     *
     * @param values the scalar values, each once (folded with {@code ignoreCase}), in document order
     * @param containers whether the path reaches a list or an object itself (range conditions can
     *     match those; the entries hold only their scalar elements)
     */
    record Entries(List<Object> values, boolean containers) {
        static final Entries NONE = new Entries(List.of(), false);

        boolean isEmpty() {
            return values.isEmpty() && !containers;
        }
    }

    /**
     * @param data record data in the JSON model (or {@code null} for none)
     * @return the entries the record has in this index
     */
    Entries entries(Map<String, Object> data) {
        if (data == null) {
            return Entries.NONE;
        }
        List<Object> reached = path.resolve(data);
        if (reached.isEmpty()) {
            return Entries.NONE;
        }
        List<Object> values = new ArrayList<>();
        boolean containers = false;
        for (Object r : reached) {
            Object v = Values.normalise(r);
            if (v instanceof List<?> list) {
                containers = true;
                for (Object element : list) {
                    addDistinct(values, Values.normalise(element));
                }
            } else if (v instanceof Map) {
                containers = true;
            } else {
                addDistinct(values, v);
            }
        }
        return new Entries(java.util.Collections.unmodifiableList(values), containers);
    }

    private void addDistinct(List<Object> values, Object v) {
        if (!IndexKeys.isIndexable(v)) {
            return;
        }
        Object folded = fold(v);
        for (Object known : values) {
            if (Values.identical(known, folded)) {
                return;
            }
        }
        values.add(folded);
    }

    /**
     * @param v an indexable value
     * @return the form this index keeps: folded strings with {@code ignoreCase}, else {@code v}
     */
    Object fold(Object v) {
        return ignoreCase && v instanceof String s ? Condition.fold(s) : v;
    }
}
