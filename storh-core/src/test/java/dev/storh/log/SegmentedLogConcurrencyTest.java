package dev.storh.log;

import static org.assertj.core.api.Assertions.assertThat;

import dev.storh.StorageRecord;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Real threads on one instance: durable group-committed appends, readers meanwhile. */
class SegmentedLogConcurrencyTest {

    @TempDir
    Path root;

    @Test
    void sixteenThreadsAppendDurablyAndEveryReturnedAppendIsReadable() throws Exception {
        int threads = 16;
        int perThread = 150;
        SegmentedLogOptions options = SegmentedLogOptions.builder().maxSegmentBytes(16 * 1024).build();
        Map<String, Long> acknowledged = new ConcurrentHashMap<>();
        AtomicBoolean writing = new AtomicBoolean(true);
        List<Throwable> readerErrors = new ArrayList<>();
        ExecutorService pool = Executors.newFixedThreadPool(threads + 1);
        try (SegmentedLog log = SegmentedLog.open(root, "events", options)) {
            CountDownLatch start = new CountDownLatch(1);
            List<Future<?>> futures = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                long thread = t;
                futures.add(pool.submit(() -> {
                    start.await();
                    for (int i = 0; i < perThread; i++) {
                        long value = thread * 1000 + i;
                        StorageRecord r = log.put(Map.of("thread", thread, "value", value));
                        acknowledged.put(r.id(), value);
                        // durable and visible the moment put returns
                        assertThat(log.get(r.id()).orElseThrow().data().get("value")).isEqualTo(value);
                    }
                    return null;
                }));
            }
            Future<?> reader = pool.submit(() -> {
                start.await();
                while (writing.get()) {
                    try (Stream<StorageRecord> s = log.stream()) {
                        Set<String> seen = ConcurrentHashMap.newKeySet();
                        s.forEach(r -> assertThat(seen.add(r.id())).isTrue());
                    } catch (Throwable e) {
                        readerErrors.add(e);
                        throw e;
                    }
                }
                return null;
            });
            start.countDown();
            for (Future<?> f : futures) {
                f.get(60, TimeUnit.SECONDS);
            }
            writing.set(false);
            reader.get(60, TimeUnit.SECONDS);
            assertThat(readerErrors).isEmpty();
            assertThat(acknowledged).hasSize(threads * perThread);
            assertThat(log.count()).isEqualTo(threads * perThread);
            // group commit: far fewer fsyncs than appends
            assertThat(log.syncCount()).isLessThan(threads * perThread);
            assertThat(log.verify().ok()).isTrue();
        } finally {
            pool.shutdownNow();
        }
        try (SegmentedLog log = SegmentedLog.open(root, "events", options)) {
            assertThat(log.count()).isEqualTo(threads * perThread);
            acknowledged.forEach((id, value) -> assertThat(log.get(id).orElseThrow().data().get("value")).isEqualTo(value));
            assertThat(log.state().sealed.size()).isGreaterThan(3);
        }
    }

    @Test
    void readersKeepReadingWhileRebuildsAfterAnotherInstancesCompactionsReplaceTheirHandles() throws Exception {
        SegmentedLogOptions options = SegmentedLogOptions.builder().maxSegmentBytes(2048).build();
        int records = 200;
        List<Throwable> errors = java.util.Collections.synchronizedList(new ArrayList<>());
        AtomicBoolean running = new AtomicBoolean(true);
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try (SegmentedLog reader = SegmentedLog.open(root, "events", options);
                SegmentedLog compactor = SegmentedLog.open(root, "events", options)) {
            for (int i = 0; i < records; i++) {
                reader.put(Map.of("n", (long) i), LogTestSupport.id(i));
            }
            List<Future<?>> futures = new ArrayList<>();
            for (int t = 0; t < 4; t++) {
                int seed = t;
                futures.add(pool.submit(() -> {
                    java.util.Random r = new java.util.Random(seed);
                    while (running.get()) {
                        int n = r.nextInt(records);
                        try {
                            Map<String, Object> data = reader.get(LogTestSupport.id(n)).orElseThrow().data();
                            if (!data.equals(Map.of("n", (long) n))) {
                                errors.add(new AssertionError("record " + n + " read as " + data));
                            }
                        } catch (RuntimeException e) {
                            errors.add(e);
                        }
                    }
                }));
            }
            for (int round = 0; round < 6; round++) {
                compactor.put(Map.of("round", (long) round), LogTestSupport.id(1000 + round));
                compactor.compact(); // the reader's next call rebuilds and drops its read handles
                Thread.sleep(20);
            }
            running.set(false);
            for (Future<?> f : futures) {
                f.get(60, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
        }
        assertThat(errors).isEmpty();
    }
}
