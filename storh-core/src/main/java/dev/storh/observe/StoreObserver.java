package dev.storh.observe;

import dev.storh.store.StoreKind;

/**
 * Told how long each data operation of a store and each fsync under it took. Set on a store's
 * options ({@code StoreOptions.Builder.observer}); {@link #NONE} by default, which the engines
 * recognise and then skip the clock reads altogether.
 * <p>
 * Implementations are called from every thread that uses the store, after the operation, on that
 * thread: they must be thread-safe and quick, and should not throw (an exception they throw
 * reaches the caller of the store operation, after the operation finished).
 */
public interface StoreObserver {

    /** Observes nothing; the engines test for it and time nothing. */
    StoreObserver NONE = new StoreObserver() {
        @Override
        public void operation(StoreKind kind, String store, StoreOperation operation, boolean success, long nanos) {
        }

        @Override
        public void fsync(String store, boolean directory, long nanos) {
        }
    };

    /**
     * @param kind the engine
     * @param store the store's name (collection, log path or queue name)
     * @param operation what ran
     * @param success false when it threw
     * @param nanos how long it took, in nanoseconds of {@link System#nanoTime()}
     */
    void operation(StoreKind kind, String store, StoreOperation operation, boolean success, long nanos);

    /**
     * @param store the name of the store folder the synced file or folder is in
     * @param directory true for a folder fsync, false for a file's
     * @param nanos how long the fsync took, in nanoseconds; failed fsyncs are not reported
     */
    void fsync(String store, boolean directory, long nanos);
}
