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

    @Test
    void anErrorReachesEveryCallerOfTheBatchUnwrappedAndTheNextBatchStillRuns() throws Exception {
        OutOfMemoryError oom = new OutOfMemoryError("Java heap space (thrown by the test writer)");
        CyclicBarrier gathered = new CyclicBarrier(2);
        AtomicInteger calls = new AtomicInteger();
        GroupCommit<String> commit = new GroupCommit<>(batch -> {
            if (calls.incrementAndGet() == 1) {
                gathered.await(); // the second caller queues up behind this batch
                Thread.sleep(50);
                throw oom;
            }
            if (batch.contains("second")) {
                throw oom;
            }
        }, 10);
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            Future<Throwable> first = pool.submit(() -> caught(() -> commit.submit("first")));
            gathered.await();
            Future<Throwable> second = pool.submit(() -> caught(() -> commit.submit("second")));
            assertThat(first.get()).isSameAs(oom);
            assertThat(second.get()).as("a follower of a failed batch gets the Error itself").isSameAs(oom);
        } finally {
            pool.shutdownNow();
        }
        commit.submit("third");
        assertThat(calls.get()).isEqualTo(3);
    }

    @Test
    void aCheckedFailureIsWrappedWithItsCause() {
        java.io.IOException cause = new java.io.IOException("disk full");
        GroupCommit<String> commit = new GroupCommit<>(batch -> {
            throw cause;
        }, 10);
        assertThatThrownBy(() -> commit.submit("a")).isInstanceOf(StorageException.class).hasCause(cause);
    }

    private static Throwable caught(Runnable r) {
        try {
            r.run();
            return null;
        } catch (Throwable t) {
            return t;
        }
    }
}
