package dev.storh.bench.jmh.queue;

import dev.storh.bench.jmh.ShortBenchmark;
import dev.storh.queue.Queue;
import dev.storh.queue.QueueOptions;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;

/**
 * {@code Queue.requeueTimedOut(0)} with nothing processing, after {@code jobs} jobs were enqueued,
 * claimed and completed (the original's benchmark): the no-op path, and {@code counts()} beside it
 * for the cost of a locked call.
 */
public class QueueRequeueBenchmark extends ShortBenchmark {

    @Param("10000")
    public int jobs;

    private Queue queue;

    @Setup(Level.Trial)
    public void load() throws IOException {
        createRoot("storh-bench-queue-requeue");
        queue = onRoot(Queue.open(root, "queue", QueueOptions.builder().autoCompact(false).build()));
        List<Map<String, Object>> rows = new ArrayList<>();
        for (int i = 0; i < jobs; i++) {
            rows.add(Map.of("task", "t" + i, "n", (long) i));
        }
        queue.enqueueMany(rows);
        List<String> ids = queue.claimMany(jobs).stream().map(r -> r.id()).toList();
        queue.completeMany(ids);
    }

    @Benchmark
    public int requeueNothingProcessing() {
        return queue.requeueTimedOut(Duration.ZERO);
    }

    @Benchmark
    public Object countsLocked() {
        return queue.counts();
    }
}
