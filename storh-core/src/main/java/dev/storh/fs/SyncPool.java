package dev.storh.fs;

import dev.storh.StorageException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/**
 * A few daemon threads that run file writes and fsyncs side by side, so that the file system
 * merges their journal commits: {@code n} fsyncs from four threads cost far less than {@code n}
 * in a row. Shared by every store of the JVM; thread-safe.
 */
public final class SyncPool {

    /** How many fsyncs run at once. */
    public static final int THREADS = Math.max(2, Math.min(4, Runtime.getRuntime().availableProcessors() * 2));

    private static final AtomicInteger THREAD_NUMBER = new AtomicInteger();
    private static final ThreadLocal<Boolean> POOL_THREAD = ThreadLocal.withInitial(() -> false);
    private static final ExecutorService POOL = Executors.newFixedThreadPool(THREADS, r -> {
        Thread t = new Thread(() -> {
            POOL_THREAD.set(true);
            r.run();
        }, "storh-fsync-" + THREAD_NUMBER.incrementAndGet());
        t.setDaemon(true);
        return t;
    });

    private SyncPool() {
    }

    /**
     * Runs {@code action} on every item, spread over the pool's threads (the caller's thread runs
     * alone when there is one item, or when it is itself one of the pool's threads: a nested call
     * never waits for the threads it occupies), and returns when every run ended.
     *
     * @param <T> the item type
     * @param items what to run the action on
     * @param action the write or fsync of one item; throws a {@link StorageException} naming it
     * @throws StorageException the first failure, after every run ended (the other items ran)
     */
    public static <T> void forEach(List<T> items, Consumer<T> action) {
        if (items.size() <= 1 || POOL_THREAD.get()) {
            runAll(items, 0, 1, action);
            return;
        }
        int slices = Math.min(THREADS, items.size());
        List<Future<?>> futures = new ArrayList<>(slices);
        for (int s = 0; s < slices; s++) {
            int slice = s;
            futures.add(POOL.submit(() -> {
                runAll(items, slice, slices, action);
                return null;
            }));
        }
        StorageException failure = null;
        boolean interrupted = false;
        for (Future<?> f : futures) {
            while (true) { // every run ends before the caller goes on (it may remove what they write)
                try {
                    f.get();
                    break;
                } catch (ExecutionException e) {
                    if (failure == null) {
                        failure = e.getCause() instanceof StorageException se ? se
                                : new StorageException("Could not write storage files", e.getCause());
                    }
                    break;
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
        if (failure != null) {
            throw failure;
        }
    }

    /** Runs the action on items {@code from}, {@code from + step}, ...; throws the first failure after the rest ran. */
    private static <T> void runAll(List<T> items, int from, int step, Consumer<T> action) {
        RuntimeException first = null;
        for (int i = from; i < items.size(); i += step) {
            try {
                action.accept(items.get(i));
            } catch (RuntimeException e) {
                first = first == null ? e : first;
            }
        }
        if (first != null) {
            throw first;
        }
    }
}
