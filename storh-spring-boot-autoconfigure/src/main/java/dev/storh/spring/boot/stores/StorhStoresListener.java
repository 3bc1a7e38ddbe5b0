package dev.storh.spring.boot.stores;

import java.time.Duration;

/**
 * Told about the stores of a {@link StorhStores} registry and the maintenance operations run on
 * them; used by the metrics binder. Methods are called on the thread that caused the event and
 * must not block; every method does nothing by default.
 */
public interface StorhStoresListener {

    /**
     * A store was added to the registry. Called once per store, also for the stores already
     * present when the listener is added.
     * @param store the store
     */
    default void storeAdded(StorhStore store) {
    }

    /**
     * A maintenance operation finished.
     * @param store the store
     * @param operation {@code verify}, {@code repair}, {@code compact} or {@code reindex}
     * @param duration how long it took
     * @param failure the exception it threw, or {@code null} when it returned
     */
    default void operationCompleted(StorhStore store, String operation, Duration duration, Throwable failure) {
    }

    /**
     * A verify finished and its result is now the store's last verify.
     * @param store the store
     * @param result the result
     */
    default void verified(StorhStore store, VerifyResult result) {
    }

}
