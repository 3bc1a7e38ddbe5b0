package dev.storh.doc.index;

import dev.storh.query.Values;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableSet;
import java.util.TreeSet;
import java.util.function.Predicate;

/**
 * The entries of one path index in memory, sorted by value in the query order
 * ({@link Values#compare}; an integer before a fraction of the same value; then id), kept in step with
 * its files incrementally: the main file is read when it changed, the delta from where the last read
 * stopped. Every method is synchronized; the id sets returned are copies.
 */
final class PathIndexState {

    private static final String LOW_ID = "";
    private static final String HIGH_ID = "\uffff";

    /** One entry: a value held by a record; {@code rank} orders integers before fractions of equal value. */
    private record Slot(Object value, int rank, String id) {
    }

    private static final Comparator<Slot> ORDER = (a, b) -> {
        int c = Values.compare(a.value, b.value);
        if (c != 0) {
            return c;
        }
        c = Integer.compare(a.rank, b.rank);
        return c != 0 ? c : a.id.compareTo(b.id);
    };

    private final Map<String, PathIndexDefinition.Entries> byId = new HashMap<>();
    private final TreeSet<Slot> sorted = new TreeSet<>(ORDER);
    private final TreeSet<String> containers = new TreeSet<>();
    private IndexManifest.Stamp mainStamp = IndexManifest.Stamp.ABSENT;
    private long deltaOffset;

    private static int rank(Object v) {
        return v instanceof Double || v instanceof BigDecimal ? 1 : 0;
    }

    /**
     * Brings the state up to date with the files.
     *
     * @param files the index's files
     * @return whether the index is built (its main file exists)
     */
    synchronized boolean refresh(PathIndexFiles files) {
        IndexManifest.Stamp now = files.mainStamp();
        if (now.equals(IndexManifest.Stamp.ABSENT)) {
            clear();
            mainStamp = IndexManifest.Stamp.ABSENT;
            return false;
        }
        if (!IndexManifest.sameStamp(now, mainStamp) || files.deltaBytes() < deltaOffset) {
            clear();
            if (!files.readMain(this::put, null)) {
                mainStamp = IndexManifest.Stamp.ABSENT;
                return false;
            }
            mainStamp = now;
        }
        deltaOffset = files.readDelta(deltaOffset, this::put, null);
        return true;
    }

    /**
     * Takes a main file just written from this state's {@link #snapshot()}, with the delta removed after
     * it, as read: the entries in memory are that file's lines, so the next {@link #refresh} reads only
     * delta lines appended later instead of the whole main file again. Call under the write lock, after
     * the write succeeded; a reader's refresh that ran in between read the same entries.
     *
     * @param written the stamp of the main file as written
     */
    synchronized void adoptMain(IndexManifest.Stamp written) {
        mainStamp = written;
        deltaOffset = 0;
    }

    /**
     * Takes delta lines this store just appended as read, when the state had read the delta up to
     * where they begin: the next {@link #refresh} then reads only lines appended after them, instead
     * of reading back and decoding the lines of every batch. A state behind the delta is left to
     * {@link #refresh}; one past where the lines begin (an append that was undone) is forgotten. Call
     * under the write lock, right after the append.
     *
     * @param files the index's files
     * @param appended what was appended
     */
    synchronized void adoptDelta(PathIndexFiles files, PathIndexFiles.Appended appended) {
        if (mainStamp.equals(IndexManifest.Stamp.ABSENT) || deltaOffset < appended.from()) {
            return; // not read yet, or behind: refresh reads it
        }
        if (deltaOffset > appended.from()) {
            invalidate();
            return;
        }
        files.readAppended(appended, this::put);
        deltaOffset = appended.to();
    }

    /** Forgets everything: the next {@link #refresh} reads the files again. */
    synchronized void invalidate() {
        clear();
        mainStamp = IndexManifest.Stamp.ABSENT;
    }

    private void clear() {
        byId.clear();
        sorted.clear();
        containers.clear();
        deltaOffset = 0;
    }

