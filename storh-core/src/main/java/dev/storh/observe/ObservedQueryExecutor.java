package dev.storh.observe;

import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;
import java.util.stream.Stream;

import dev.storh.StorageRecord;
import dev.storh.query.QueryBuilder;
import dev.storh.query.QueryExecutor;
import dev.storh.query.QueryPlan;
import dev.storh.store.StoreKind;

/**
 * A query executor that reports each query it runs as a {@link StoreOperation#QUERY};
 * {@code explain} is passed through untimed. Thread-safe as the executor under it.
 */
record ObservedQueryExecutor(QueryExecutor executor, StoreObserver observer, StoreKind kind, String store)
        implements QueryExecutor {

    @Override
    public List<StorageRecord> get(QueryBuilder query) {
        return timed(() -> executor.get(query));
    }

    @Override
    public Optional<StorageRecord> first(QueryBuilder query) {
        return timed(() -> executor.first(query));
    }

    @Override
    public long count(QueryBuilder query) {
        return timed(() -> executor.count(query));
    }

    @Override
    public Stream<StorageRecord> stream(QueryBuilder query) {
        return timed(() -> executor.stream(query));
    }

    @Override
    public QueryPlan explain(QueryBuilder query) {
        return executor.explain(query);
    }

    private <T> T timed(Supplier<T> query) {
        return Observed.call(observer, kind, store, StoreOperation.QUERY, query);
    }
}
