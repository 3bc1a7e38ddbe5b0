package dev.storh.spring.boot.autoconfigure;

import java.time.Duration;

/**
 * Settings of the {@code @StorhListener} methods consuming one queue,
 * {@code storh.queues.<name>.listener}. An attribute set on the annotation wins over these.
 */
public class StorhQueueListenerProperties {

    /**
     * Consumer threads per listener, each claiming its own batches.
     */
    private int concurrency = 1;

    /**
     * Most jobs a consumer claims at once (one fsync per claim and per completion batch).
     */
    private int batchSize = 10;

    /**
     * Deliveries of a job before it moves to the dead-letter queue.
     */
    private int maxAttempts = 3;

    /**
     * Delay before the first retry of a failed job.
     */
    private Duration backoff = Duration.ofSeconds(1);

    /**
     * Factor applied to the delay for each further retry; 1 keeps it fixed.
     */
    private double backoffMultiplier = 2.0;

    /**
     * Longest delay between two attempts.
     */
    private Duration maxBackoff = Duration.ofMinutes(5);

    /**
     * How long a shutdown waits for the jobs in flight to finish before putting them back to
     * pending. Keep it below spring.lifecycle.timeout-per-shutdown-phase (30s by default).
     */
    private Duration shutdownTimeout = Duration.ofSeconds(20);

    /**
     * Longest wait between two claims while the queue is empty; jobs enqueued through this
     * application's Queue bean wake the consumers at once.
     */
    private Duration idleInterval = Duration.ofSeconds(1);

    /**
     * How often jobs claimed longer than the queue's processing-timeout ago (e.g. by a process
     * that died) are put back to pending.
     */
    private Duration requeueInterval = Duration.ofSeconds(30);

    /**
     * Queue receiving jobs whose last attempt failed; default '<name>.dead'.
     */
    private String deadLetterQueue;

    public int getConcurrency() {
        return this.concurrency;
    }

    public void setConcurrency(int concurrency) {
        this.concurrency = concurrency;
    }

    public int getBatchSize() {
        return this.batchSize;
    }

    public void setBatchSize(int batchSize) {
        this.batchSize = batchSize;
    }

    public int getMaxAttempts() {
        return this.maxAttempts;
    }

    public void setMaxAttempts(int maxAttempts) {
        this.maxAttempts = maxAttempts;
    }

    public Duration getBackoff() {
        return this.backoff;
    }

    public void setBackoff(Duration backoff) {
        this.backoff = backoff;
    }

    public double getBackoffMultiplier() {
        return this.backoffMultiplier;
    }

    public void setBackoffMultiplier(double backoffMultiplier) {
        this.backoffMultiplier = backoffMultiplier;
    }

    public Duration getMaxBackoff() {
        return this.maxBackoff;
    }

    public void setMaxBackoff(Duration maxBackoff) {
        this.maxBackoff = maxBackoff;
    }

    public Duration getShutdownTimeout() {
        return this.shutdownTimeout;
    }

    public void setShutdownTimeout(Duration shutdownTimeout) {
        this.shutdownTimeout = shutdownTimeout;
    }

    public Duration getIdleInterval() {
        return this.idleInterval;
    }

    public void setIdleInterval(Duration idleInterval) {
        this.idleInterval = idleInterval;
    }

    public Duration getRequeueInterval() {
        return this.requeueInterval;
    }

    public void setRequeueInterval(Duration requeueInterval) {
        this.requeueInterval = requeueInterval;
    }

    public String getDeadLetterQueue() {
        return this.deadLetterQueue;
    }

    public void setDeadLetterQueue(String deadLetterQueue) {
        this.deadLetterQueue = deadLetterQueue;
    }

}
