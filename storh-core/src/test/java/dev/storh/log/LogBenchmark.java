package dev.storh.log;

import dev.storh.StorageRecord;
import dev.storh.id.UuidV7;
import dev.storh.query.RecordQuery;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;

/**
 * Whole-run harness for the fsync-bound log operations on 100,000 records (not part of the test
 * suite). Run it by hand from {@code storh-core}:
 *
 * <pre>
 * mvn -o -q dependency:build-classpath -Dmdep.outputFile=target/cp.txt
 * java -cp target/classes:target/test-classes:$(cat target/cp.txt) dev.storh.log.LogBenchmark /path/on/real/disk [records]
 * </pre>
 *
 * A raw fsync probe (append 100 bytes + {@code force}) runs first, so the figures can be read against
 * the disk's own fsync rate.
 */
public final class LogBenchmark {

    private LogBenchmark() {
    }

    /**
     * @param args a scratch folder (deleted and recreated), optionally the record count (default 100000)
     * @throws Exception on failure
     */
    public static void main(String[] args) throws Exception {
        Path dir = Path.of(args[0]);
        int records = args.length > 1 ? Integer.parseInt(args[1]) : 100_000;
        deleteTree(dir);
        Files.createDirectories(dir);
        System.out.printf(Locale.ROOT, "records=%d cores=%d java=%s%n", records, Runtime.getRuntime().availableProcessors(),
                System.getProperty("java.version"));
        fsyncProbe(dir.resolve("probe.bin"), 2000);
        SegmentedLogOptions options = SegmentedLogOptions.defaults();
        List<String> ids = new ArrayList<>(records);
        long t0 = System.nanoTime();
        try (SegmentedLog log = SegmentedLog.open(dir, "events", options)) {
            List<Map<String, ?>> rows = new ArrayList<>(records);
            for (int i = 0; i < records; i++) {
                String id = UuidV7.generate();
                ids.add(id);
                rows.add(Map.of("id", id, "data", Map.of("type", i % 3 == 0 ? "user.login" : "page.rendered", "n", (long) i,
                        "path", "/articles/" + i)));
            }
            t0 = System.nanoTime();
            log.appendMany(rows);
            report("appendMany, one call", records, t0);

            int singles = 2000;
            t0 = System.nanoTime();
            for (int i = 0; i < singles; i++) {
                log.put(Map.of("type", "single", "n", (long) i));
            }
            double single = report("put, 1 thread, durable", singles, t0);

            int threads = 16;
            int perThread = 500;
            CountDownLatch start = new CountDownLatch(1);
            List<Thread> workers = new ArrayList<>();
            long syncsBefore = log.syncCount();
            for (int t = 0; t < threads; t++) {
                long thread = t;
                Thread w = new Thread(() -> {
                    try {
                        start.await();
                    } catch (InterruptedException e) {
                        return;
                    }
                    for (int i = 0; i < perThread; i++) {
                        log.put(Map.of("type", "threaded", "thread", thread, "n", (long) i));
                    }
                });
                w.start();
                workers.add(w);
            }
            t0 = System.nanoTime();
            start.countDown();
            for (Thread w : workers) {
                w.join();
            }
            double threaded = report("put, 16 threads, durable", threads * perThread, t0);
            System.out.printf(Locale.ROOT, "  group commit: %.1fx the single-thread rate, %d fsyncs for %d appends%n",
                    threaded / single, log.syncCount() - syncsBefore, threads * perThread);

            String middle = ids.get(records / 2);
            int reads = 2000;
            AtomicLong sink = new AtomicLong();
            t0 = System.nanoTime();
            for (int i = 0; i < reads; i++) {
                try (Stream<StorageRecord> s = log.stream(RecordQuery.all().after(ids.get(records / 2 + i)).limit(100))) {
                    sink.addAndGet(s.count());
                }
            }
            report("cursor read of 100 from the middle", reads, t0);

            long midMs = UuidV7.timestampMs(middle);
            t0 = System.nanoTime();
            long inRange = 0;
            for (int i = 0; i < 200; i++) {
                try (Stream<StorageRecord> s = log.stream(RecordQuery.all().timeRangeMs(midMs, midMs + 5))) {
                    inRange = s.count();
                }
            }
            report("time-range read (6 ms window, " + inRange + " records)", 200, t0);

            t0 = System.nanoTime();
            for (int i = 0; i < 1000; i++) {
                log.get(ids.get((i * 97) % records)).orElseThrow();
            }
            report("get by id", 1000, t0);

            for (int i = 0; i < records; i += 10) {
                sink.addAndGet(log.delete(ids.get(i)) ? 1 : 0);
            }
            t0 = System.nanoTime();
            log.compact();
            report("compact (after deleting every 10th record)", 1, t0);
            System.out.printf(Locale.ROOT, "  %s%n", log.stats().toMap());
        }
        t0 = System.nanoTime();
        try (SegmentedLog log = SegmentedLog.open(dir, "events", options)) {
            report("reopen with recovery scan (" + log.count() + " records)", 1, t0);
        }
        System.out.println("(sink " + ids.size() + ")");
    }

    private static double report(String what, long ops, long startNanos) {
        double seconds = (System.nanoTime() - startNanos) / 1e9;
        double rate = ops / seconds;
        if (ops == 1) {
            System.out.printf(Locale.ROOT, "%-48s %10.1f ms%n", what, seconds * 1000);
        } else {
            System.out.printf(Locale.ROOT, "%-48s %10.0f ops/s  (%.1f us/op)%n", what, rate, seconds * 1e6 / ops);
        }
        return rate;
    }

    private static void fsyncProbe(Path file, int n) throws IOException {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE)) {
            ByteBuffer line = ByteBuffer.allocate(100);
            long t0 = System.nanoTime();
            for (int i = 0; i < n; i++) {
                line.clear();
                ch.write(line, (long) i * 100);
                ch.force(false);
            }
            report("raw probe: 100-byte write + fdatasync", n, t0);
        }
    }

    private static void deleteTree(Path top) throws IOException {
        if (!Files.exists(top)) {
            return;
        }
        try (Stream<Path> walk = Files.walk(top)) {
            for (Path p : (Iterable<Path>) walk.sorted(Comparator.reverseOrder())::iterator) {
                Files.delete(p);
            }
        }
    }
}
