package dev.storh.spring.data.core;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

import dev.storh.StorageRecord;
import dev.storh.doc.index.IndexDefinition;
import dev.storh.doc.index.IndexKeys;
import dev.storh.doc.index.IndexManager;
import dev.storh.doc.index.RangeSlices;
import dev.storh.doc.index.RangeView;
import dev.storh.query.Condition;
import dev.storh.query.Direction;
import dev.storh.query.FieldPath;
import dev.storh.query.Operator;
import dev.storh.query.QueryBuilder;
import dev.storh.query.Values;
import dev.storh.spring.data.core.RecordQueries.SortKey;
import dev.storh.spring.transaction.CollectionAccess;

/**
 * The first matches of a limited, sorted query read in the order of the first sort key's range
 * index, for queries whose one condition group holds an {@code eq} or {@code in} on an indexed
 * top-level property (a derived {@code findByCategory(category, pageable)} sorted by a
 * range-indexed {@code name}), which core would answer by reading and sorting every match. The
 * candidates are the ids the equality indexes give for those conditions. Ascending, the range
 * index is read stride by stride from its start ({@link RangeSlices#ordered}, never the whole
 * file) until the first {@code n} candidates and a small lookahead are known, the other ids passed
 * over; otherwise (and when the
 * strides cannot be read in order) the range view is walked, one run of equal values at a time.
 * Each candidate reached is read and re-checked against the whole
 * query, until the first {@code n} matches and those tied with the last of them are found.
 * <p>
 * The read declines ({@code null}) whenever its answer could differ from the full sort: inside a
 * transaction (whose writes the indexes do not hold), with a cursor, when a record's value is no
 * longer where its range entry puts it, when a match holds a value that is neither a number nor a
 * string (such values sort after all numbers and strings and are not in the index) unless the
 * whole index was read, ascending through the view when fewer than {@code n} matches were found
 * and some candidate was not in the view, descending unless the view holds every record of the
 * collection. Stateless.
 */
final class RangeOrderedReads {

    /** What {@link #seekWalk} answers when the strides cannot be read in order: the view is walked instead. */
    private static final List<StorageRecord> SEEK_CANNOT = Collections.unmodifiableList(new ArrayList<>());

    /** Candidates asked for beyond the {@code n} needed, for the run tied with the {@code n}-th match. */
    private static final int LOOKAHEAD = 4;

    private RangeOrderedReads() {
    }

    /**
     * @param core the query's conditions (no order, no limit)
     * @param store the collection as the calling thread sees it
     * @param orders the sort, at least one key
     * @param n how many matches the caller needs, at least 1
     * @return at least the first {@code n} matches in sort order (all matches when fewer), with
     * the records tied with the {@code n}-th on the first key, sorted by every key then id; or
     * {@code null} when this read cannot answer the query
     */
    static List<StorageRecord> firstMatches(QueryBuilder core, CollectionAccess store, List<SortKey> orders, long n) {
        IndexManager indexes = store.indexes();
        SortKey first = orders.get(0);
        if (indexes == null || !indexes.active() || core.cursor() != null || core.groups().size() != 1
                || first.path().isId() || first.path().nested()) {
            return null;
        }
        String field = first.path().segments().get(0);
        Optional<IndexDefinition> order = indexes.definition(field);
        Candidates candidates = candidates(indexes, core.groups().get(0));
        if (order.isEmpty() || !order.get().range() || candidates == null) {
            return null;
        }
        boolean ascending = first.direction() == Direction.ASC;
        if (ascending) {
            List<StorageRecord> sought = seekWalk(core, store, indexes.rangeSlices(field), orders, candidates, n);
            if (sought != SEEK_CANNOT) {
                return sought;
            }
        }
        return viewWalk(core, store, indexes, field, orders, candidates, n);
    }

