package dev.storh.doc;

import dev.storh.doc.index.IndexDefinition;
import dev.storh.doc.index.IndexKeys;
import dev.storh.doc.index.IndexManager;
import dev.storh.doc.index.PathIndexDefinition;
import dev.storh.doc.index.RangeView;
import dev.storh.query.Condition;
import dev.storh.query.Direction;
import dev.storh.query.Operator;
import dev.storh.query.QueryBuilder;
import dev.storh.query.QueryPlan;
import dev.storh.query.RangeTopK;
import dev.storh.query.ScanQueryExecutor;
import dev.storh.query.Values;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.TreeSet;

/**
 * The DocStore planner: per OR group, a compound
 * bucket for two plain equality conditions, else the intersection of the id sets of every
 * index-supported condition ({@code eq}/{@code in} on any index, range operators on range
 * indexes; on a path index, {@code eq}, {@code in}, {@code has}, the range operators and
 * {@code prefix} as {@link PathIndexDefinition} describes); groups are united. A group without a
 * supported condition makes the whole query a scan. The string operators {@code suffix},
 * {@code contains}, {@code like}, {@code regex} and every negation are never index-supported.
 * Range conditions are checked against the indexed values with {@code compare}, so index answers
 * equal scan answers (the original's key windows do not, W1–W3); every candidate record
 * is re-checked against the full query anyway.
 *
 * <p>{@code orderBy} + {@code limit} on the range field of a single range condition reads the
 * index in value order and fetches only as many records as needed.
 */
final class DocQueryExecutor extends ScanQueryExecutor {

    static final String STORE_NAME = "storh.DocStore";

    private final IndexManager indexes;
    private final RecordSource records;

    DocQueryExecutor(RecordSource source, IndexManager indexes) {
        super(STORE_NAME, source);
        this.indexes = indexes;
        this.records = source;
    }

    /** The definitions of the last look-up, by field: rebuilt when the manager's list changed. */
    private volatile Defs last = new Defs(List.of(), java.util.Map.of());

    private record Defs(List<IndexDefinition> list, java.util.Map<String, IndexDefinition> byField) {
    }

    /**
     * @return the definitions in force by field: one check of the manifest per call, so a query
     *     takes them once and plans with them
     */
    private java.util.Map<String, IndexDefinition> definitions() {
        List<IndexDefinition> now = indexes.definitions();
        Defs seen = last;
        if (seen.list() != now) {
            java.util.Map<String, IndexDefinition> byField = new java.util.HashMap<>();
            now.forEach(d -> byField.put(d.field(), d));
            seen = new Defs(now, byField);
            last = seen;
        }
        return seen.byField();
    }

    private boolean active(java.util.Map<String, IndexDefinition> defs) {
        return !defs.isEmpty() || !indexes.pathDefinitions().isEmpty();
    }

    /** Range matches among lists and objects: the records the range lines cannot hold. */
    private java.util.Set<String> containerIds(Condition c) {
        if (!c.mayMatchContainers()) {
            return java.util.Set.of();
        }
        return indexes.unindexedIds(c.field());
    }

    @Override
    protected List<QueryPlan.IndexUse> indexUses(QueryBuilder query) {
        java.util.Map<String, IndexDefinition> defs = definitions();
        if (!active(defs)) {
            return List.of();
        }
        List<QueryPlan.IndexUse> uses = new ArrayList<>();
        for (List<Condition> group : query.groups()) {
            Optional<Condition> first = group.stream()
                    .filter(c -> IndexedConditions.supporting(c, defs) != null || indexes.pathIndexFor(c) != null).findFirst();
            if (first.isEmpty()) {
                return List.of(); // this group needs a scan, so the whole query does (W12)
            }
            PathIndexDefinition path = IndexedConditions.supporting(first.get(), defs) != null ? null : indexes.pathIndexFor(first.get());
            uses.add(new QueryPlan.IndexUse(path != null ? path.label() : first.get().field(),
                    first.get().operator().label()));
        }
        return uses;
    }

    @Override
    protected Candidates candidates(QueryBuilder query) {
        java.util.Map<String, IndexDefinition> defs = definitions();
        if (!active(defs) || !query.hasConditions()) {
            return null;
        }
        return candidates(query, defs, false);
    }

