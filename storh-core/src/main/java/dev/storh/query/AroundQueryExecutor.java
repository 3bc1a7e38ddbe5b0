package dev.storh.query;

import dev.storh.StorageRecord;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;
import java.util.stream.Stream;

/**
 * A query executor that runs each call of another one through an {@link Around}: the one decorator
 * behind the timing of queries ({@code dev.storh.observe}) and the collections' index trust. A
 * returned stream is the executor's own, so closing it closes the files it holds. Thread-safe when
 * the executor and both wrappers are.
 *
 * @param executor the executor every call goes to
 * @param queries runs each {@code get}, {@code first}, {@code count} and {@code stream}
 * @param explain runs each {@code explain}
 */
public record AroundQueryExecutor(QueryExecutor executor, Around queries, Around explain) implements QueryExecutor {

    /** Runs one call of the executor below, e.g. timed or inside a scope. */
    @FunctionalInterface
    public interface Around {

        /** Runs the call as it is. */
        Around DIRECT = Supplier::get;

        /**
         * @param <T> what the call returns
         * @param call the call of the executor below
         * @return what the call returned
         */
        <T> T run(Supplier<T> call);
    }

    @Override
    public List<StorageRecord> get(QueryBuilder query) {
        return queries.run(() -> executor.get(query));
    }

    @Override
    public Optional<StorageRecord> first(QueryBuilder query) {
        return queries.run(() -> executor.first(query));
    }

    @Override
    public long count(QueryBuilder query) {
        return queries.run(() -> executor.count(query));
    }

    @Override
    public Stream<StorageRecord> stream(QueryBuilder query) {
        return queries.run(() -> executor.stream(query));
    }

    @Override
    public QueryPlan explain(QueryBuilder query) {
        return explain.run(() -> executor.explain(query));
    }
}