    /**
     * Ascending, through the range index's strides ({@link RangeSlices#ordered}): the first
     * {@code need} candidates in value order (the other ids of the strides are passed over, not
     * collected), read in turn; {@code need} starts at {@code n} plus a small lookahead for the
     * run tied with the {@code n}-th match and doubles only when the candidates read were not
     * enough (records that no longer match, or a long tied run). When the whole index was walked,
     * the candidates it does not hold (no number and no string there: they sort after all of it)
     * are read and sorted after it.
     *
     * @return the matches as {@link #firstMatches} gives them; {@code null} when the answer could
     * differ from a full sort; {@link #SEEK_CANNOT} when the strides cannot be read in order
     */
    private static List<StorageRecord> seekWalk(QueryBuilder core, CollectionAccess store, RangeSlices slices,
            List<SortKey> orders, Candidates candidates, long n) {
        FieldPath path = orders.get(0).path();
        long need = Math.min(Integer.MAX_VALUE, n + Math.max(LOOKAHEAD, n / 8));
        Map<String, Optional<StorageRecord>> read = new HashMap<>();
        while (true) {
            List<String> ids = slices.ordered(null, true, (int) need, candidates::contains);
            if (ids == null) {
                return SEEK_CANNOT;
            }
            List<StorageRecord> found = new ArrayList<>();
            Object boundary = null;
            Object previous = null;
            for (String id : ids) {
                StorageRecord record = read.computeIfAbsent(id, store::get).orElse(null);
                if (record == null) {
                    continue; // deleted since the strides were read
                }
                Object value = RecordQueries.valueOf(record, path);
                if (!(value instanceof Number || value instanceof String)
                        || previous != null && Values.compare(previous, value) > 0) {
                    return null; // changed since the strides were read
                }
                previous = value;
                if (boundary != null && Values.compare(value, boundary) != 0) {
                    return sorted(found, orders); // past the run tied with the n-th match
                }
                if (core.matches(record.id(), record.data())) {
                    found.add(record);
                    boundary = (found.size() == n) ? value : boundary;
                }
            }
            if (ids.size() < need) {
                return (found.size() >= n) ? sorted(found, orders) : withUnheld(core, store, orders, candidates, read, found);
            }
            if (need == Integer.MAX_VALUE) {
                return null;
            }
            need = Math.min(Integer.MAX_VALUE, 2 * need);
        }
    }

    /**
     * @return the matches found in the walked index followed by the matching candidates the index
     * does not hold, sorted; {@code null} when one of those holds a number or a string after all
     */
    private static List<StorageRecord> withUnheld(QueryBuilder core, CollectionAccess store, List<SortKey> orders,
            Candidates candidates, Map<String, Optional<StorageRecord>> read, List<StorageRecord> found) {
        for (String id : candidates) {
            if (read.containsKey(id)) {
                continue;
            }
            Optional<StorageRecord> record = store.get(id);
            if (record.isEmpty()) {
                continue;
            }
            Object value = RecordQueries.valueOf(record.get(), orders.get(0).path());
            if (value instanceof Number || value instanceof String) {
                return null; // written since the strides were read
            }
            if (core.matches(record.get().id(), record.get().data())) {
                found.add(record.get());
            }
        }
        return sorted(found, orders);
    }

    private static List<StorageRecord> sorted(List<StorageRecord> found, List<SortKey> orders) {
        found.sort(RecordQueries.comparator(orders));
        return found;
    }

