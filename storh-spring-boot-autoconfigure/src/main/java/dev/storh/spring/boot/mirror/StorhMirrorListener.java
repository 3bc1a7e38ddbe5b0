package dev.storh.spring.boot.mirror;

import java.time.Duration;

import dev.storh.mirror.FlushResult;
import dev.storh.mirror.PushResult;

/**
 * Told about every push and flush of a {@link StorhMirror} (e.g. to time them); called on the
 * thread that ran the operation, after it ended. Implementations must be thread-safe and fast.
 */
public interface StorhMirrorListener {

    /**
     * @param collection the collection pushed, or {@code null} for all
     * @param duration how long the push took
     * @param result the counters, or {@code null} when it failed
     * @param failure the failure, or {@code null}
     */
    default void pushed(String collection, Duration duration, PushResult result, Throwable failure) {
    }

    /**
     * @param collection the collection flushed
     * @param duration how long the flush took
     * @param result the counters, or {@code null} when it failed
     * @param failure the failure, or {@code null}
     */
    default void flushed(String collection, Duration duration, FlushResult result, Throwable failure) {
    }

}
