package dev.storh.queue;

import dev.storh.StorageRecord;
import dev.storh.store.CompactReport;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;

/**
 * Whole-run figures for the queue (not a test; fsync-bound, so run it by hand on the target disk):
 *
 * <pre>
 * mvn -o -q -pl storh-core test-compile
 * java -cp storh-core/target/classes:storh-core/target/test-classes:<dependency classpath> dev.storh.queue.QueueBenchmark [jobs] [dir]
 * </pre>
 */
public final class QueueBenchmark {

    private QueueBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        int n = args.length > 0 ? Integer.parseInt(args[0]) : 100_000;
        Path dir = args.length > 1 ? Path.of(args[1]) : Files.createTempDirectory("queue-bench");
        List<Map<String, Object>> payloads = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            payloads.add(Map.of("task", "render", "page", (long) i));
        }
        System.out.printf("queue benchmark: %,d jobs, dir %s%n", n, dir);
        int singleN = Math.min(n, 20_000);
        try (Queue q = Queue.open(dir, "single")) {
            long t = System.nanoTime();
            List<String> ids = new ArrayList<>(singleN);
            for (int i = 0; i < singleN; i++) {
                ids.add(q.enqueue(payloads.get(i)));
            }
            report("enqueue, 1 thread", singleN, t);
            t = System.nanoTime();
            for (int i = 0; i < singleN; i++) {
                q.claim();
            }
            report("claim, 1 thread", singleN, t);
            t = System.nanoTime();
            for (String id : ids) {
                q.complete(id);
            }
            report("complete, 1 thread", singleN, t);
        }
        try (Queue q = Queue.open(dir, "threads")) {
            ConcurrentLinkedQueue<String> claimed = new ConcurrentLinkedQueue<>();
            runThreads("enqueue, 16 threads", n, i -> q.enqueue(payloads.get(i)));
            runThreads("claim, 16 threads", n, i -> q.claim().ifPresent(r -> claimed.add(r.id())));
            runThreads("complete, 16 threads", n, i -> q.complete(claimed.poll()));
        }
        try (Queue q = Queue.open(dir, "bulk")) {
            long t = System.nanoTime();
            List<String> ids = q.enqueueMany(payloads);
            report("enqueueMany (one call)", n, t);
            t = System.nanoTime();
            List<StorageRecord> claimed = new ArrayList<>();
            for (List<StorageRecord> batch = q.claimMany(1000); !batch.isEmpty(); batch = q.claimMany(1000)) {
                claimed.addAll(batch);
            }
            report("claimMany(1000)", n, t);
            t = System.nanoTime();
            for (int i = 0; i < ids.size(); i += 1000) {
                q.completeMany(ids.subList(i, Math.min(ids.size(), i + 1000)));
            }
            report("completeMany(1000)", n, t);
            System.out.printf("  log after %,d jobs: %,d bytes (done jobs kept)%n", n, q.stats().bytes());
            t = System.nanoTime();
            q.purgeDone();
            report("purgeDone", n, t);
            System.out.printf("  log after purge: %,d bytes%n", q.stats().bytes());
        }
        for (String name : new String[] {"single", "threads", "bulk"}) {
            long t = System.nanoTime();
            try (Queue q = Queue.open(dir, name)) {
                System.out.printf("reopen %-8s %,10d bytes %8.1f ms  %s%n", name, q.stats().bytes(),
                        (System.nanoTime() - t) / 1e6, q.counts());
            }
        }
        try (Queue q = Queue.open(dir, "uncompacted", QueueOptions.builder().autoCompact(false).build())) {
            q.enqueueMany(payloads);
            for (List<StorageRecord> b = q.claimMany(1000); !b.isEmpty(); b = q.claimMany(1000)) {
                q.completeMany(b.stream().map(StorageRecord::id).toList(), false);
            }
        }
        long t = System.nanoTime();
        try (Queue q = Queue.open(dir, "uncompacted", QueueOptions.builder().autoCompact(false).build())) {
            System.out.printf("reopen without compaction: %,d bytes %.1f ms%n", q.stats().bytes(), (System.nanoTime() - t) / 1e6);
            t = System.nanoTime();
            CompactReport<QueueCompactDetails> r = q.compact();
            System.out.printf("compact: %,d -> %,d bytes in %.1f ms%n", r.bytesBefore(), r.bytesAfter(), (System.nanoTime() - t) / 1e6);
        }
        t = System.nanoTime();
        try (Queue q = Queue.open(dir, "uncompacted")) {
            System.out.printf("reopen after compaction: %,d bytes %.1f ms%n", q.stats().bytes(), (System.nanoTime() - t) / 1e6);
        }
        if (args.length < 2) {
            try (Stream<Path> walk = Files.walk(dir)) {
                walk.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }

    private interface Task {
        void run(int i);
    }

    private static void runThreads(String label, int n, Task task) throws InterruptedException {
        AtomicInteger next = new AtomicInteger();
        List<Thread> threads = new ArrayList<>();
        long t = System.nanoTime();
        for (int k = 0; k < 16; k++) {
            threads.add(new Thread(() -> {
                for (int i = next.getAndIncrement(); i < n; i = next.getAndIncrement()) {
                    task.run(i);
                }
            }));
        }
        threads.forEach(Thread::start);
        for (Thread thread : threads) {
            thread.join();
        }
        report(label, n, t);
    }

    private static void report(String label, int n, long startNanos) {
        double s = (System.nanoTime() - startNanos) / 1e9;
        System.out.printf("%-24s %,9d ops %8.2f s %,12.0f ops/s%n", label, n, s, n / s);
    }
}
