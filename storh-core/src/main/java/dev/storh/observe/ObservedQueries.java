package dev.storh.observe;

import java.util.function.Supplier;

import dev.storh.query.AroundQueryExecutor;
import dev.storh.store.StoreKind;

/**
 * Reports each query a store runs as a {@link StoreOperation#QUERY}, on the calling thread
 * (around {@code get}, {@code first}, {@code count} and {@code stream} of an
 * {@link AroundQueryExecutor}; {@code explain} is not timed). Thread-safe as the observer.
 *
 * @param observer told each query's latency
 * @param kind the store's engine
 * @param store the store's name
 */
record ObservedQueries(StoreObserver observer, StoreKind kind, String store) implements AroundQueryExecutor.Around {

    @Override
    public <T> T run(Supplier<T> query) {
        return Observed.call(observer, kind, store, StoreOperation.QUERY, query);
    }
}