    /**
     * Through the whole range view (kept in memory by core until the files change): ascending,
     * or descending when the view holds every record of the collection.
     *
     * @return the matches as {@link #firstMatches} gives them, or {@code null}
     */
    private static List<StorageRecord> viewWalk(QueryBuilder core, CollectionAccess store, IndexManager indexes,
            String field, List<SortKey> orders, Candidates candidates, long n) {
        SortKey first = orders.get(0);
        RangeView view = indexes.rangeView(field);
        boolean ascending = first.direction() == Direction.ASC;
        if (!ascending && (view.size() != store.count() || !indexes.unindexedIds(field).isEmpty())) {
            return null;
        }
        List<StorageRecord> found = new ArrayList<>();
        int seen = 0;
        int from = ascending ? 0 : view.size();
        while (found.size() < n && seen < candidates.size() && (ascending ? from < view.size() : from > 0)) {
            int[] run = ascending ? runFrom(view, from) : runBefore(view, from);
            for (int i = run[0]; i < run[1]; i++) {
                if (!candidates.contains(view.id(i))) {
                    continue;
                }
                seen++;
                Optional<StorageRecord> record = store.get(view.id(i));
                if (record.isEmpty()) {
                    continue; // deleted since the listing
                }
                Object value = RecordQueries.valueOf(record.get(), first.path());
                if (Values.compare(value, view.value(i)) != 0 || !(value instanceof Number || value instanceof String)) {
                    return null; // changed since the view was read, or ordered outside it
                }
                if (core.matches(record.get().id(), record.get().data())) {
                    found.add(record.get());
                }
            }
            from = ascending ? run[1] : run[0];
        }
        if (found.size() < n && ascending && seen < candidates.size()) {
            return null; // some candidates are not in the view: they may match, and sort after it
        }
        return sorted(found, orders);
    }

    /**
     * @return the ids the equality indexes give for the group's {@code eq} and {@code in}
     * conditions on indexed top-level properties (intersected; each a superset of the matches), or
     * {@code null} when the group has none
     */
    private static Candidates candidates(IndexManager indexes, List<Condition> group) {
        List<String> candidates = null;
        for (Condition c : group) {
            if (c.path().isId() || c.path().nested() || c.ignoreCase()
                    || (c.operator() != Operator.EQ && c.operator() != Operator.IN)
                    || !c.values().stream().allMatch(IndexKeys::isIndexable)) {
                continue;
            }
            Optional<IndexDefinition> d = indexes.definition(c.field());
            if (d.isEmpty()) {
                continue;
            }
            List<String> ids = new ArrayList<>();
            for (Object value : c.values()) {
                ids.addAll(indexes.idsEqual(d.get(), value));
            }
            ids = ascending(ids);
            if (candidates != null) {
                Candidates both = new Candidates(ids);
                ids = new ArrayList<>();
                for (String id : candidates) {
                    if (both.contains(id)) {
                        ids.add(id);
                    }
                }
            }
            candidates = ids;
        }
        return (candidates == null) ? null : new Candidates(candidates);
    }

    /** @return the ids ascending without repeats: the list itself when it already is */
    private static List<String> ascending(List<String> ids) {
        for (int i = 1; i < ids.size(); i++) {
            if (ids.get(i - 1).compareTo(ids.get(i)) >= 0) {
                return new ArrayList<>(new TreeSet<>(ids));
            }
        }
        return ids;
    }

    /**
     * Candidate ids, ascending without repeats, looked up in a hash set built on the first look-up:
     * a walk tests thousands of ids read from the range index against them, and a binary search
     * compares each with about log2(size) ids sharing their time prefix, which costs more than
     * hashing every candidate once.
     */
    private static final class Candidates implements Iterable<String> {

        private final List<String> ids;

        private Set<String> set;

        Candidates(List<String> ids) {
            this.ids = ids;
        }

        boolean contains(String id) {
            if (this.set == null) {
                this.set = new HashSet<>(this.ids);
            }
            return this.set.contains(id);
        }

        int size() {
            return this.ids.size();
        }

        @Override
        public Iterator<String> iterator() {
            return this.ids.iterator();
        }
    }

    /** @return the run of equal values starting at {@code from}: its first and one-past-last positions */
    private static int[] runFrom(RangeView view, int from) {
        int end = from + 1;
        while (end < view.size() && Values.compare(view.value(end), view.value(from)) == 0) {
            end++;
        }
        return new int[] { from, end };
    }

    /** @return the run of equal values ending just before {@code to}: its first and one-past-last positions */
    private static int[] runBefore(RangeView view, int to) {
        int start = to - 1;
        while (start > 0 && Values.compare(view.value(start - 1), view.value(to - 1)) == 0) {
            start--;
        }
        return new int[] { start, to };
    }

}
