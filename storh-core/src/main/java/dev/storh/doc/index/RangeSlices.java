package dev.storh.doc.index;

import dev.storh.query.Condition;
import dev.storh.query.Operator;
import dev.storh.query.Values;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.function.Predicate;

/**
 * Answers of range conditions read from the few strides of a range index's main file that can
 * hold them (plus its delta), without loading the file: the matching ids by id, the first matches in
 * value order, or their count. Each answer is exact: values are compared one by one
 * ({@link Condition#matchesValue}), range keys only choose the strides. Every method answers
 * {@code null} when the field's files are not provably in value order (see {@link RangeKeyOrder}),
 * when a stride turns out not to be what the checkpoints promised, or when the whole range index
 * is in memory anyway: the caller then asks {@link IndexManager#rangeView}. Reads run under the
 * shared side of the index swap and check the files' versions first. Thread-safe.
 */
public final class RangeSlices {

    private static final Comparator<RangeDelta.Entry> ASCENDING =
            Comparator.<RangeDelta.Entry, Object>comparing(RangeDelta.Entry::value, Values::compare).thenComparing(RangeDelta.Entry::id);
    private static final Comparator<RangeDelta.Entry> DESCENDING =
            Comparator.<RangeDelta.Entry, Object>comparing(RangeDelta.Entry::value, (a, b) -> Values.compare(b, a))
                    .thenComparing(RangeDelta.Entry::id);

    private final IndexReads reads;
    private final String field;

    RangeSlices(IndexReads reads, String field) {
        this.reads = reads;
        this.field = field;
    }

    /** The strides to read for a condition: keys from {@code from} up to {@code to}, and the exact test. */
    private record Window(String from, String to, Predicate<Object> test) {
    }

    private static Window window(RangeSeek seek, Condition c) {
        if (c == null) {
            return new Window("", "~", v -> true);
        }
        RangeKeyOrder order = seek.order();
        String from;
        String to;
        switch (c.operator()) {
            case GT, GTE -> {
                from = order.boundKey(Values.normalise(c.value()));
                to = "~";
            }
            case LT, LTE -> {
                from = "";
                to = order.boundKey(Values.normalise(c.value()));
            }
            case BETWEEN -> {
                from = order.boundKey(Values.normalise(c.values().get(0)));
                to = order.boundKey(Values.normalise(c.values().get(1)));
            }
            case EQ -> {
                from = order.boundKey(Values.normalise(c.value()));
                to = from;
            }
            case PREFIX -> {
                if (order != RangeKeyOrder.STRINGS || !(c.value() instanceof String p) || !Values.prefixRunIsContiguous(p)) {
                    return null;
                }
                from = order.boundKey(p);
                to = from + "~";
            }
            default -> {
                return null;
            }
        }
        return from == null || to == null ? null : new Window(from, to, c::matchesValue);
    }

    /**
     * @param c a range condition ({@code gt gte lt lte between prefix}) or {@code eq} on the field
     * @return the ids of the scalar values matching it, ascending by id; {@code null} when the
     *     strides cannot answer it
     */
    public List<String> ids(Condition c) {
        List<RangeDelta.Entry> all = reads.withSeek(field, seek -> collect(seek, c, true, Integer.MAX_VALUE, null));
        if (all == null) {
            return null;
        }
        List<String> ids = new ArrayList<>(all.size());
        all.forEach(e -> ids.add(e.id()));
        ids.sort(null);
        return ids;
    }

    /**
     * @param c a range condition, or {@code null} for every value
     * @param ascending the order of values (ties always by ascending id)
     * @param need how many to return at most
     * @return the ids of the first matches in that order; {@code null} when the strides cannot answer it
     */
    public List<String> ordered(Condition c, boolean ascending, int need) {
        return ordered(c, ascending, need, null);
    }

    /**
     * {@link #ordered(Condition, boolean, int)} among some ids only: the strides are read in order
     * until {@code need} of the accepted ids are known to come first, so a caller that wants the
     * first values of a few candidates reads past the others once, without collecting them.
     *
     * @param c a range condition, or {@code null} for every value
     * @param ascending the order of values (ties always by ascending id)
     * @param need how many accepted ids to return at most
     * @param accept which ids count, {@code null} for all; called once per entry read, under the
     *     index's shared lock, so it must be quick and must not touch the store
     * @return the accepted ids of the first matches in that order; {@code null} when the strides
     *     cannot answer it
     */
    public List<String> ordered(Condition c, boolean ascending, int need, Predicate<String> accept) {
        List<RangeDelta.Entry> all = reads.withSeek(field, seek -> collect(seek, c, ascending, need, accept));
        if (all == null) {
            return null;
        }
        all.sort(ascending ? ASCENDING : DESCENDING);
        List<String> ids = new ArrayList<>(Math.min(need, all.size()));
        for (int i = 0; i < all.size() && i < need; i++) {
            ids.add(all.get(i).id());
        }
        return ids;
    }

