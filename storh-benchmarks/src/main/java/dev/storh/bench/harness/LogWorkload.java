package dev.storh.bench.harness;

import dev.storh.StorageRecord;
import dev.storh.id.UuidV7;
import dev.storh.log.SegmentedLog;
import dev.storh.log.SegmentedLogOptions;
import dev.storh.query.QueryBuilder;
import dev.storh.query.RecordQuery;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import java.util.stream.Stream;

/**
 * Section {@code log}: the segmented log {@code log} with 16,384-byte segments, then
 * {@code log-bulk} with explicit ids, as the original's benchmark lists them.
 *
 * <p>The {@code log.query_*} metrics that return records run the log's own {@link QueryBuilder}
 * ({@link SegmentedLog#query()}, a scan as the original's log queries are, with id conditions read
 * through the state index); the {@code *_count} metrics call {@link SegmentedLog#count(RecordQuery)}.
 * With {@code --threads=T}, {@code log.append_tT} times N puts from T threads into a fresh log {@code log-tT} (group commit).
 */
final class LogWorkload {

    /** The original's benchmark segment size. */
    static final long SEGMENT_BYTES = 16_384;

    private LogWorkload() {
    }

    static SegmentedLogOptions options() {
        return SegmentedLogOptions.builder().maxSegmentBytes(SEGMENT_BYTES).build();
    }

    static void run(SectionRun b) throws Exception {
        int n = b.n();
        Rows rows = b.rows();
        Path dir = b.dir();
        long s = Rows.PUBLISHED_START;
        try (SegmentedLog log = SegmentedLog.open(dir, "log", options())) {
            List<String> ids = b.timePuts("append", log::put);
            String mid = ids.get(n / 2);
            String midStatus = Rows.status(n / 2);
            RecordQuery published = RecordQuery.all().whereEqual("status", "published");
            b.time("cursor", 1, () -> materialise(log, RecordQuery.all().after(mid).limit(100)));
            b.time("query_cursor", 1, () -> query(log).cursor(mid).limit(100).get());
            b.time("query_id_first", 1, () -> query(log).where("id").eq(mid).first());
            b.time("query_id_count", 1, () -> query(log).where("id").eq(mid).count());
            b.time("query_id_filtered_first", 1,
                    () -> query(log).where("id").eq(mid).where("status").eq(midStatus).first());
            b.time("query_first", 1, () -> query(log).where("status").eq("published").first());
            b.time("query_cursor_first", 1, () -> query(log).where("status").eq("published").cursor(mid).first());
            b.time("range", 1, () -> materialise(log, RecordQuery.all().timeRangeMs(s + 10, s + 200)));
            b.time("query_all_count", 1, log::count);
            b.time("query_count", 1, () -> log.count(published));
            b.time("query_limit_count", 1, () -> log.count(published.limit(100)));
            b.time("stats", 1, log::stats);
            b.time("compact", n, log::compact);
        }
        AtomicLong next = new AtomicLong();
        Supplier<String> explicit = () -> UuidV7.generate(s + next.getAndIncrement());
        SegmentedLogOptions bulkOptions =
                SegmentedLogOptions.builder().maxSegmentBytes(SEGMENT_BYTES).idGenerator(explicit).build();
        try (SegmentedLog bulk = SegmentedLog.open(dir, "log-bulk", bulkOptions)) {
            RecordQuery range = RecordQuery.all().timeRangeMs(s + 10, s + 200);
            b.time("bulk_append", n, () -> bulk.appendStream(rows.rows(n)));
            b.time("bulk_query_count", 1, () -> bulk.count(RecordQuery.all().whereEqual("status", "published")));
            b.time("bulk_cursor", 1,
                    () -> materialise(bulk, RecordQuery.all().after(UuidV7.maxForTimestampMs(s + n / 2)).limit(100)));
            b.time("bulk_range", 1, () -> materialise(bulk, range));
            b.time("bulk_compact", n, bulk::compact);
            b.time("bulk_compacted_range", 1, () -> materialise(bulk, range));
        }
        for (int threads : b.threads()) {
            try (SegmentedLog concurrent = SegmentedLog.open(dir, "log-t" + threads, options());
                    SectionRun.ConcurrentWork work =
                            SectionRun.concurrently(threads, n, i -> concurrent.put(rows.row(i)))) {
                b.time("append_t" + threads, n, work);
            }
        }
    }

    private static int materialise(SegmentedLog log, RecordQuery query) {
        try (Stream<StorageRecord> records = log.stream(query)) {
            return records.toList().size();
        }
    }

    /**
     * @param log a log
     * @return the log's own query builder ({@link SegmentedLog#query()}): a scan, as the original's
     *     log query builder is, whose id conditions read through the state index
     */
    static QueryBuilder query(SegmentedLog log) {
        return log.query();
    }
}
