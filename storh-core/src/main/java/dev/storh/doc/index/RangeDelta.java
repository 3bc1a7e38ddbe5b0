package dev.storh.doc.index;

import dev.storh.fs.StoreFiles;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A range index's delta file replayed on its own: which ids it changes (their main-file lines no
 * longer count) and what they hold after it, with the range key of each value. Read whole: writes
 * fold it into the main file once it grows. Immutable (the by-key order of its entries is computed once, on
 * first use). Thread-safe.
 */
final class RangeDelta {

    /** An id and its value, with the value's range key. */
    record Entry(String key, Object value, String id) {
    }

    private static final RangeDelta EMPTY = new RangeDelta(Map.of(), List.of(), null);

    private final Map<String, Entry> touched;
    private final List<Entry> adds;
    private final RangeKeyOrder order;
    private volatile List<Entry> byKey;

    private RangeDelta(Map<String, Entry> touched, List<Entry> adds, RangeKeyOrder order) {
        this.touched = touched;
        this.adds = adds;
        this.order = order;
    }

    /**
     * @param files the collection's byte seam
     * @param rf the range files of one field
     * @return the delta (empty when there is none), or {@code null} when a value it adds has a key
     *     that is not of one {@link RangeKeyOrder} class
     * @throws IOException when the delta cannot be read
     */
    static RangeDelta read(StoreFiles files, RangeFiles rf) throws IOException {
        // Most range files have no delta: one look at the name, not a failed open and its exception.
        if (files.versionInSeenFolder(files.nameOf(rf.delta())).isEmpty()) {
            return EMPTY;
        }
        byte[] bytes = IndexBytes.readOrNull(files, rf.delta());
        if (bytes == null || bytes.length == 0) {
            return EMPTY;
        }
        Map<String, Entry> state = new HashMap<>();
        int start = 0;
        for (int i = 0; i <= bytes.length; i++) {
            if (i < bytes.length && bytes[i] != '\n') {
                continue;
            }
            RangeFiles.Line line = i > start ? RangeFiles.lineAt(bytes, start, i - start) : null;
            start = i + 1;
            if (line == null) {
                continue; // skipped by a replay too
            }
            for (String id : line.ids()) {
                state.put(id, new Entry(line.key(), line.value(), id));
            }
            for (String id : line.remove()) {
                state.put(id, null);
            }
        }
        RangeKeyOrder order = null;
        List<Entry> adds = new ArrayList<>();
        for (Entry e : state.values()) {
            if (e == null) {
                continue;
            }
            order = order == null ? RangeKeyOrder.of(e.key()) : order;
            if (order == null || !order.matches(e.key(), e.value())) {
                return null;
            }
            adds.add(e);
        }
        return new RangeDelta(state, adds, order);
    }

    /** @return the class of every key it adds, {@code null} when it adds none */
    RangeKeyOrder order() {
        return order;
    }

    /**
     * @param id an id
     * @return whether the delta changes or removes it (its main-file line no longer counts)
     */
    boolean touches(String id) {
        return touched.containsKey(id);
    }

    /** @return whether the delta changes nothing (there is none, or it is empty) */
    boolean isEmpty() {
        return touched.isEmpty();
    }

    /** @return the ids the delta leaves with a value, with those values */
    List<Entry> adds() {
        return adds;
    }

    /**
     * @return {@link #adds()} ascending by range key (ties in no particular order), sorted on the
     *     first call and kept: ordered reads count the delta's entries before a key by binary search
     */
    List<Entry> addsByKey() {
        List<Entry> sorted = byKey;
        if (sorted == null) {
            List<Entry> copy = new ArrayList<>(adds);
            copy.sort((a, b) -> a.key().compareTo(b.key()));
            sorted = List.copyOf(copy);
            byKey = sorted;
        }
        return sorted;
    }
}