    private Candidates candidates(QueryBuilder query, java.util.Map<String, IndexDefinition> defs, boolean limited) {
        Candidates ordered = limited ? equalityOrdered(query, defs) : null;
        if (ordered == null) {
            ordered = orderedRead(query, defs, limited);
        }
        if (ordered != null) {
            return ordered;
        }
        if (query.groups().size() == 1) { // one group: no union to build, its ids most often come ascending
            List<String> ids = groupIds(query.groups().get(0), defs);
            return ids == null ? null : new Candidates(after(ascendingDistinct(ids), query.cursor()), false);
        }
        TreeSet<String> union = new TreeSet<>();
        for (List<Condition> group : query.groups()) {
            List<String> ids = groupIds(group, defs);
            if (ids == null) {
                return null;
            }
            union.addAll(ids);
        }
        if (query.cursor() != null) {
            return new Candidates(new ArrayList<>(union.tailSet(query.cursor(), false)), false);
        }
        return new Candidates(new ArrayList<>(union), false);
    }

    /** @return the ids of an ascending list strictly after {@code cursor} ({@code null}: all of them) */
    private static List<String> after(List<String> ascending, String cursor) {
        if (cursor == null) {
            return ascending;
        }
        int at = java.util.Collections.binarySearch(ascending, cursor);
        return ascending.subList(at >= 0 ? at + 1 : -at - 1, ascending.size());
    }

    /**
     * @param ids ids from an index, most often ascending and distinct already
     * @return them ascending and distinct: the list itself when it is (one pass to see it), else a sorted copy
     */
    private static List<String> ascendingDistinct(java.util.Collection<String> ids) {
        if (ids instanceof List<String> list && list instanceof java.util.RandomAccess) {
            boolean ascending = true;
            for (int i = 1; i < list.size() && ascending; i++) {
                ascending = list.get(i - 1).compareTo(list.get(i)) < 0;
            }
            if (ascending) {
                return list;
            }
        }
        return new ArrayList<>(new TreeSet<>(ids));
    }

    /** One eq condition, no cursor, no order: read only the first {@code limit} ids. */
    @Override
    protected Candidates limitedCandidates(QueryBuilder query) {
        java.util.Map<String, IndexDefinition> defs = definitions();
        if (!active(defs)) {
            return null;
        }
        if (query.limit() > 0 && query.limit() <= Integer.MAX_VALUE && query.cursor() == null
                && query.orderField() == null && query.groups().size() == 1 && query.groups().get(0).size() == 1) {
            Condition c = query.groups().get(0).get(0);
            IndexDefinition d = IndexedConditions.supporting(c, defs);
            if (c.operator() == Operator.EQ && d != null && d.equality()) {
                List<String> ids = IndexKeys.isIndexable(c.value())
                        ? indexes.idsEqualLimited(d, c.value(), (int) query.limit()) : List.of();
                return new Candidates(ids, false, ids.size() >= query.limit());
            }
        }
        Candidates top = topK(query, defs);
        if (top != null) {
            return top;
        }
        return query.hasConditions() ? candidates(query, defs, true) : null;
    }

    /**
     * {@code orderBy(f).limit(k)} without conditions, on a range-indexed top-level {@code f}: the
     * first {@code k} entries of f's range view, without reading any other record. Records the
     * view does not hold (f missing, or a list, object or boolean the range lines skip) order as
     * null, lists, objects or booleans, all after every number and string; so ascending, the view
     * answers when its k-th entry is a number or a string, and otherwise (and descending) only
     * when it holds every record of the collection.
     */
    private Candidates topK(QueryBuilder query, java.util.Map<String, IndexDefinition> defs) {
        if (query.hasConditions() || query.orderField() == null || query.limit() <= 0
                || query.limit() > Integer.MAX_VALUE || query.cursor() != null || query.orderPath().isId()
                || query.orderPath().nested()) {
            return null;
        }
        IndexDefinition d = defs.get(query.orderField());
        if (d == null || !d.range()) {
            return null;
        }
        boolean ascending = query.direction() == Direction.ASC;
        List<String> first = ascending ? indexes.rangeSlices(d.field()).ordered(null, true, need(query))
                : RangeTopK.descending(indexes.rangeSlices(d.field()), records.count(),
                        () -> indexes.unindexedIds(d.field()).isEmpty(), need(query));
        if (first != null && first.size() >= query.limit()) {
            return new Candidates(first, true, true); // only numbers, or only strings: they order before the rest
        }
        RangeView view = indexes.rangeView(d.field());
        int k = (int) Math.min(query.limit(), view.size());
        boolean numbersAndStringsFirst = ascending && k == query.limit() && k > 0
                && (view.value(k - 1) instanceof Number || view.value(k - 1) instanceof String);
        if (!numbersAndStringsFirst
                && (view.size() != records.count() || !indexes.unindexedIds(d.field()).isEmpty())) {
            return null;
        }
        // More than k candidates: the fetch stops at the limit, and skips a record deleted meanwhile.
        List<String> ids = ascending ? view.idsInOrder(0, view.size()) : descending(view, 0, view.size(), 2L * k + 16);
        return new Candidates(ids, true);
    }