    /**
     * @return how many entries the range index holds, read from its checkpoints and last stride
     *     alone (see {@link RangeSeek#plainEntries}); {@code null} when the strides cannot tell
     *     (a delta, or files not provably in value order)
     */
    public Long plainEntries() {
        return reads.withSeek(field, seek -> {
            long n = seek.plainEntries();
            return n < 0 ? null : n;
        });
    }

    /**
     * @param c a range condition
     * @param limit stop counting there
     * @return the number of scalar values matching it, at most {@code limit}; {@code null} when the
     *     strides cannot answer it
     */
    public Long count(Condition c, long limit) {
        return reads.withSeek(field, seek -> count(seek, c, limit));
    }

    private static Long count(RangeSeek seek, Condition c, long limit) {
        Window w = window(seek, c);
        if (w == null) {
            return null;
        }
        long n = 0;
        RangeDelta delta = seek.delta();
        for (RangeDelta.Entry e : delta.adds()) {
            if (c.matchesValue(e.value())) {
                n++;
            }
        }
        // A line whose key lies strictly between the bounds' keys holds a value strictly between the
        // bounds (RangeKeyOrder#boundKey), so it matches a comparison without a look at its value;
        // lines with a bound's own key may hold values on either side and are compared one by one.
        boolean byKeys = delta.isEmpty() && c.operator().isRange() && c.operator() != Operator.PREFIX;
        String from = w.from();
        String to = w.to();
        for (int j = seek.chunkFrom(from), last = seek.chunkTo(to); j <= last && n < limit; j++) {
            RangeSeek.Chunk chunk = seek.chunk(j);
            String[] keys = chunk.keys();
            Object[] values = chunk.values();
            String[] ids = chunk.ids();
            int size = ids.length;
            if (byKeys && size > 0 && keys[0].compareTo(from) > 0 && keys[size - 1].compareTo(to) < 0) {
                n += size; // a stride's keys never go back: all of it lies inside
                continue;
            }
            for (int i = 0; i < size && n < limit; i++) {
                if (byKeys && keys[i].compareTo(from) > 0 && keys[i].compareTo(to) < 0
                        || c.matchesValue(values[i]) && !delta.touches(ids[i])) {
                    n++;
                }
            }
        }
        return Math.min(n, limit);
    }

    /**
     * The matches of a window, read stride by stride in one direction until at least {@code need}
     * of them are known to come first: those whose keys are beyond the next unread stride's first key.
     * The delta's matches are taken in key order ({@link RangeDelta#addsByKey}): only those with keys
     * in the window are tested, and how many of them come before a key is a binary search, not a
     * pass over the delta per line read.
     *
     * @return the matches known complete (at least {@code need} unless there are fewer), unsorted:
     *     the delta's, then the main file's
     */
    private static List<RangeDelta.Entry> collect(RangeSeek seek, Condition c, boolean ascending, int need,
            Predicate<String> accept) {
        Window w = window(seek, c);
        if (w == null) {
            return null;
        }
        boolean limited = need < Integer.MAX_VALUE;
        // a match's key is within the window's keys, as for the strides read below
        Predicate<RangeDelta.Entry> test = (c == null && accept == null) ? null
                : e -> w.test().test(e.value()) && (accept == null || accept.test(e.id()));
        DeltaMatches delta = new DeltaMatches(seek.delta().addsByKey(), c == null ? null : w, ascending, test);
        List<RangeDelta.Entry> main = new ArrayList<>(); // in the reading direction
        int first = seek.chunkFrom(w.from());
        int last = seek.chunkTo(w.to());
        String frontier = null;
        String previous = null;
        scan:
        for (int n = 0; n <= last - first; n++) {
            int j = ascending ? first + n : last - n;
            RangeSeek.Chunk chunk = seek.chunk(j);
            for (int m = 0; m < chunk.size(); m++) {
                int i = ascending ? m : chunk.size() - 1 - m;
                String key = chunk.keys()[i];
                // A stride's keys never go back, so on a new key every main match read so far comes first.
                if (limited && previous != null && !key.equals(previous)
                        && (main.size() >= need || main.size() + delta.before(key) >= need)) {
                    frontier = key;
                    break scan;
                }
                previous = key;
                if ((accept == null || accept.test(chunk.ids()[i])) && w.test().test(chunk.values()[i])
                        && !seek.delta().touches(chunk.ids()[i])) {
                    main.add(new RangeDelta.Entry(key, chunk.values()[i], chunk.ids()[i]));
                }
            }
            String next = n == last - first ? null : ascending ? seek.firstKey(j + 1) : seek.firstKey(j);
            if (next != null && limited && delta.before(next) + mainBefore(main, next, ascending) >= need) {
                frontier = next;
                break;
            }
        }
        List<RangeDelta.Entry> fromDelta = (frontier == null) ? delta.all() : delta.first(delta.before(frontier));
        int fromMain = (frontier == null) ? main.size() : mainBefore(main, frontier, ascending);
        List<RangeDelta.Entry> known = new ArrayList<>(fromDelta.size() + fromMain);
        known.addAll(fromDelta);
        known.addAll(main.subList(0, fromMain));
        return known;
    }

