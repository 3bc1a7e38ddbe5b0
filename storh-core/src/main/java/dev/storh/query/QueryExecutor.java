package dev.storh.query;

import dev.storh.StorageRecord;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * Runs a {@link QueryBuilder} against a store. {@link ScanQueryExecutor} gives the reference
 * semantics by scanning; a store with indexes plans first and must return the same answers.
 */
public interface QueryExecutor {

    /**
     * @param query the query
     * @return matching records: ordered by {@code orderBy}, else ascending id; at most {@code limit}
     */
    List<StorageRecord> get(QueryBuilder query);

    /**
     * @param query the query
     * @return the first record {@link #get} would return
     */
    Optional<StorageRecord> first(QueryBuilder query);

    /**
     * @param query the query
     * @return the number of matches, at most {@code limit}; {@code orderBy} is ignored
     */
    long count(QueryBuilder query);

    /**
     * @param query the query
     * @return the records of {@link #get} as a lazy stream where possible; close it
     */
    Stream<StorageRecord> stream(QueryBuilder query);

    /**
     * @param query the query
     * @return how the query would run
     */
    QueryPlan explain(QueryBuilder query);
}