    /**
     * @return the ids of the slice from its highest value down, equal values in ascending id
     *     order (as the sort of a scan orders them), at most {@code limit}
     */
    private static List<String> descending(RangeView view, int from, int to, long limit) {
        List<String> ids = new ArrayList<>();
        int end = to;
        while (end > from && ids.size() < limit) {
            int start = end - 1;
            while (start > from && Values.compare(view.value(start - 1), view.value(end - 1)) == 0) {
                start--;
            }
            for (int i = start; i < end; i++) {
                ids.add(view.id(i));
            }
            end = start;
        }
        return ids.size() > limit ? new ArrayList<>(ids.subList(0, (int) limit)) : ids;
    }

    @Override
    protected Long indexCount(QueryBuilder query) {
        java.util.Map<String, IndexDefinition> defs = definitions();
        if (!active(defs) || !query.hasConditions()) {
            return null;
        }
        for (List<Condition> group : query.groups()) {
            for (int i = 0; i < group.size(); i++) {
                Condition c = group.get(i);
                IndexDefinition d = IndexedConditions.supporting(c, defs);
                if (d == null || c.operator().isRange() && !containerIds(c).isEmpty()) {
                    return null; // listed lists and objects carry no value to check: count the records
                }
                if (!d.range() && !IndexedConditions.exactKeys(c.values())) {
                    return null; // a value file may also hold values that are not identical: count the records
                }
            }
        }
        if (query.groups().size() == 1) {
            Long one = groupCount(query.groups().get(0), defs, query.limit() > 0 ? query.limit() : Long.MAX_VALUE);
            if (one != null) {
                return one;
            }
        }
        TreeSet<String> union = new TreeSet<>();
        for (List<Condition> group : query.groups()) {
            union.addAll(groupIds(group, defs));
        }
        return (long) union.size();
    }

    /**
     * The count of a lone group read without listing its ids: the {@code count} of an equality value
     * file or of a compound bucket, or the length of a range condition's slice of the range view.
     *
     * @return the count, or {@code null} when the ids must be listed
     */
    private Long groupCount(List<Condition> group, java.util.Map<String, IndexDefinition> defs, long limit) {
        if (group.size() == 2) {
            IndexedConditions.Compound pair = IndexedConditions.compound(group, defs);
            return pair == null ? null : indexes.countCompound(pair.left(), pair.leftValue(), pair.right(), pair.rightValue());
        }
        if (group.size() != 1) {
            return null;
        }
        Condition c = group.get(0);
        IndexDefinition d = IndexedConditions.supporting(c, defs); // not null: indexCount checked every condition
        if (c.operator() == Operator.EQ && d.equality()) {
            return IndexKeys.isIndexable(c.value()) ? indexes.countEqual(d, c.value()) : 0L;
        }
        if (c.operator().isRange() && d.range()) {
            Long sought = indexes.rangeSlices(d.field()).count(c, limit);
            if (sought != null) {
                return sought;
            }
            int[] span = IndexedConditions.span(indexes.rangeView(d.field()), c);
            return (long) (span[1] - span[0]);
        }
        return null;
    }

    /** Ids of one group, or null when no condition of it is index-supported. */
    private List<String> groupIds(List<Condition> group, java.util.Map<String, IndexDefinition> defs) {
        IndexedConditions.Compound pair = IndexedConditions.compound(group, defs);
        if (pair != null) {
            return indexes.idsCompound(pair.left(), pair.leftValue(), pair.right(), pair.rightValue());
        }
        List<java.util.Collection<String>> sets = new ArrayList<>();
        for (Condition c : group) {
            IndexDefinition d = IndexedConditions.supporting(c, defs);
            if (d != null) {
                sets.add(idsFor(c, d));
                continue;
            }
            PathIndexDefinition path = indexes.pathIndexFor(c);
            java.util.Collection<String> ids = path == null ? null : indexes.pathCandidates(path, c);
            if (ids != null) {
                sets.add(ids);
            }
        }
        if (sets.isEmpty()) {
            return null;
        }
        if (sets.size() == 1) {
            return ascendingDistinct(sets.get(0));
        }
        sets.sort(Comparator.comparingInt(java.util.Collection::size));
        TreeSet<String> result = new TreeSet<>(sets.get(0));
        for (int i = 1; i < sets.size() && !result.isEmpty(); i++) {
            result.retainAll(new java.util.HashSet<>(sets.get(i)));
        }
        return new ArrayList<>(result);
    }

