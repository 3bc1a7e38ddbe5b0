package dev.storh.cache;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The memory caches do their upkeep (eviction, buffer drains) on the thread that reads or writes,
 * never on a pool thread: a cache read then costs no wake-up of another thread, and a put over the
 * budget has evicted before it returns. Checked with every common-pool worker held busy, so upkeep
 * handed to the pool could not have run yet.
 */
class MemoryCacheMaintenanceTest {

    @Test
    void anEntryCountCacheHasEvictedBeforePutReturnsWithThePoolBusy() throws Exception {
        assertEvictsOnCallersThread(Cache.memory(3));
    }

    @Test
    void anEntryAndByteBudgetCacheHasEvictedBeforePutReturnsWithThePoolBusy() throws Exception {
        // 3 entries of at least 1,000 bytes' weight each: a budget of 3,000 bytes holds 3.
        assertEvictsOnCallersThread(Cache.memory(3, 3_000));
    }

    private static void assertEvictsOnCallersThread(Cache cache) throws Exception {
        ForkJoinPool pool = ForkJoinPool.commonPool();
        int workers = Math.max(1, pool.getParallelism());
        CountDownLatch started = new CountDownLatch(workers);
        CountDownLatch release = new CountDownLatch(1);
        List<Future<?>> busy = new ArrayList<>();
        for (int i = 0; i < workers; i++) {
            busy.add(pool.submit(() -> {
                started.countDown();
                try {
                    release.await(30, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }));
        }
        try {
            assertThat(started.await(30, TimeUnit.SECONDS)).as("every common-pool worker busy").isTrue();
            int keys = 40;
            for (int i = 0; i < keys; i++) {
                cache.put("root\0" + i, CachedRecord.MISSING);
            }
            int present = 0;
            for (int i = 0; i < keys; i++) {
                present += cache.get("root\0" + i).isPresent() ? 1 : 0;
            }
            // Upkeep left to the (busy) pool would leave all 40 in place until a worker is free.
            assertThat(present).as("entries still present right after 40 puts into a cache of 3").isLessThanOrEqualTo(3);
        } finally {
            release.countDown();
            for (Future<?> f : busy) {
                f.get(30, TimeUnit.SECONDS);
            }
        }
    }
}
