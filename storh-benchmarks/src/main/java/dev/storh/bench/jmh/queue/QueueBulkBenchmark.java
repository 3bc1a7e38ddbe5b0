package dev.storh.bench.jmh.queue;

import dev.storh.StorageRecord;
import dev.storh.bench.jmh.ShortBenchmark;
import dev.storh.queue.Queue;
import dev.storh.queue.QueueOptions;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;

/**
 * One {@code enqueueMany}, {@code claimMany} and {@code completeMany} of {@code jobs} jobs in a fresh
 * queue per invocation (the original's {@code queue.bulk_*} metrics, together): CPU and allocation
 * of the bulk paths beside their three fsyncs.
 */
public class QueueBulkBenchmark extends ShortBenchmark {

    @Param("10000")
    public int jobs;

    private List<Map<String, Object>> rows;
    private int round;

    @Setup(Level.Trial)
    public void load() throws IOException {
        createRoot("storh-bench-queue-bulk");
        rows = new ArrayList<>();
        for (int i = 0; i < jobs; i++) {
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("title", "Item " + i);
            row.put("kind", i % 2 == 0 ? "note" : "page");
            row.put("status", i % 3 == 0 ? "draft" : "published");
            row.put("bucket", (long) (i % 10));
            row.put("slug", "item-" + i);
            row.put("publishedAt", 1_700_000_000_000L + i);
            rows.add(row);
        }
    }

    @Benchmark
    public int enqueueClaimComplete() {
        try (Queue queue = Queue.open(root, "queue-" + round++, QueueOptions.builder().autoCompact(false).build())) {
            queue.enqueueMany(rows);
            List<String> ids = queue.claimMany(jobs).stream().map(StorageRecord::id).toList();
            return queue.completeMany(ids);
        }
    }
}