    private List<String> idsFor(Condition c, IndexDefinition d) {
        switch (c.operator()) {
            case EQ:
                return IndexKeys.isIndexable(c.value()) ? indexes.idsEqual(d, c.value()) : List.of();
            case IN: {
                TreeSet<String> ids = new TreeSet<>();
                for (Object v : c.values()) {
                    ids.addAll(indexes.idsEqual(d, v));
                }
                return new ArrayList<>(ids);
            }
            default: {
                List<String> scalars = indexes.rangeSlices(d.field()).ids(c);
                if (scalars == null) {
                    RangeView view = indexes.rangeView(d.field());
                    int[] span = IndexedConditions.span(view, c);
                    scalars = view.idsSorted(span[0], span[1]);
                }
                java.util.Set<String> containers = containerIds(c);
                if (containers.isEmpty()) {
                    return scalars;
                }
                TreeSet<String> ids = new TreeSet<>(scalars);
                ids.addAll(containers);
                return new ArrayList<>(ids);
            }
        }
    }

    /** @return how many ordered candidates to read for a limited query: a few more than the limit, for records gone meanwhile */
    private static int need(QueryBuilder query) {
        return (int) Math.min(query.limit() + 16, Integer.MAX_VALUE);
    }

    /** {@code orderBy(f).limit(k)} on a range-indexed {@code f} with one eq condition on an equality index: a walk of f's index. */
    private Candidates equalityOrdered(QueryBuilder query, java.util.Map<String, IndexDefinition> defs) {
        if (query.orderField() == null || query.limit() <= 0 || query.limit() > Integer.MAX_VALUE || query.cursor() != null
                || query.orderPath().isId() || query.orderPath().nested() || query.groups().size() != 1
                || query.groups().get(0).size() != 1) {
            return null;
        }
        Condition c = query.groups().get(0).get(0);
        IndexDefinition d = IndexedConditions.supporting(c, defs);
        IndexDefinition order = defs.get(query.orderField());
        if (c.operator() != Operator.EQ || d == null || !d.equality() || order == null || !order.range()
                || !IndexKeys.isIndexable(c.value())) {
            return null;
        }
        long matches = indexes.countEqual(d, c.value());
        if (matches < RangeTopK.FEW) {
            return null;
        }
        boolean ascending = query.direction() == Direction.ASC;
        List<String> prefix = RangeTopK.prefix(indexes.rangeSlices(order.field()), matches, ascending, records::count, need(query));
        if (prefix != null) {
            return new Candidates(prefix, true, true); // the records in the way are read and re-checked
        }
        List<String> ids = RangeTopK.amongMembers(indexes.rangeSlices(order.field()), indexes.idsEqual(d, c.value()),
                ascending, records::count, need(query));
        return ids == null ? null : new Candidates(ids, true, true);
    }

    /** Index-ordered read: orderBy + limit on the field of the only (range) condition. */
    private Candidates orderedRead(QueryBuilder query, java.util.Map<String, IndexDefinition> defs, boolean limited) {
        if (query.orderField() == null || query.limit() <= 0 || query.cursor() != null || query.groups().size() != 1
                || query.groups().get(0).size() != 1) {
            return null;
        }
        Condition c = query.groups().get(0).get(0);
        IndexDefinition d = IndexedConditions.supporting(c, defs);
        if (!c.path().equals(query.orderPath()) || d == null || !d.range() || !c.operator().isRange()
                || !containerIds(c).isEmpty()) {
            return null; // lists and objects that match are not in the view: sort the candidates instead
        }
        List<String> sought = indexes.rangeSlices(c.field()).ordered(c, query.direction() == Direction.ASC,
                limited ? need(query) : Integer.MAX_VALUE);
        if (sought != null) {
            return new Candidates(sought, true, limited && sought.size() >= need(query));
        }
        RangeView view = indexes.rangeView(c.field());
        int[] span = IndexedConditions.span(view, c);
        List<String> ids = query.direction() == Direction.ASC ? new ArrayList<>(view.idsInOrder(span[0], span[1]))
                : descending(view, span[0], span[1], Long.MAX_VALUE);
        return new Candidates(ids, true);
    }
}
