package dev.storh.queue;

import static org.assertj.core.api.Assertions.assertThat;

import dev.storh.StorageRecord;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Real threads on one instance and on two instances of one queue (group commit, at-most-once claims). */
class QueueConcurrencyTest {

    @TempDir
    Path root;

    @Test
    void producersAndWorkersOnTwoInstancesHandEveryJobOverExactlyOnce() throws Exception {
        int producers = 4;
        int perProducer = 500;
        int workers = 12;
        QueueOptions small = QueueOptions.builder().compactionThresholdBytes(32 * 1024).build();
        try (Queue a = Queue.open(root, "jobs", small); Queue b = Queue.open(root, "jobs", small)) {
            Set<String> enqueued = ConcurrentHashMap.newKeySet();
            Map<String, Integer> claimed = new ConcurrentHashMap<>();
            AtomicInteger producing = new AtomicInteger(producers);
            AtomicReference<Throwable> failure = new AtomicReference<>();
            CountDownLatch start = new CountDownLatch(1);
            List<Thread> threads = new ArrayList<>();
            for (int p = 0; p < producers; p++) {
                Queue q = p % 2 == 0 ? a : b;
                int producer = p;
                threads.add(new Thread(() -> {
                    try {
                        start.await();
                        for (int i = 0; i < perProducer; i++) {
                            enqueued.add(q.enqueue(Map.of("p", (long) producer, "i", (long) i)));
                        }
                    } catch (Throwable e) {
                        failure.compareAndSet(null, e);
                    } finally {
                        producing.decrementAndGet();
                    }
                }));
            }
            for (int w = 0; w < workers; w++) {
                Queue q = w % 2 == 0 ? a : b;
                threads.add(new Thread(() -> {
                    try {
                        start.await();
                        while (true) {
                            Optional<StorageRecord> job = q.claim();
                            if (job.isEmpty()) {
                                if (producing.get() == 0 && q.counts().pending() == 0) {
                                    return;
                                }
                                Thread.onSpinWait();
                                continue;
                            }
                            claimed.merge(job.get().id(), 1, Integer::sum);
                            q.complete(job.get().id(), false);
                        }
                    } catch (Throwable e) {
                        failure.compareAndSet(null, e);
                    }
                }));
            }
            threads.forEach(Thread::start);
            start.countDown();
            for (Thread t : threads) {
                t.join(60_000);
            }
            assertThat(failure.get()).isNull();
            assertThat(enqueued).hasSize(producers * perProducer);
            assertThat(claimed.keySet()).isEqualTo(enqueued);
            assertThat(claimed.values()).allMatch(n -> n == 1);
            assertThat(a.counts()).isEqualTo(new QueueCounts(0, 0, 0));
            assertThat(b.verify().ok()).isTrue();
            assertThat(a.stats().bytes()).as("compaction kept the log small").isLessThan(64 * 1024);
        }
    }

    @Test
    void concurrentClaimManyCallsNeverShareAJob() throws Exception {
        try (Queue q = Queue.open(root, "jobs")) {
            List<Map<String, Object>> jobs = new ArrayList<>();
            for (int i = 0; i < 2_000; i++) {
                jobs.add(Map.of("i", (long) i));
            }
            List<String> ids = q.enqueueMany(jobs);
            Map<String, Integer> seen = new ConcurrentHashMap<>();
            List<Thread> threads = new ArrayList<>();
            for (int t = 0; t < 8; t++) {
                threads.add(new Thread(() -> {
                    for (List<StorageRecord> batch = q.claimMany(7); !batch.isEmpty(); batch = q.claimMany(7)) {
                        batch.forEach(r -> seen.merge(r.id(), 1, Integer::sum));
                        assertThat(q.completeMany(batch.stream().map(StorageRecord::id).toList())).isEqualTo(batch.size());
                    }
                }));
            }
            threads.forEach(Thread::start);
            for (Thread t : threads) {
                t.join(60_000);
            }
            assertThat(seen.keySet()).containsExactlyInAnyOrderElementsOf(ids);
            assertThat(seen.values()).allMatch(n -> n == 1);
            assertThat(q.counts()).isEqualTo(new QueueCounts(0, 0, 2_000));
        }
    }
}
