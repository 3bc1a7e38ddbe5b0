package dev.storh.spring.listener;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import dev.storh.queue.Queue;
import dev.storh.queue.QueueJob;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

/**
 * One consumer thread of a {@link StorhListenerContainer}: claims a batch, hands each job to the
 * handler, then completes the batch's successes with one fsync and gives back the jobs it did not
 * start (when stopping).
 * <p>
 * Each job of the current batch is a {@link Delivery} whose state only moves forward by
 * compare-and-set, {@code CLAIMED → RUNNING → SUCCEEDED → SETTLED} (or straight to
 * {@code SETTLED}), so the consumer and a stop that timed out ({@link #abandon()}) never both
 * complete, retry or release the same job.
 * <p>
 * Consumer threads are never interrupted: an interrupt during file I/O would close the queue's
 * shared channel. A handler that leaves its thread's interrupt flag set has it cleared before the
 * next queue call.
 */
final class StorhListenerConsumer implements Runnable {

    private static final Log logger = LogFactory.getLog(StorhListenerConsumer.class);

    private static final long FIRST_IDLE_WAIT_MS = 10;

    static final int CLAIMED = 0;

    static final int RUNNING = 1;

    static final int SUCCEEDED = 2;

    static final int SETTLED = 3;

    /** One job of the current batch. */
    static final class Delivery {

        final QueueJob job;

        final AtomicInteger state = new AtomicInteger(CLAIMED);

        Delivery(QueueJob job) {
            this.job = job;
        }

        boolean move(int from, int to) {
            return this.state.compareAndSet(from, to);
        }

    }

    private final StorhListenerContainer container;

    private final Queue queue;

    private final StorhJobHandler handler;

    private volatile List<Delivery> batch = List.of();

    private volatile long busySinceNanos;

    private volatile long lastClaimNanos = System.nanoTime();

    StorhListenerConsumer(StorhListenerContainer container, Queue queue, StorhJobHandler handler) {
        this.container = container;
        this.queue = queue;
        this.handler = handler;
    }

    @Override
    public void run() {
        StorhListenerSettings settings = this.container.getSettings();
        long idleMax = settings.idleInterval().toMillis();
        long idleWait = FIRST_IDLE_WAIT_MS;
        while (this.container.isRunning()) {
            long seen = this.container.signals();
            if (this.container.isPaused()) {
                this.container.awaitSignal(seen, idleMax);
                continue;
            }
            List<QueueJob> jobs;
            try {
                Thread.interrupted();
                jobs = this.queue.claimJobs(settings.batchSize());
                this.lastClaimNanos = System.nanoTime();
            }
            catch (RuntimeException ex) {
                if (!this.container.isRunning()) {
                    break;
                }
                logger.warn("storh listener '" + this.container.getId() + "' could not claim from queue '"
                        + this.container.getQueueName() + "'; trying again in " + idleMax + " ms", ex);
                this.container.awaitSignal(seen, idleMax);
                continue;
            }
            if (jobs.isEmpty()) {
                this.container.awaitSignal(seen, idleWait);
                idleWait = Math.min(idleWait * 2, idleMax);
                continue;
            }
            idleWait = FIRST_IDLE_WAIT_MS;
            if (this.container.isPaused()) {
                // paused while claiming: give the batch back untouched
                release(jobs);
                continue;
            }
            process(jobs);
        }
    }

    private void process(List<QueueJob> jobs) {
        List<Delivery> deliveries = new ArrayList<>(jobs.size());
        jobs.forEach((job) -> deliveries.add(new Delivery(job)));
        this.batch = deliveries;
        for (Delivery delivery : deliveries) {
            if (!this.container.isRunning()) {
                break;
            }
            if (!delivery.move(CLAIMED, RUNNING)) {
                continue;
            }
            long start = System.nanoTime();
            this.busySinceNanos = start;
            Throwable failure = null;
            try {
                this.handler.handle(delivery.job);
            }
            catch (Throwable ex) {
                failure = ex;
            }
            finally {
                this.busySinceNanos = 0;
            }
            Thread.interrupted();
            Duration duration = Duration.ofNanos(System.nanoTime() - start);
            if (failure == null) {
                if (delivery.move(RUNNING, SUCCEEDED)) {
                    this.container.processed(delivery.job, duration);
                }
            }
            else if (delivery.move(RUNNING, SETTLED)) {
                this.container.failed(delivery.job, duration, failure);
            }
        }
        settle(deliveries, false);
        this.batch = List.of();
    }

    private void release(List<QueueJob> jobs) {
        try {
            this.queue.release(jobs.stream().map(QueueJob::id).toList());
        }
        catch (RuntimeException ex) {
            logger.warn("storh listener '" + this.container.getId() + "' could not give back " + jobs.size()
                    + " jobs claimed while pausing; they stay processing until requeued after the processing timeout",
                    ex);
        }
    }

    /**
     * Completes the batch's successes and releases the jobs not started; with {@code abandoning},
     * also puts the jobs still running back to pending (their attempt counted).
     */
    private void settle(List<Delivery> deliveries, boolean abandoning) {
        List<String> done = new ArrayList<>();
        List<String> unstarted = new ArrayList<>();
        List<String> running = new ArrayList<>();
        for (Delivery delivery : deliveries) {
            if (delivery.move(SUCCEEDED, SETTLED)) {
                done.add(delivery.job.id());
            }
            else if (delivery.move(CLAIMED, SETTLED)) {
                unstarted.add(delivery.job.id());
            }
            else if (abandoning && delivery.move(RUNNING, SETTLED)) {
                running.add(delivery.job.id());
            }
        }
        try {
            this.queue.completeMany(done);
            this.queue.release(unstarted);
            for (String id : running) {
                this.queue.retry(id, Duration.ZERO);
            }
        }
        catch (RuntimeException ex) {
            logger.warn("storh listener '" + this.container.getId() + "' could not settle " + deliveries.size()
                    + " jobs of queue '" + this.container.getQueueName()
                    + "'; they stay processing until requeued after the processing timeout", ex);
        }
    }

    /**
     * Settles what a consumer still holds when a stop timed out: successes are completed, jobs
     * not started are released, the job still running is requeued (the handler's late return is
     * then ignored).
     */
    void abandon() {
        settle(this.batch, true);
    }

    /**
     * @return jobs of the current batch not settled yet
     */
    int inFlight() {
        int count = 0;
        for (Delivery delivery : this.batch) {
            if (delivery.state.get() != SETTLED) {
                count++;
            }
        }
        return count;
    }

    /**
     * @return how long the handler has been running on its current job, or {@link Duration#ZERO}
     */
    Duration busyFor() {
        long since = this.busySinceNanos;
        return (since == 0) ? Duration.ZERO : Duration.ofNanos(System.nanoTime() - since);
    }

    /**
     * @return how long ago the last claim returned
     */
    Duration sinceLastClaim() {
        return Duration.ofNanos(System.nanoTime() - this.lastClaimNanos);
    }

}
