package dev.storh.bench.jmh.log;

import dev.storh.bench.jmh.ShortBenchmark;
import dev.storh.log.Durability;
import dev.storh.log.SegmentedLog;
import dev.storh.log.SegmentedLogOptions;
import dev.storh.query.RecordQuery;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;

/**
 * {@code SegmentedLog.count(query)} over {@code records} records in 16 KiB segments (the original's
 * benchmark layout): one equality condition on a field with few values (from the in-memory counts),
 * the same with a limit, and the same condition on a field with a value per record (a scan).
 */
public class LogCountBenchmark extends ShortBenchmark {

    @Param("10000")
    public int records;

    private SegmentedLog log;
    private final RecordQuery published = RecordQuery.all().whereEqual("status", "published");
    private final RecordQuery slug = RecordQuery.all().whereEqual("slug", "item-5000");

    @Setup(Level.Trial)
    public void load() throws IOException {
        createRoot("storh-bench-log-count");
        log = onRoot(SegmentedLog.open(root, "log", SegmentedLogOptions.builder().maxSegmentBytes(16_384)
                .durability(Durability.NO_FSYNC).build()));
        List<Map<String, Object>> rows = new ArrayList<>();
        for (int i = 0; i < records; i++) {
            rows.add(Map.of("kind", i % 2 == 0 ? "note" : "page", "status", i % 3 == 0 ? "draft" : "published",
                    "bucket", (long) (i % 10), "slug", "item-" + i));
        }
        log.appendStream(rows);
    }

    @Benchmark
    public long countEqual() {
        return log.count(published);
    }

    @Benchmark
    public long countEqualLimit() {
        return log.count(published.limit(100));
    }

    @Benchmark
    public long countEqualScanned() {
        return log.count(slug);
    }
}