    private void put(String id, PathIndexDefinition.Entries e) {
        PathIndexDefinition.Entries old = byId.remove(id);
        if (old != null) {
            old.values().forEach(v -> sorted.remove(new Slot(v, rank(v), id)));
            containers.remove(id);
        }
        if (e.isEmpty()) {
            return;
        }
        byId.put(id, e);
        e.values().forEach(v -> sorted.add(new Slot(v, rank(v), id)));
        if (e.containers()) {
            containers.add(id);
        }
    }

    /**
     * @return id → entries, for writing a folded main file or comparing in {@code verify()}
     */
    synchronized Map<String, PathIndexDefinition.Entries> snapshot() {
        return new java.util.TreeMap<>(byId);
    }

    /**
     * @return the number of records with entries
     */
    synchronized int records() {
        return byId.size();
    }

    /**
     * @param id a record id
     * @return its entries, or none
     */
    synchronized PathIndexDefinition.Entries entriesOf(String id) {
        return byId.getOrDefault(id, PathIndexDefinition.Entries.NONE);
    }

    /**
     * @param v an indexable value (already folded for a case-folded index)
     * @return the ids of records holding a value identical to {@code v}, ascending
     */
    synchronized TreeSet<String> identical(Object v) {
        TreeSet<String> ids = new TreeSet<>();
        for (Slot s : between(v, v)) {
            if (Values.identical(s.value, v)) {
                ids.add(s.id);
            }
        }
        return ids;
    }

    /**
     * @param v a value
     * @return the ids of records holding a value that compares equal to {@code v}, ascending
     */
    synchronized TreeSet<String> equal(Object v) {
        return ids(between(v, v), s -> true);
    }

    /**
     * @param lower the lower bound, or {@code null} for none (use {@code hasLower})
     * @param hasLower whether there is a lower bound
     * @param lowerStrict whether values equal to the lower bound are excluded
     * @param upper the upper bound
     * @param hasUpper whether there is an upper bound
     * @param upperStrict whether values equal to the upper bound are excluded
     * @return the ids of records with a value in the range, ascending
     */
    synchronized TreeSet<String> range(Object lower, boolean hasLower, boolean lowerStrict, Object upper, boolean hasUpper,
            boolean upperStrict) {
        NavigableSet<Slot> view = sorted;
        if (hasLower && hasUpper && Values.compare(lower, upper) > 0) {
            return new TreeSet<>();
        }
        if (hasLower) {
            view = view.tailSet(new Slot(lower, lowerStrict ? 2 : -1, lowerStrict ? HIGH_ID : LOW_ID), false);
        }
        if (hasUpper) {
            view = view.headSet(new Slot(upper, upperStrict ? -1 : 2, upperStrict ? LOW_ID : HIGH_ID), false);
        }
        return ids(view, s -> true);
    }

    /**
     * @param prefix a string
     * @return the ids of records holding a string that starts with {@code prefix}, ascending
     */
    synchronized TreeSet<String> prefixed(String prefix) {
        TreeSet<String> ids = new TreeSet<>();
        boolean contiguous = Values.prefixRunIsContiguous(prefix);
        for (Slot s : contiguous ? sorted.tailSet(new Slot(prefix, -1, LOW_ID), false) : sorted) {
            if (!(s.value instanceof String text)) {
                break; // strings sort before every other kind
            }
            if (text.startsWith(prefix)) {
                ids.add(s.id);
            } else if (contiguous) {
                break;
            }
        }
        return ids;
    }

    /**
     * @return the ids of records whose path reaches a list or an object, ascending
     */
    synchronized TreeSet<String> containerIds() {
        return new TreeSet<>(containers);
    }

    private NavigableSet<Slot> between(Object lower, Object upper) {
        return sorted.subSet(new Slot(lower, -1, LOW_ID), false, new Slot(upper, 2, HIGH_ID), false);
    }

    private static TreeSet<String> ids(Iterable<Slot> slots, Predicate<Slot> keep) {
        TreeSet<String> ids = new TreeSet<>();
        for (Slot s : slots) {
            if (keep.test(s)) {
                ids.add(s.id);
            }
        }
        return ids;
    }

    /**
     * @return the ids in value order (a record once per entry), for tests and ordered reads
     */
    synchronized List<String> idsInValueOrder() {
        List<String> out = new ArrayList<>(sorted.size());
        sorted.forEach(s -> out.add(s.id));
        return out;
    }
}
