package dev.storh.query;

import dev.storh.StorageRecord;
import dev.storh.id.UuidV7;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * Runs queries by reading records: the reference
 * semantics every planner must reproduce. Subclasses may supply candidate ids from indexes
 * ({@link #candidates}) and index counts ({@link #indexCount}); candidates are always re-checked
 * against the full query, so an index can narrow the reads but never change the answer.
 */
public class ScanQueryExecutor implements QueryExecutor {

    /** Where records come from. */
    public interface RecordSource {
        /**
         * @param afterId only ids strictly greater, or {@code null} for all
         * @return records in ascending id order; close it
         */
        Stream<StorageRecord> scan(String afterId);

        /**
         * @param id a valid id
         * @return the record, if present
         */
        Optional<StorageRecord> byId(String id);

        /**
         * @return the number of records
         */
        long count();

        /**
         * @param id a valid id
         * @return whether a record has the id; by default {@link #byId} is present, a source may
         *     answer without reading the record
         */
        default boolean exists(String id) {
            return byId(id).isPresent();
        }
    }

    /**
     * Ids from indexes.
     *
     * @param ids candidate ids
     * @param ordered true when {@code ids} already follow the query's order (no sort needed);
     *     otherwise they are ascending
     * @param truncated true when only the first ids were read (a limit hint); if re-checking drops
     *     some, the executor asks again without the hint (the original trusts them, W17)
     */
    public record Candidates(List<String> ids, boolean ordered, boolean truncated) {
        /**
         * @param ids candidate ids
         * @param ordered whether they follow the query's order
         */
        public Candidates(List<String> ids, boolean ordered) {
            this(ids, ordered, false);
        }
    }

    private final String storeName;
    private final RecordSource source;

    /**
     * @param storeName the identifier {@code explain()} reports
     * @param source the records
     */
    public ScanQueryExecutor(String storeName, RecordSource source) {
        this.storeName = storeName;
        this.source = source;
    }

    /**
     * @param query the query
     * @return candidate ids, or {@code null} to scan
     */
    protected Candidates candidates(QueryBuilder query) {
        return null;
    }

    /**
     * @param query the query
     * @return candidates that may be cut to the query's limit; by default {@link #candidates}
     */
    protected Candidates limitedCandidates(QueryBuilder query) {
        return candidates(query);
    }

    /**
     * @param query a query without cursor
     * @return the exact match count from indexes, or {@code null} when indexes cannot say
     */
    protected Long indexCount(QueryBuilder query) {
        return null;
    }

    /**
     * @param query the query
     * @return index uses per group (empty list: full scan)
     */
    protected List<QueryPlan.IndexUse> indexUses(QueryBuilder query) {
        return List.of();
    }

    @Override
    public QueryPlan explain(QueryBuilder query) {
        List<QueryPlan.IndexUse> uses = indexUses(query);
        return new QueryPlan(storeName, uses.isEmpty() ? QueryPlan.FULL_SCAN : QueryPlan.INDEX_SCAN, uses,
                query.groups().size());
    }

    @Override
    public List<StorageRecord> get(QueryBuilder query) {
        Optional<List<StorageRecord>> direct = directId(query);
        if (direct.isPresent()) {
            return direct.get();
        }
        return get(query, limitedCandidates(query));
    }

    private List<StorageRecord> get(QueryBuilder query, Candidates planned) {
        Candidates candidates = planned;
        if (candidates != null) {
            List<StorageRecord> matches = fetch(query, candidates);
            if (candidates.truncated() && query.limit() > 0 && matches.size() < query.limit()) {
                candidates = candidates(query);
                matches = fetch(query, candidates);
            }
            return matches;
        }
        boolean sorted = query.orderField() != null;
        Matches matches = new Matches(query, sorted);
        try (Stream<StorageRecord> all = source.scan(query.cursor())) {
            Iterator<StorageRecord> it = all.iterator();
            while (it.hasNext()) {
                StorageRecord r = it.next();
                if (query.matches(r.id(), r.data())) {
                    matches.add(r);
                    if (!sorted && matches.full()) {
                        break;
                    }
                }
            }
        }
        return matches.list();
    }

    private List<StorageRecord> fetch(QueryBuilder query, Candidates candidates) {
        boolean stopAtLimit = candidates.ordered() || query.orderField() == null;
        Matches matches = new Matches(query, !candidates.ordered() && query.orderField() != null);
        for (String id : candidates.ids()) {
            source.byId(id).filter(r -> query.matches(r.id(), r.data())).ifPresent(matches::add);
            if (stopAtLimit && matches.full()) {
                break;
            }
        }
        return matches.list();
    }

    /**
     * The matches of a query as they are found: all of them in arrival order, or, when they must be
     * sorted, all of them sorted at the end, or with a limit only the first {@code limit} in the
     * query's order (a bounded heap: memory for {@code limit} records, whatever the collection's size).
     */
    private static final class Matches {
        private final long limit;
        private final Comparator<StorageRecord> order;
        private final List<StorageRecord> all = new ArrayList<>();
        private final java.util.PriorityQueue<StorageRecord> best;

        Matches(QueryBuilder query, boolean sort) {
            this.limit = query.limit();
            this.order = sort ? order(query) : null;
            this.best = sort && limit > 0 && limit <= Integer.MAX_VALUE
                    ? new java.util.PriorityQueue<>(order.reversed()) : null;
        }

        void add(StorageRecord r) {
            if (best == null) {
                all.add(r);
            } else if (best.size() < limit) {
                best.add(r);
            } else if (order.compare(r, best.peek()) < 0) {
                best.poll();
                best.add(r);
            }
        }

        int size() {
            return best != null ? best.size() : all.size();
        }

        boolean full() {
            return limit > 0 && size() >= limit;
        }

        List<StorageRecord> list() {
            List<StorageRecord> out = best != null ? new ArrayList<>(best) : all;
            if (order != null) {
                out.sort(order);
            }
            if (limit > 0 && out.size() > limit) {
                return new ArrayList<>(out.subList(0, (int) limit));
            }
            return out;
        }
    }

    @Override
    public Optional<StorageRecord> first(QueryBuilder query) {
        List<StorageRecord> one = get(query.limit(1));
        return one.isEmpty() ? Optional.empty() : Optional.of(one.get(0));
    }

    @Override
    public long count(QueryBuilder query) {
        long limit = query.limit() > 0 ? query.limit() : Long.MAX_VALUE;
        String only = onlyId(query);
        if (only != null) {
            return Math.min(source.exists(only) ? 1 : 0, limit);
        }
        Optional<List<StorageRecord>> direct = directId(query);
        if (direct.isPresent()) {
            return Math.min(direct.get().size(), limit);
        }
        if (!query.hasConditions() && query.cursor() == null) {
            return Math.min(source.count(), limit);
        }
        if (query.cursor() == null) {
            Long fromIndex = indexCount(query);
            if (fromIndex != null) {
                return Math.min(fromIndex, limit);
            }
        }
        Candidates candidates = candidates(query);
        long n = 0;
        if (candidates != null) {
            for (String id : candidates.ids()) {
                if (source.byId(id).filter(r -> query.matches(r.id(), r.data())).isPresent() && ++n >= limit) {
                    break;
                }
            }
            return n;
        }
        try (Stream<StorageRecord> all = source.scan(query.cursor())) {
            Iterator<StorageRecord> it = all.iterator();
            while (it.hasNext() && n < limit) {
                StorageRecord r = it.next();
                if (query.matches(r.id(), r.data())) {
                    n++;
                }
            }
        }
        return n;
    }

    @Override
    public Stream<StorageRecord> stream(QueryBuilder query) {
        Optional<List<StorageRecord>> direct = directId(query);
        if (direct.isPresent()) {
            return direct.get().stream();
        }
        Candidates candidates = limitedCandidates(query);
        if (candidates != null || query.orderField() != null) {
            return get(query, candidates).stream();
        }
        Stream<StorageRecord> s = source.scan(query.cursor()).filter(r -> query.matches(r.id(), r.data()));
        return query.limit() > 0 ? s.limit(query.limit()) : s;
    }

    /**
     * @param query the query
     * @return the comparator of its {@code orderBy}: {@link Values#compare} on the field path's first
     *     reached value (missing as null, {@code id} as the record id), descending when asked, ties
     *     in ascending id order
     */
    protected static Comparator<StorageRecord> order(QueryBuilder query) {
        FieldPath field = query.orderPath();
        Comparator<StorageRecord> byValue = (a, b) -> Values.compare(orderValue(a, field), orderValue(b, field));
        if (query.direction() == Direction.DESC) {
            byValue = byValue.reversed();
        }
        return byValue.thenComparing(StorageRecord::id);
    }

    private static Object orderValue(StorageRecord r, FieldPath field) {
        if (field.isId()) {
            return r.id();
        }
        List<Object> reached = field.resolve(r.data());
        return reached.isEmpty() ? null : reached.get(0);
    }

    /**
     * @return the id of a query made of {@code id eq} conditions on one valid id alone (no cursor):
     *     its count is whether that record exists, without reading it; else {@code null}
     */
    private static String onlyId(QueryBuilder query) {
        if (query.groups().size() != 1 || query.cursor() != null) {
            return null;
        }
        String id = null;
        for (Condition c : query.groups().get(0)) {
            if (!c.path().isId() || c.operator() != Operator.EQ || c.ignoreCase() || !(c.value() instanceof String s)
                    || !UuidV7.isValid(s) || id != null && !id.equals(s.toLowerCase(Locale.ROOT))) {
                return null;
            }
            id = s.toLowerCase(Locale.ROOT);
        }
        return id;
    }

    /** The direct id path: one group holding {@code id eq} conditions. */
    private Optional<List<StorageRecord>> directId(QueryBuilder query) {
        if (query.groups().size() != 1) {
            return Optional.empty();
        }
        List<Condition> group = query.groups().get(0);
        String id = null;
        boolean found = false;
        for (Condition c : group) {
            if (c.path().isId() && c.operator() == Operator.EQ && !c.ignoreCase()) {
                Object v = c.value();
                if (!(v instanceof String s) || !UuidV7.isValid(s) || (found && !s.toLowerCase(Locale.ROOT).equals(id))) {
                    return Optional.of(List.of());
                }
                id = s.toLowerCase(Locale.ROOT);
                found = true;
            }
        }
        if (!found) {
            return Optional.empty();
        }
        if (query.cursor() != null && id.compareTo(query.cursor()) <= 0) {
            return Optional.of(List.of());
        }
        Optional<StorageRecord> record = source.byId(id);
        if (record.isEmpty() || !query.matches(record.get().id(), record.get().data())) {
            return Optional.of(List.of());
        }
        return Optional.of(List.of(record.get()));
    }
}
