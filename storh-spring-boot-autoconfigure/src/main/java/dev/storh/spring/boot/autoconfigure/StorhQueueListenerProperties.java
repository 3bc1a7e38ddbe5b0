package dev.storh.spring.boot.autoconfigure;

import java.time.Duration;

import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Settings of the {@code @StorhListener} methods consuming one queue,
 * {@code storh.queues.<name>.listener}. An attribute set on the annotation wins over these.
 * Immutable, bound through its constructor.
 *
 * @param concurrency Consumer threads per listener, each claiming its own batches.
 * @param batchSize Most jobs a consumer claims at once (one fsync per claim and per completion
 *     batch).
 * @param maxAttempts Deliveries of a job before it moves to the dead-letter queue.
 * @param backoff Delay before the first retry of a failed job.
 * @param backoffMultiplier Factor applied to the delay for each further retry; 1 keeps it fixed.
 * @param maxBackoff Longest delay between two attempts.
 * @param shutdownTimeout How long a shutdown waits for the jobs in flight to finish before putting
 *     them back to pending. Keep it below spring.lifecycle.timeout-per-shutdown-phase (30s by
 *     default).
 * @param idleInterval Longest wait between two claims while the queue is empty; jobs enqueued
 *     through this application's Queue bean wake the consumers at once.
 * @param requeueInterval How often jobs claimed longer than the queue's processing-timeout ago (e.g.
 *     by a process that died) are put back to pending.
 * @param deadLetterQueue Queue receiving jobs whose last attempt failed; default {@code <name>.dead}.
 */
public record StorhQueueListenerProperties(@DefaultValue("1") int concurrency, @DefaultValue("10") int batchSize,
        @DefaultValue("3") int maxAttempts, @DefaultValue("1s") Duration backoff,
        @DefaultValue("2") double backoffMultiplier, @DefaultValue("5m") Duration maxBackoff,
        @DefaultValue("20s") Duration shutdownTimeout, @DefaultValue("1s") Duration idleInterval,
        @DefaultValue("30s") Duration requeueInterval, String deadLetterQueue) {

}
