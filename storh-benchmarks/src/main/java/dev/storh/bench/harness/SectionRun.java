package dev.storh.bench.harness;

import dev.storh.StorageRecord;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Function;
import java.util.function.IntConsumer;

/**
 * What a workload sees while it runs one section: the dataset size, the rows, a fresh temp folder
 * for its stores, the options, and the timer that records metrics into the run's {@link Results}.
 *
 * <p>The timer follows the original: {@link System#nanoTime()} around
 * one closure, the metric is the closure's wall time in seconds, everything outside is untimed
 * setup. Values a closure returns go to a sink, so the JIT cannot drop the work. Used from the
 * section's thread only; {@link #concurrently} starts its own threads and joins them.
 *
 * @param section the section name
 * @param n records per workload (the dataset size)
 * @param rows the records
 * @param dir a fresh, empty temp folder for this section's stores
 * @param options the run's options
 * @param results where metrics go
 */
public record SectionRun(String section, int n, Rows rows, Path dir, HarnessOptions options, Results results) {

    /** A timed piece of work. */
    @FunctionalInterface
    public interface Work {
        /**
         * @return any value the work produced (kept so it is not optimised away), or {@code null}
         * @throws Exception any failure, which fails the run
         */
        Object run() throws Exception;
    }

    /** One step of a timed loop. */
    @FunctionalInterface
    public interface Step {
        /**
         * @param i the step's index, from 0
         * @throws Exception any failure, which fails the run
         */
        void run(int i) throws Exception;
    }

    /** What the timed closures returned, hashed, so that the JIT cannot drop their work. */
    private static volatile int sink;

    /**
     * @return thread counts for the concurrent-write variants (empty: none)
     */
    public List<Integer> threads() {
        return options.threads();
    }

    /**
     * Times {@code work} and records it as {@code <section>.<metric>}.
     *
     * @param metric the metric name within the section
     * @param operations the operations the work performs (1 for one call)
     * @param work the work
     * @param <T> what the work returns
     * @return what the work returned
     * @throws Exception whatever the work threw
     */
    @SuppressWarnings("unchecked")
    public <T> T time(String metric, long operations, Work work) throws Exception {
        long start = System.nanoTime();
        Object value = work.run();
        long elapsed = System.nanoTime() - start;
        results.add(section, metric, elapsed / 1e9, operations);
        if (value != null) {
            sink += value.hashCode();
        }
        return (T) value;
    }

    /**
     * Times {@code step(0)} to {@code step(count - 1)}, one after the other on this thread, and
     * records the loop as {@code <section>.<metric>} with {@code count} operations.
     *
     * @param metric the metric name within the section
     * @param count the steps
     * @param step one step
     * @throws Exception whatever a step threw
     */
    public void timeEach(String metric, int count, Step step) throws Exception {
        time(metric, count, () -> {
            for (int i = 0; i < count; i++) {
                step.run(i);
            }
            return null;
        });
    }

    /**
     * Times {@code put} of every row, in order, and records it as {@code <section>.<metric>} with
     * {@code n} operations.
     *
     * @param metric the metric name within the section
     * @param put stores one row
     * @return the stored records' ids, in row order
     * @throws Exception whatever a put threw
     */
    public List<String> timePuts(String metric, Function<Map<String, Object>, StorageRecord> put) throws Exception {
        List<String> ids = new ArrayList<>(n);
        timeEach(metric, n, (i) -> ids.add(put.apply(rows.row(i)).id()));
        return ids;
    }

    /**
     * Runs {@code op(i)} for {@code i = 0..count-1} on {@code threads} threads (thread {@code t}
     * takes {@code t, t+threads, ...}), all released at once; returns when every call returned.
     * Only the calls are inside the caller's timer: threads start before and are released by a latch.
     *
     * @param threads threads, at least 1
     * @param count calls in all
     * @param op the call for one index; must be thread-safe
     * @return a timed work for {@link #time}
     */
    public static ConcurrentWork concurrently(int threads, int count, IntConsumer op) {
        return new ConcurrentWork(threads, count, op);
    }

    /** Threads started and waiting; {@link #run} releases them and waits for all. */
    public static final class ConcurrentWork implements Work, AutoCloseable {
        private final ExecutorService pool;
        private final CountDownLatch go = new CountDownLatch(1);
        private final List<Future<?>> futures = new ArrayList<>();

        private ConcurrentWork(int threads, int count, IntConsumer op) {
            pool = Executors.newFixedThreadPool(threads);
            CountDownLatch ready = new CountDownLatch(threads);
            for (int t = 0; t < threads; t++) {
                int first = t;
                futures.add(pool.submit(() -> {
                    ready.countDown();
                    go.await();
                    for (int i = first; i < count; i += threads) {
                        op.accept(i);
                    }
                    return null;
                }));
            }
            try {
                ready.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("Interrupted while starting threads", e);
            }
        }

        @Override
        public Object run() throws Exception {
            go.countDown();
            for (Future<?> f : futures) {
                f.get();
            }
            return null;
        }

        @Override
        public void close() {
            go.countDown();
            pool.shutdownNow();
        }
    }
}