    /**
     * The delta's matches of a window in the reading direction, tested only as far as the strides
     * are read (a large delta is not tested whole for a short page); without a test every entry
     * with a key in the window matches, and counts are binary searches.
     */
    private static final class DeltaMatches {
        private final List<RangeDelta.Entry> byKey;
        private final int low;
        private final int high;
        private final boolean ascending;
        private final Predicate<RangeDelta.Entry> test;
        private final List<RangeDelta.Entry> taken = new ArrayList<>(); // tested and matching, in the reading direction
        private int next;

        /**
         * @param byKey the delta's adds, ascending by key
         * @param w the window whose keys bound the matches, {@code null} for every key
         * @param ascending the reading direction
         * @param test which entries match, {@code null} for all of them
         */
        DeltaMatches(List<RangeDelta.Entry> byKey, Window w, boolean ascending, Predicate<RangeDelta.Entry> test) {
            this.byKey = byKey;
            this.low = w == null ? 0 : keysBelow(byKey, w.from(), false);
            this.high = w == null ? byKey.size() : Math.max(low, keysBelow(byKey, w.to(), true));
            this.ascending = ascending;
            this.test = test;
            this.next = ascending ? low : high - 1;
        }

        /** @return how many matches have keys before {@code key} in the reading direction */
        int before(String key) {
            if (test == null) {
                return ascending ? clamp(keysBelow(byKey, key, false)) - low : high - clamp(keysBelow(byKey, key, true));
            }
            if (ascending) {
                while (next < high && byKey.get(next).key().compareTo(key) < 0) {
                    take(next++);
                }
            } else {
                while (next >= low && byKey.get(next).key().compareTo(key) > 0) {
                    take(next--);
                }
            }
            int n = taken.size();
            while (n > 0 && !RangeSlices.before(taken.get(n - 1).key(), key, ascending)) {
                n--;
            }
            return n;
        }

        /** @return the first {@code count} matches in the reading direction */
        List<RangeDelta.Entry> first(int count) {
            if (test == null) {
                return ascending ? byKey.subList(low, low + count) : byKey.subList(high - count, high);
            }
            return taken.subList(0, count);
        }

        /** @return every match */
        List<RangeDelta.Entry> all() {
            if (test == null) {
                return byKey.subList(low, high);
            }
            while (ascending ? next < high : next >= low) {
                take(ascending ? next++ : next--);
            }
            return taken;
        }

        private void take(int i) {
            if (test.test(byKey.get(i))) {
                taken.add(byKey.get(i));
            }
        }

        private int clamp(int i) {
            return Math.max(low, Math.min(high, i));
        }
    }

    /**
     * @param main the main file's matches in the reading direction, so those not before the
     *     frontier are at the end
     * @return how many of them no unread line can precede: keys before the frontier's in the reading direction
     */
    private static int mainBefore(List<RangeDelta.Entry> main, String frontier, boolean ascending) {
        int n = main.size();
        while (n > 0 && !before(main.get(n - 1).key(), frontier, ascending)) {
            n--;
        }
        return n;
    }

    /** @return how many entries (ascending by key) have keys below {@code key}, or not above it when {@code orEqual} */
    private static int keysBelow(List<RangeDelta.Entry> delta, String key, boolean orEqual) {
        int low = 0;
        int high = delta.size();
        while (low < high) {
            int mid = (low + high) >>> 1;
            int c = delta.get(mid).key().compareTo(key);
            if (c < 0 || orEqual && c == 0) {
                low = mid + 1;
            } else {
                high = mid;
            }
        }
        return low;
    }

    private static boolean before(String a, String b, boolean ascending) {
        int c = a.compareTo(b);
        return ascending ? c < 0 : c > 0;
    }
}
