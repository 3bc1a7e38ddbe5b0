package dev.storh.spring.listener;

import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Supplier;

import dev.storh.queue.Queue;
import dev.storh.queue.QueueJob;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

/**
 * What happens after a handler ran for one container: counting, telling the observers, and for
 * a failed attempt the retry with back-off or, after the last attempt (or a payload that cannot
 * be converted), the dead letter ({@code {"job", "error": {"class", "message"}, "attempts",
 * "queue", "listener", "failedAt"}} under the job's id) followed by completing the job in its
 * queue. An observer that throws is logged and does not stop the others. Thread-safe: consumer
 * threads report concurrently.
 */
final class StorhListenerOutcomes {

    private static final Log logger = LogFactory.getLog(StorhListenerContainer.class);

    private static final int MAX_ERROR_MESSAGE = 4000;

    private final StorhListenerContainer container;

    private final Supplier<Queue> deadLetterQueue;

    private final List<StorhListenerObserver> observers = new CopyOnWriteArrayList<>();

    private final LongAdder processed = new LongAdder();

    private final LongAdder failed = new LongAdder();

    private final LongAdder retried = new LongAdder();

    private final LongAdder deadLettered = new LongAdder();

    StorhListenerOutcomes(StorhListenerContainer container, Supplier<Queue> deadLetterQueue) {
        this.container = container;
        this.deadLetterQueue = deadLetterQueue;
    }

    void addObserver(StorhListenerObserver observer) {
        this.observers.add(observer);
    }

    long processed() {
        return this.processed.sum();
    }

    long failed() {
        return this.failed.sum();
    }

    long retried() {
        return this.retried.sum();
    }

    long deadLettered() {
        return this.deadLettered.sum();
    }

    void processed(QueueJob job, Duration duration) {
        this.processed.increment();
        for (StorhListenerObserver observer : this.observers) {
            observe(() -> observer.processed(this.container, job, duration));
        }
    }

    /** One attempt failed: retry with back-off, or dead-letter after the last attempt. */
    void failed(QueueJob job, Duration duration, Throwable error) {
        this.failed.increment();
        for (StorhListenerObserver observer : this.observers) {
            observe(() -> observer.failed(this.container, job, duration, error));
        }
        StorhListenerSettings settings = this.container.getSettings();
        Queue queue = this.container.getQueue();
        String id = this.container.getId();
        boolean last = error instanceof StorhListenerPayloadException || job.attempts() >= settings.maxAttempts();
        try {
            if (!last) {
                Duration delay = settings.backoffAfter(job.attempts());
                logger.debug("storh listener '" + id + "': job " + job.id() + " failed attempt " + job.attempts()
                        + " of " + settings.maxAttempts() + "; retrying in " + delay, error);
                queue.retry(job.id(), delay);
                this.retried.increment();
                for (StorhListenerObserver observer : this.observers) {
                    observe(() -> observer.retried(this.container, job, delay));
                }
            }
            else {
                logger.warn("storh listener '" + id + "': job " + job.id() + " failed attempt " + job.attempts()
                        + "; moving it to queue '" + this.container.getDeadLetterQueueName() + "'", error);
                this.deadLetterQueue.get().enqueue(deadLetter(job, error), job.id());
                queue.complete(job.id(), false);
                this.deadLettered.increment();
                for (StorhListenerObserver observer : this.observers) {
                    observe(() -> observer.deadLettered(this.container, job, error));
                }
            }
        }
        catch (RuntimeException ex) {
            logger.error("storh listener '" + id + "' could not " + (last ? "dead-letter" : "retry") + " job "
                    + job.id() + "; it stays processing until requeued after the processing timeout", ex);
        }
    }

    private Map<String, Object> deadLetter(QueueJob job, Throwable error) {
        Map<String, Object> cause = new LinkedHashMap<>();
        cause.put("class", error.getClass().getName());
        String message = String.valueOf(error.getMessage());
        cause.put("message", (message.length() > MAX_ERROR_MESSAGE) ? message.substring(0, MAX_ERROR_MESSAGE) : message);
        Map<String, Object> letter = new LinkedHashMap<>();
        letter.put("job", job.payload());
        letter.put("error", cause);
        letter.put("attempts", (long) job.attempts());
        letter.put("queue", this.container.getQueueName());
        letter.put("listener", this.container.getId());
        letter.put("failedAt", Instant.now().toString());
        return letter;
    }

    private void observe(Runnable call) {
        try {
            call.run();
        }
        catch (RuntimeException ex) {
            logger.warn("storh listener observer failed for '" + this.container.getId() + "'", ex);
        }
    }

}
