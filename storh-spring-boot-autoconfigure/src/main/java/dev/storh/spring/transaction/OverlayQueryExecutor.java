package dev.storh.spring.transaction;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

import dev.storh.StorageRecord;
import dev.storh.doc.DocStore;
import dev.storh.query.Condition;
import dev.storh.query.Direction;
import dev.storh.query.FieldPath;
import dev.storh.query.QueryBuilder;
import dev.storh.query.QueryExecutor;
import dev.storh.query.QueryPlan;
import dev.storh.query.Values;

/**
 * Runs a query on a collection as a transaction sees it: the collection's own answer (planned on
 * its indexes as usual) without the records the transaction wrote, plus the transaction's puts
 * that match, in the query's order. With a limit, the collection is asked for as many more records
 * as the transaction wrote, so records it hides never shorten the answer.
 */
final class OverlayQueryExecutor implements QueryExecutor {

    private final DocStore store;

    private final Map<String, BufferedWrite> own;

    OverlayQueryExecutor(DocStore store, Map<String, BufferedWrite> own) {
        this.store = store;
        this.own = own;
    }

    @Override
    public List<StorageRecord> get(QueryBuilder query) {
        long widened = (query.limit() > 0) ? query.limit() + this.own.size() : 0;
        List<StorageRecord> result = new ArrayList<>();
        for (StorageRecord stored : onStore(query, widened).get()) {
            if (!this.own.containsKey(stored.id())) {
                result.add(stored);
            }
        }
        for (BufferedWrite write : this.own.values()) {
            if (!write.isDelete() && query.matches(write.id(), write.data())) {
                result.add(write.record());
            }
        }
        result.sort(order(query.orderPath(), query.direction()));
        return (query.limit() > 0 && result.size() > query.limit()) ? result.subList(0, (int) query.limit()) : result;
    }

    @Override
    public Optional<StorageRecord> first(QueryBuilder query) {
        return get(query.limit(1)).stream().findFirst();
    }

    @Override
    public long count(QueryBuilder query) {
        long count = onStore(query, 0).count();
        for (BufferedWrite write : this.own.values()) {
            Optional<StorageRecord> stored = this.store.get(write.id());
            if (stored.isPresent() && query.matches(write.id(), stored.get().data())) {
                count--;
            }
            if (!write.isDelete() && query.matches(write.id(), write.data())) {
                count++;
            }
        }
        return (query.limit() > 0) ? Math.min(count, query.limit()) : count;
    }

    @Override
    public Stream<StorageRecord> stream(QueryBuilder query) {
        return get(query).stream();
    }

    @Override
    public QueryPlan explain(QueryBuilder query) {
        return onStore(query, query.limit()).explain();
    }

    /** The same conditions, order and cursor on the collection itself, with the given limit. */
    private QueryBuilder onStore(QueryBuilder query, long limit) {
        QueryBuilder copy = this.store.query();
        List<List<Condition>> groups = query.groups();
        if (groups.size() == 1) {
            for (Condition condition : groups.get(0)) {
                copy = copy.and(condition);
            }
        }
        else if (groups.stream().noneMatch(List::isEmpty)) {
            for (List<Condition> group : groups) {
                copy = copy.orWhere((branch) -> {
                    QueryBuilder all = branch;
                    for (Condition condition : group) {
                        all = all.and(condition);
                    }
                    return all;
                });
            }
        }
        if (query.orderPath() != null) {
            copy = copy.orderBy(query.orderPath(), query.direction());
        }
        if (query.cursor() != null) {
            copy = copy.cursor(query.cursor());
        }
        return (limit > 0) ? copy.limit(limit) : copy;
    }

    /** Core's query order: the path's first value (missing as null), ties by ascending id. */
    private static Comparator<StorageRecord> order(FieldPath path, Direction direction) {
        if (path == null) {
            return Comparator.comparing(StorageRecord::id);
        }
        Comparator<StorageRecord> byValue = Comparator.comparing((r) -> sortValue(r, path), Values::compare);
        return ((direction == Direction.DESC) ? byValue.reversed() : byValue).thenComparing(StorageRecord::id);
    }

    private static Object sortValue(StorageRecord record, FieldPath path) {
        if (path.isId()) {
            return record.id();
        }
        List<Object> reached = path.resolve(record.data());
        return reached.isEmpty() ? null : reached.get(0);
    }

}
