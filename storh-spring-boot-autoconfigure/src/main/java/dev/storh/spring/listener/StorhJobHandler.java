package dev.storh.spring.listener;

import dev.storh.queue.QueueJob;

/**
 * What a {@link StorhListenerContainer} does with each job: returning completes the job, throwing
 * fails the attempt. A {@link StorhListener} method is adapted to this; containers built by hand
 * take any implementation. Called by several consumer threads at once when the container's
 * concurrency is above 1.
 */
@FunctionalInterface
public interface StorhJobHandler {

    /**
     * @param job the claimed job
     * @throws Throwable any failure; a {@link StorhListenerPayloadException} dead-letters at once
     */
    void handle(QueueJob job) throws Throwable;

}
