package dev.storh.log;

import dev.storh.StorageRecord;
import dev.storh.id.UuidV7;
import dev.storh.query.Condition;
import dev.storh.query.Operator;
import dev.storh.query.QueryBuilder;
import dev.storh.query.ScanQueryExecutor;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The query executor of a {@link SegmentedLog} ({@link SegmentedLog#query()}): a
 * {@link ScanQueryExecutor} over the log's live records, made once per log, whose queries on one id
 * ({@code where("id").eq(id)}, with or without further conditions in the same group) go straight to
 * the state index: the id is checked and lowered once, read (or, for a count of the id alone, only
 * looked up) and the record re-checked against the whole query, exactly as the scan executor's own
 * id path answers them. Every other query is the scan executor's. Thread-safe.
 */
final class LogQueries extends ScanQueryExecutor {

    /** A direct id query that matches nothing whatever the log holds (an invalid or second, different id). */
    private static final String NOTHING = "";

    private final SegmentedLog log;
    private final LogReads reads;

    /**
     * @param log the open log, whose public reads answer the scans
     * @param reads its reads
     */
    LogQueries(SegmentedLog log, LogReads reads) {
        super("storh.SegmentedLog", LogReads.scanSource(log, reads));
        this.log = log;
        this.reads = reads;
    }

    @Override
    public List<StorageRecord> get(QueryBuilder query) {
        String key = directKey(query);
        if (key == null) {
            return super.get(query);
        }
        StorageRecord r = key == NOTHING ? null : read(query, key);
        return r == null ? List.of() : List.of(r);
    }

    @Override
    public Optional<StorageRecord> first(QueryBuilder query) {
        String key = directKey(query);
        if (key == null) {
            return super.first(query);
        }
        return key == NOTHING ? Optional.empty() : Optional.ofNullable(read(query, key));
    }

    @Override
    public long count(QueryBuilder query) {
        String key = directKey(query);
        if (key == null) {
            return super.count(query);
        }
        if (key == NOTHING) {
            return 0;
        }
        if (query.cursor() == null && onlyIds(query.groups().get(0))) {
            log.ensureOpen();
            return reads.existsValid(key) ? 1 : 0; // a limit is at least 1
        }
        return read(query, key) == null ? 0 : 1;
    }

    /**
     * @return the record with the id when it is live and matches the whole query, else {@code null}
     */
    private StorageRecord read(QueryBuilder query, String key) {
        log.ensureOpen();
        StorageRecord r = reads.getValid(key).orElse(null);
        return r != null && query.matches(key, r.data()) ? r : null;
    }

    /**
     * The scan executor's direct id path: one group holding {@code id eq} conditions (case kept).
     *
     * @param query the query
     * @return {@code null} when the query is not one; {@link #NOTHING} when it can match no record (a
     *     value that is not a valid id, two different ids, an id not after the cursor); else the id, lowercase
     */
    private static String directKey(QueryBuilder query) {
        List<List<Condition>> groups = query.groups();
        if (groups.size() != 1) {
            return null;
        }
        String id = null;
        for (Condition c : groups.get(0)) {
            if (c.operator() == Operator.EQ && !c.ignoreCase() && c.path().isId()) {
                if (!(c.value() instanceof String s) || !UuidV7.isValid(s)) {
                    return NOTHING;
                }
                String lower = s.toLowerCase(Locale.ROOT);
                if (id != null && !id.equals(lower)) {
                    return NOTHING;
                }
                id = lower;
            }
        }
        if (id == null) {
            return null;
        }
        String cursor = query.cursor();
        return cursor != null && id.compareTo(cursor) <= 0 ? NOTHING : id;
    }

    /** @return whether every condition of the group is an {@code id eq} (then a count needs no read) */
    private static boolean onlyIds(List<Condition> group) {
        for (Condition c : group) {
            if (c.operator() != Operator.EQ || c.ignoreCase() || !c.path().isId()) {
                return false;
            }
        }
        return true;
    }
}
