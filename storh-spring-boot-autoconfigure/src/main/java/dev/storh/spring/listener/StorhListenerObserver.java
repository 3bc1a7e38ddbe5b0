package dev.storh.spring.listener;

import java.time.Duration;

import dev.storh.queue.QueueJob;

/**
 * Told about every job a {@link StorhListenerContainer} handles, on the consumer's thread (keep it
 * short); e.g. the Micrometer meters. Every method has an empty default.
 */
public interface StorhListenerObserver {

    /**
     * The method returned; the job is completed with its batch.
     * @param container the container
     * @param job the job
     * @param duration how long the method ran
     */
    default void processed(StorhListenerContainer container, QueueJob job, Duration duration) {
    }

    /**
     * The method threw (or the payload could not be converted); {@link #retried} or
     * {@link #deadLettered} follows.
     * @param container the container
     * @param job the job
     * @param duration how long the method ran
     * @param error what it threw
     */
    default void failed(StorhListenerContainer container, QueueJob job, Duration duration, Throwable error) {
    }

    /**
     * The job went back to pending, to be delivered again after the delay.
     * @param container the container
     * @param job the job
     * @param delay the back-off
     */
    default void retried(StorhListenerContainer container, QueueJob job, Duration delay) {
    }

    /**
     * The job moved to the dead-letter queue.
     * @param container the container
     * @param job the job
     * @param error the last failure
     */
    default void deadLettered(StorhListenerContainer container, QueueJob job, Throwable error) {
    }

}
