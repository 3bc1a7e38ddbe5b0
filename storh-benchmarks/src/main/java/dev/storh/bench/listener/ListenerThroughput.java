package dev.storh.bench.listener;

import dev.storh.queue.Queue;
import dev.storh.queue.QueueJob;
import dev.storh.queue.QueueOptions;
import dev.storh.spring.listener.StorhListenerContainer;
import dev.storh.spring.listener.StorhListenerSettings;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;

/**
 * Jobs per second through a listener container at concurrency 1, 4 and 16, beside raw loops of
 * {@code claimJobs(batch)} + {@code completeMany} on 1, 4 and 16 threads (the same work without the
 * container). Each run gets a fresh queue holding {@code jobs} pending jobs; the handler does
 * nothing, so the figures are the queue's and the container's overhead (fsync-bound). Not a test:
 *
 * <pre>
 * mvn -B -q -DskipTests package
 * java -cp storh-benchmarks/target/storh-benchmarks.jar dev.storh.bench.listener.ListenerThroughput [jobs=20000] [batch=10] [dir]
 * </pre>
 */
public final class ListenerThroughput {

    private static final int[] THREADS = {1, 4, 16};

    private ListenerThroughput() {
    }

    /**
     * @param args {@code [jobs] [batch] [dir]}
     * @throws Exception on I/O failure
     */
    public static void main(String[] args) throws Exception {
        int jobs = args.length > 0 ? Integer.parseInt(args[0]) : 20_000;
        int batch = args.length > 1 ? Integer.parseInt(args[1]) : 10;
        Path dir = args.length > 2 ? Path.of(args[2]) : Files.createTempDirectory("listener-bench");
        System.out.printf(Locale.ROOT, "listener throughput: %,d jobs per run, batch %d, dir %s, %d cpus%n", jobs, batch,
                dir, Runtime.getRuntime().availableProcessors());
        // warm-up (JIT), not reported
        raw(dir, "warm-raw", Math.min(jobs, 5_000), batch, 4);
        listener(dir, "warm-listener", Math.min(jobs, 5_000), batch, 4);
        for (int threads : THREADS) {
            report("raw claimJobs+completeMany", threads, jobs, raw(dir, "raw-" + threads, jobs, batch, threads));
            report("listener container", threads, jobs, listener(dir, "listener-" + threads, jobs, batch, threads));
        }
    }

    private static Queue filled(Path dir, String name, int jobs) {
        Queue queue = Queue.open(dir, name, QueueOptions.builder().autoCompact(false).build());
        List<Map<String, Object>> payloads = new ArrayList<>(jobs);
        for (int i = 0; i < jobs; i++) {
            payloads.add(Map.of("kind", "geocode-check", "n", (long) i));
        }
        queue.enqueueMany(payloads);
        return queue;
    }

    private static long raw(Path dir, String name, int jobs, int batch, int threads) throws InterruptedException {
        try (Queue queue = filled(dir, name, jobs)) {
            LongAdder handled = new LongAdder();
            List<Thread> workers = new ArrayList<>();
            long start = System.nanoTime();
            for (int t = 0; t < threads; t++) {
                Thread worker = new Thread(() -> {
                    for (List<QueueJob> claimed = queue.claimJobs(batch); !claimed.isEmpty();
                            claimed = queue.claimJobs(batch)) {
                        handled.add(claimed.size());
                        queue.completeMany(claimed.stream().map(QueueJob::id).toList());
                    }
                });
                worker.start();
                workers.add(worker);
            }
            for (Thread worker : workers) {
                worker.join();
            }
            long nanos = System.nanoTime() - start;
            check(queue, jobs, handled.sum());
            return nanos;
        }
    }

    private static long listener(Path dir, String name, int jobs, int batch, int threads) throws InterruptedException {
        try (Queue queue = filled(dir, name, jobs); Queue dead = Queue.open(dir, name + ".dead")) {
            LongAdder handled = new LongAdder();
            StorhListenerSettings d = StorhListenerSettings.defaults();
            StorhListenerSettings settings = new StorhListenerSettings(threads, batch, d.maxAttempts(), d.backoff(),
                    d.backoffMultiplier(), d.maxBackoff(), d.shutdownTimeout(), d.idleInterval(),
                    Duration.ofHours(1), d.processingTimeout(), null);
            StorhListenerContainer container = new StorhListenerContainer(name, name, queue, () -> dead,
                    job -> handled.increment(), settings);
            long start = System.nanoTime();
            container.start();
            while (handled.sum() < jobs) {
                Thread.sleep(1);
            }
            while (queue.counts().done() < jobs) {
                Thread.sleep(1);
            }
            long nanos = System.nanoTime() - start;
            container.stop();
            check(queue, jobs, handled.sum());
            return nanos;
        }
    }

    private static void check(Queue queue, int jobs, long handled) {
        var counts = queue.counts();
        if (handled != jobs || counts.done() != jobs || counts.pending() != 0 || counts.processing() != 0) {
            throw new IllegalStateException("expected " + jobs + " jobs done once, handled " + handled + ", " + counts);
        }
    }

    private static void report(String what, int threads, int jobs, long nanos) {
        double seconds = nanos / 1e9;
        System.out.printf(Locale.ROOT, "%-28s threads %2d: %,8.0f jobs/s (%,d jobs in %.2f s)%n", what, threads,
                jobs / seconds, jobs, seconds);
    }
}
