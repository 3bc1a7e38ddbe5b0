package dev.storh.observe;

import java.util.function.Supplier;

import dev.storh.fs.StoreFiles;
import dev.storh.query.AroundQueryExecutor;
import dev.storh.query.QueryExecutor;
import dev.storh.store.StoreKind;

/**
 * What the engines call to report to a {@link StoreObserver}: one comparison, and nothing more,
 * when the observer is {@link StoreObserver#NONE}.
 */
public final class Observed {

    private Observed() {
    }

    /**
     * Runs an operation, timing it when someone observes.
     *
     * @param <T> the result type
     * @param observer the store's observer
     * @param kind the engine
     * @param store the store's name
     * @param operation what runs
     * @param action the operation; runs on the calling thread
     * @return its result
     */
    public static <T> T call(StoreObserver observer, StoreKind kind, String store, StoreOperation operation,
            Supplier<T> action) {
        if (observer == StoreObserver.NONE) {
            return action.get();
        }
        long start = System.nanoTime();
        boolean success = false;
        try {
            T result = action.get();
            success = true;
            return result;
        } finally {
            observer.operation(kind, store, operation, success, System.nanoTime() - start);
        }
    }

    /**
     * {@link #call} for an operation without a result.
     *
     * @param observer the store's observer
     * @param kind the engine
     * @param store the store's name
     * @param operation what runs
     * @param action the operation; runs on the calling thread
     */
    public static void run(StoreObserver observer, StoreKind kind, String store, StoreOperation operation,
            Runnable action) {
        if (observer == StoreObserver.NONE) {
            action.run();
            return;
        }
        call(observer, kind, store, operation, () -> {
            action.run();
            return null;
        });
    }

    /**
     * @param executor a store's query executor
     * @param observer the store's observer
     * @param kind the engine
     * @param store the store's name
     * @return the executor itself when nobody observes, else one timing each query it runs
     */
    public static QueryExecutor queries(QueryExecutor executor, StoreObserver observer, StoreKind kind, String store) {
        if (observer == StoreObserver.NONE) {
            return executor;
        }
        return new AroundQueryExecutor(executor, new ObservedQueries(observer, kind, store), AroundQueryExecutor.Around.DIRECT);
    }

    /**
     * @param files a store's byte seam
     * @param observer the store's observer
     * @return the seam itself when nobody observes, else one reporting each fsync's latency,
     *     tagged with the name of the seam's root folder
     */
    public static StoreFiles files(StoreFiles files, StoreObserver observer) {
        if (observer == StoreObserver.NONE) {
            return files;
        }
        return new ObservedFiles(files, observer);
    }
}
