package dev.storh.doc;

import dev.storh.StorageRecord;
import dev.storh.doc.index.IndexTrust;
import dev.storh.query.QueryBuilder;
import dev.storh.query.QueryExecutor;
import dev.storh.query.QueryPlan;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * A collection's queries, each of which looks at the writers folder once for all of its index reads
 * ({@link IndexTrust#during}): index state this instance checked before then costs no look at its
 * files while nothing but this instance can have written them. Thread-safe.
 *
 * @param planner the collection's planner
 * @param trust when checked index state may be used without a look at its files
 */
record TrustedQueries(QueryExecutor planner, IndexTrust trust) implements QueryExecutor {

    @Override
    public List<StorageRecord> get(QueryBuilder query) {
        return trust.during(() -> planner.get(query));
    }

    @Override
    public Optional<StorageRecord> first(QueryBuilder query) {
        return trust.during(() -> planner.first(query));
    }

    @Override
    public long count(QueryBuilder query) {
        return trust.during(() -> planner.count(query));
    }

    @Override
    public Stream<StorageRecord> stream(QueryBuilder query) {
        return trust.during(() -> planner.stream(query));
    }

    @Override
    public QueryPlan explain(QueryBuilder query) {
        return trust.during(() -> planner.explain(query));
    }
}
