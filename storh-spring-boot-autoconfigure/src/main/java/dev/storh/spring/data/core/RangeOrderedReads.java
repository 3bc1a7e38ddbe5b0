package dev.storh.spring.data.core;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

import dev.storh.StorageRecord;
import dev.storh.doc.index.IndexDefinition;
import dev.storh.doc.index.IndexKeys;
import dev.storh.doc.index.IndexManager;
import dev.storh.doc.index.RangeView;
import dev.storh.query.Condition;
import dev.storh.query.Direction;
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
 * candidates are the ids the equality indexes give for those conditions; the range view is walked
 * in sort order, one run of equal values at a time, and each candidate it reaches is read and
 * re-checked against the whole query, until the first {@code n} matches and those tied with the
 * last of them are found.
 * <p>
 * The read declines ({@code null}) whenever its answer could differ from the full sort: inside a
 * transaction (whose writes the indexes do not hold), with a cursor, when a record's value is no
 * longer the one its range entry holds, when a match holds a value that is neither a number nor a
 * string (such values sort after all numbers and strings and are not in the view), ascending when
 * fewer than {@code n} matches were found and some candidate was not in the view, descending
 * unless the view holds every record of the collection. Stateless.
 */
final class RangeOrderedReads {

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
        Set<String> candidates = candidates(indexes, core.groups().get(0));
        if (order.isEmpty() || !order.get().range() || candidates == null) {
            return null;
        }
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
        found.sort(RecordQueries.comparator(orders));
        return found;
    }

    /**
     * @return the ids the equality indexes give for the group's {@code eq} and {@code in}
     * conditions on indexed top-level properties (intersected; each a superset of the matches), or
     * {@code null} when the group has none
     */
    private static Set<String> candidates(IndexManager indexes, List<Condition> group) {
        Set<String> candidates = null;
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
            Set<String> ids = new HashSet<>();
            for (Object value : c.values()) {
                ids.addAll(indexes.idsEqual(d.get(), value));
            }
            if (candidates == null) {
                candidates = ids;
            }
            else {
                candidates.retainAll(ids);
            }
        }
        return candidates;
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
