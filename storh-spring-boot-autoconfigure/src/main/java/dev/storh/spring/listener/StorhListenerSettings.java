package dev.storh.spring.listener;

import java.time.Duration;

import org.springframework.util.Assert;

/**
 * How one listener container consumes its queue. Immutable; {@link #defaults()} gives the
 * values used when neither the annotation nor {@code storh.queues.<queue>.listener.*} sets one.
 *
 * @param concurrency consumer threads, at least 1
 * @param batchSize the most jobs one claim takes, at least 1
 * @param maxAttempts deliveries of a job before it is dead-lettered, at least 1
 * @param backoff the delay before the first retry, not negative
 * @param backoffMultiplier the factor applied to the delay for each further attempt, at least 1
 * @param maxBackoff the longest delay between attempts, at least {@code backoff}
 * @param shutdownTimeout how long a stop waits for jobs in flight before requeueing them
 * @param idleInterval the longest wait between claims while the queue is empty (waits start at
 * 10 ms and double; a local enqueue ends them at once), positive
 * @param requeueInterval how often the container requeues jobs whose claim is older than
 * {@code processingTimeout} (crashed consumers' jobs), positive
 * @param processingTimeout the claim age past which a job counts as lost (and a consumer busy
 * with one job that long as stuck), positive
 * @param deadLetterQueue the dead-letter queue's name, or {@code null} for {@code <queue>.dead}
 */
public record StorhListenerSettings(int concurrency, int batchSize, int maxAttempts, Duration backoff,
        double backoffMultiplier, Duration maxBackoff, Duration shutdownTimeout, Duration idleInterval,
        Duration requeueInterval, Duration processingTimeout, String deadLetterQueue) {

    /**
     * @throws IllegalArgumentException naming the setting that is out of range
     */
    public StorhListenerSettings {
        Assert.isTrue(concurrency >= 1, () -> "concurrency must be at least 1, got " + concurrency);
        Assert.isTrue(batchSize >= 1, () -> "batch-size must be at least 1, got " + batchSize);
        Assert.isTrue(maxAttempts >= 1, () -> "max-attempts must be at least 1, got " + maxAttempts);
        Assert.isTrue(backoff != null && !backoff.isNegative(), () -> "backoff must not be negative, got " + backoff);
        Assert.isTrue(backoffMultiplier >= 1.0,
                () -> "backoff-multiplier must be at least 1, got " + backoffMultiplier);
        Assert.isTrue(maxBackoff != null && maxBackoff.compareTo(backoff) >= 0,
                () -> "max-backoff must be at least backoff (" + backoff + "), got " + maxBackoff);
        Assert.isTrue(shutdownTimeout != null && !shutdownTimeout.isNegative(),
                () -> "shutdown-timeout must not be negative, got " + shutdownTimeout);
        Assert.isTrue(positive(idleInterval), () -> "idle-interval must be positive, got " + idleInterval);
        Assert.isTrue(positive(requeueInterval), () -> "requeue-interval must be positive, got " + requeueInterval);
        Assert.isTrue(positive(processingTimeout),
                () -> "processing-timeout must be positive, got " + processingTimeout);
        Assert.isTrue(deadLetterQueue == null || !deadLetterQueue.isBlank(),
                "dead-letter-queue must not be blank");
    }

    /**
     * @return 1 thread, batches of 10, 3 attempts, back-off 1 s doubling up to 5 min, 20 s
     * shutdown timeout, idle waits up to 1 s, requeue every 30 s after a 1 h processing timeout,
     * dead letters to {@code <queue>.dead}
     */
    public static StorhListenerSettings defaults() {
        return new StorhListenerSettings(1, 10, 3, Duration.ofSeconds(1), 2.0, Duration.ofMinutes(5),
                Duration.ofSeconds(20), Duration.ofSeconds(1), Duration.ofSeconds(30), Duration.ofHours(1), null);
    }

    /**
     * @param queue the consumed queue's name
     * @return the dead-letter queue's name
     */
    public String deadLetterQueueFor(String queue) {
        return (this.deadLetterQueue != null) ? this.deadLetterQueue : queue + ".dead";
    }

    /**
     * @param failedAttempts the attempts made so far, at least 1
     * @return the delay before the next attempt: {@code backoff * multiplier^(failedAttempts-1)},
     * at most {@code maxBackoff}
     */
    public Duration backoffAfter(int failedAttempts) {
        double millis = this.backoff.toMillis() * Math.pow(this.backoffMultiplier, Math.max(0, failedAttempts - 1));
        return (millis >= this.maxBackoff.toMillis()) ? this.maxBackoff : Duration.ofMillis((long) millis);
    }

    StorhListenerSettings withConcurrency(int value) {
        return new StorhListenerSettings(value, this.batchSize, this.maxAttempts, this.backoff, this.backoffMultiplier,
                this.maxBackoff, this.shutdownTimeout, this.idleInterval, this.requeueInterval, this.processingTimeout,
                this.deadLetterQueue);
    }

    StorhListenerSettings withBatchSize(int value) {
        return new StorhListenerSettings(this.concurrency, value, this.maxAttempts, this.backoff, this.backoffMultiplier,
                this.maxBackoff, this.shutdownTimeout, this.idleInterval, this.requeueInterval, this.processingTimeout,
                this.deadLetterQueue);
    }

    StorhListenerSettings withMaxAttempts(int value) {
        return new StorhListenerSettings(this.concurrency, this.batchSize, value, this.backoff, this.backoffMultiplier,
                this.maxBackoff, this.shutdownTimeout, this.idleInterval, this.requeueInterval, this.processingTimeout,
                this.deadLetterQueue);
    }

    StorhListenerSettings withBackoff(Duration value) {
        Duration max = (this.maxBackoff.compareTo(value) < 0) ? value : this.maxBackoff;
        return new StorhListenerSettings(this.concurrency, this.batchSize, this.maxAttempts, value,
                this.backoffMultiplier, max, this.shutdownTimeout, this.idleInterval, this.requeueInterval,
                this.processingTimeout, this.deadLetterQueue);
    }

    StorhListenerSettings withDeadLetterQueue(String value) {
        return new StorhListenerSettings(this.concurrency, this.batchSize, this.maxAttempts, this.backoff,
                this.backoffMultiplier, this.maxBackoff, this.shutdownTimeout, this.idleInterval, this.requeueInterval,
                this.processingTimeout, value);
    }

    private static boolean positive(Duration duration) {
        return duration != null && !duration.isNegative() && !duration.isZero();
    }

}
