package dev.storh.fs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.storh.StorageException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class GroupCommitTest {

    @Test
    void concurrentSubmitsShareBatchesAndEachReturnsAfterItsBatch() throws Exception {
        List<Integer> durable = Collections.synchronizedList(new ArrayList<>());
        AtomicInteger batches = new AtomicInteger();
        GroupCommit<Integer> commit = new GroupCommit<>(batch -> {
            batches.incrementAndGet();
            Thread.sleep(2); // a slow fsync lets followers gather
            durable.addAll(batch);
        }, 1000);
        int threads = 16;
        int perThread = 50;
        CyclicBarrier start = new CyclicBarrier(threads);
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        List<String> problems = Collections.synchronizedList(new ArrayList<>());
        try {
            List<Future<?>> futures = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int thread = t;
                futures.add(pool.submit(() -> {
                    start.await();
                    for (int i = 0; i < perThread; i++) {
                        int item = thread * 1000 + i;
                        commit.submit(item);
                        if (!durable.contains(item)) {
                            problems.add("returned before durable: " + item);
                        }
                    }
                    return null;
                }));
            }
            for (Future<?> f : futures) {
                f.get();
            }
        } finally {
            pool.shutdownNow();
        }
        assertThat(problems).isEmpty();
        assertThat(durable).hasSize(threads * perThread).doesNotHaveDuplicates();
        assertThat(batches.get()).isLessThan(threads * perThread / 2);
    }

    @Test
    void aFailedBatchFailsItsCallersAndLaterBatchesProceed() {
        AtomicInteger calls = new AtomicInteger();
        GroupCommit<String> commit = new GroupCommit<>(batch -> {
            if (calls.incrementAndGet() == 1) {
                throw new java.io.IOException("disk full");
            }
        }, 10);
        assertThatThrownBy(() -> commit.submit("a")).isInstanceOf(StorageException.class).hasMessageContaining("disk full");
        commit.submit("b");
        assertThat(calls.get()).isEqualTo(2);
    }
}
