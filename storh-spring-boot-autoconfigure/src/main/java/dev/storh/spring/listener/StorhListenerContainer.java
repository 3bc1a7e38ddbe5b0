package dev.storh.spring.listener;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

import dev.storh.queue.Queue;
import dev.storh.queue.QueueJob;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.context.SmartLifecycle;
import org.springframework.util.Assert;

/**
 * Consumes one storh queue with a {@link StorhJobHandler} (usually a {@link StorhListener}
 * method): {@code concurrency} consumer threads each claim up to {@code batchSize} jobs with one
 * fsync, run the handler on each in order, then complete the successes with one fsync.
 * <ul>
 * <li><b>Waiting.</b> An empty claim waits 10 ms, doubling up to {@code idleInterval}; an
 * enqueue through the same {@code Queue} instance wakes the consumers at once (jobs other
 * processes enqueue are found by the next claim).</li>
 * <li><b>Failures.</b> A handler that throws fails the attempt: the job goes back to pending,
 * claimable again after {@link StorhListenerSettings#backoffAfter back-off} ({@link Queue#retry});
 * once {@code maxAttempts} deliveries failed, or at once when the payload cannot be converted, it
 * moves to the dead-letter queue (default {@code <queue>.dead}) as {@code {"job": <payload>,
 * "error": {"class": ..., "message": ...}, "attempts": n, "queue": ..., "listener": ...,
 * "failedAt": <ISO-8601>}} under the same id, then is completed (not kept as done) in its queue.
 * Attempts are counted by the queue's claim events, so they survive restarts.</li>
 * <li><b>Lost claims.</b> At start and every {@code requeueInterval}, jobs claimed longer than
 * {@code processingTimeout} ago (e.g. by a process that was killed) are requeued
 * ({@link Queue#requeueTimedOut}). Delivery is therefore at least once: a job whose process died
 * after the handler ran is delivered again. A job is completed at most once.</li>
 * <li><b>Lifecycle</b> ({@link SmartLifecycle}). {@link #stop()} lets each consumer finish the job
 * it is running, gives back the jobs it claimed but did not start ({@link Queue#release}: their
 * attempt does not count), completes the successes and waits up to {@code shutdownTimeout} for
 * that. A consumer still busy after the timeout has its jobs settled for it: successes completed,
 * unstarted jobs released, the running job requeued; its thread is left to finish (threads are
 * daemons and are never interrupted, which would close the queue's file channel), and its late
 * result is ignored. {@link #pause()} lets consumers finish the batch they are running and stop
 * claiming until {@link #resume()}; a claim that returns after the pause gives its jobs back
 * untouched, so nothing enqueued after the pause is handled before the resume.</li>
 * </ul>
 * Thread-safe. Counters ({@link #getProcessed()}, ...) count since construction.
 */
public class StorhListenerContainer implements SmartLifecycle {

    /** The phase of listener containers: started late, stopped early. */
    public static final int DEFAULT_PHASE = Integer.MAX_VALUE - 100;

    private static final Log logger = LogFactory.getLog(StorhListenerContainer.class);

    private final String id;

    private final String queueName;

    private final Queue queue;

    private final StorhJobHandler handler;

    private final StorhListenerSettings settings;

    private final StorhListenerOutcomes outcomes;

    private final Object lifecycleMonitor = new Object();

    private final Object signal = new Object();

    private final Runnable wakeUp = this::wakeUp;

    private long signals;

    private volatile boolean running;

    private volatile boolean paused;

    private volatile boolean autoStartup = true;

    private volatile List<StorhListenerConsumer> consumers = List.of();

    private volatile List<Thread> threads = List.of();

    private ScheduledExecutorService janitor;

    /**
     * @param id the container id, unique in the application
     * @param queueName the queue's name (meters, health, dead letters)
     * @param queue the queue to consume
     * @param deadLetterQueue opens the dead-letter queue on first use
     * @param handler what to do with each job
     * @param settings how to consume
     */
    public StorhListenerContainer(String id, String queueName, Queue queue, Supplier<Queue> deadLetterQueue,
            StorhJobHandler handler, StorhListenerSettings settings) {
        Assert.hasText(id, "'id' must not be empty");
        Assert.hasText(queueName, "'queueName' must not be empty");
        Assert.notNull(queue, "'queue' must not be null");
        Assert.notNull(deadLetterQueue, "'deadLetterQueue' must not be null");
        Assert.notNull(handler, "'handler' must not be null");
        Assert.notNull(settings, "'settings' must not be null");
        this.id = id;
        this.queueName = queueName;
        this.queue = queue;
        this.handler = handler;
        this.settings = settings;
        this.outcomes = new StorhListenerOutcomes(this, deadLetterQueue);
    }

    // ------------------------------------------------------------------ lifecycle

    @Override
    public void start() {
        synchronized (this.lifecycleMonitor) {
            if (this.running) {
                return;
            }
            this.running = true;
            this.queue.addEnqueueListener(this.wakeUp);
            this.janitor = Executors.newSingleThreadScheduledExecutor((task) -> daemon(task, this.id + "-requeue"));
            this.janitor.scheduleWithFixedDelay(this::requeueTimedOut, 0, this.settings.requeueInterval().toMillis(),
                    TimeUnit.MILLISECONDS);
            List<StorhListenerConsumer> started = new ArrayList<>();
            List<Thread> startedThreads = new ArrayList<>();
            for (int i = 0; i < this.settings.concurrency(); i++) {
                StorhListenerConsumer consumer = new StorhListenerConsumer(this, this.queue, this.handler);
                Thread thread = daemon(consumer, this.id + "-" + i);
                started.add(consumer);
                startedThreads.add(thread);
            }
            this.consumers = List.copyOf(started);
            this.threads = List.copyOf(startedThreads);
            startedThreads.forEach(Thread::start);
            logger.debug("Started storh listener '" + this.id + "' on queue '" + this.queueName + "' with "
                    + this.settings.concurrency() + " consumers");
        }
    }

    /**
     * Stops gracefully, blocking up to {@code shutdownTimeout} (see the class comment).
     */
    @Override
    public void stop() {
        synchronized (this.lifecycleMonitor) {
            if (!this.running) {
                return;
            }
            this.running = false;
            wakeUp();
            this.janitor.shutdown();
            long deadline = System.nanoTime() + this.settings.shutdownTimeout().toNanos();
            for (Thread thread : this.threads) {
                long left = deadline - System.nanoTime();
                if (left > 0) {
                    try {
                        thread.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(left)));
                    }
                    catch (InterruptedException ex) {
                        Thread.currentThread().interrupt();
                        break;
                    }
                }
            }
            List<StorhListenerConsumer> consumers = this.consumers;
            List<Thread> threads = this.threads;
            for (int i = 0; i < threads.size(); i++) {
                if (threads.get(i).isAlive()) {
                    int held = consumers.get(i).inFlight();
                    logger.warn("storh listener '" + this.id + "': consumer " + threads.get(i).getName()
                            + " still busy after the shutdown timeout of " + this.settings.shutdownTimeout()
                            + "; settling its " + held + " jobs for it (the running one goes back to pending)");
                    consumers.get(i).abandon();
                }
            }
            this.queue.removeEnqueueListener(this.wakeUp);
        }
    }

    /**
     * Stops on another thread, so that several containers stop at once, then runs the callback.
     * @param callback run when stopped
     */
    @Override
    public void stop(Runnable callback) {
        Thread stopper = daemon(() -> {
            try {
                stop();
            }
            finally {
                callback.run();
            }
        }, this.id + "-stop");
        stopper.start();
    }

    @Override
    public boolean isRunning() {
        return this.running;
    }

    @Override
    public boolean isAutoStartup() {
        return this.autoStartup;
    }

    /**
     * @param autoStartup whether the registry starts this container with the context
     */
    public void setAutoStartup(boolean autoStartup) {
        this.autoStartup = autoStartup;
    }

    @Override
    public int getPhase() {
        return DEFAULT_PHASE;
    }

    /**
     * Consumers finish the batch they are running, then claim nothing until {@link #resume()}
     * (a claim under way gives its jobs back untouched). On a stopped container, it stays paused
     * when started.
     */
    public void pause() {
        this.paused = true;
    }

    /**
     * Lets paused consumers claim again, at once.
     */
    public void resume() {
        this.paused = false;
        wakeUp();
    }

    /**
     * @return whether a pause was asked for and not resumed
     */
    public boolean isPaused() {
        return this.paused;
    }

    // ------------------------------------------------------------------ state

    /**
     * @return the container id
     */
    public String getId() {
        return this.id;
    }

    /**
     * @return the consumed queue's name
     */
    public String getQueueName() {
        return this.queueName;
    }

    /**
     * @return the consumed queue
     */
    public Queue getQueue() {
        return this.queue;
    }

    /**
     * @return the dead-letter queue's name
     */
    public String getDeadLetterQueueName() {
        return this.settings.deadLetterQueueFor(this.queueName);
    }

    /**
     * @return how this container consumes
     */
    public StorhListenerSettings getSettings() {
        return this.settings;
    }

    /**
     * @return jobs whose handler returned
     */
    public long getProcessed() {
        return this.outcomes.processed();
    }

    /**
     * @return failed attempts (each followed by a retry or a dead letter)
     */
    public long getFailed() {
        return this.outcomes.failed();
    }

    /**
     * @return jobs put back to pending for another attempt
     */
    public long getRetried() {
        return this.outcomes.retried();
    }

    /**
     * @return jobs moved to the dead-letter queue
     */
    public long getDeadLettered() {
        return this.outcomes.deadLettered();
    }

    /**
     * @return jobs claimed by this container and not settled yet (completed, retried, released or
     * dead-lettered)
     */
    public int getInFlight() {
        int count = 0;
        for (StorhListenerConsumer consumer : this.consumers) {
            count += consumer.inFlight();
        }
        return count;
    }

    /**
     * @return consumer threads alive (while running: the concurrency, unless one died)
     */
    public int getActiveConsumers() {
        int alive = 0;
        for (Thread thread : this.threads) {
            if (thread.isAlive()) {
                alive++;
            }
        }
        return alive;
    }

    /**
     * @return consumers whose handler has been busy on one job for longer than the processing
     * timeout (its claim is then requeued to others: the consumer is stuck), by thread name
     */
    public Map<String, Duration> getStuckConsumers() {
        Map<String, Duration> stuck = new LinkedHashMap<>();
        List<StorhListenerConsumer> consumers = this.consumers;
        List<Thread> threads = this.threads;
        for (int i = 0; i < consumers.size(); i++) {
            Duration busy = consumers.get(i).busyFor();
            if (busy.compareTo(this.settings.processingTimeout()) > 0) {
                stuck.put(threads.get(i).getName(), busy);
            }
        }
        return stuck;
    }

    /**
     * @param observer told about every job from now on
     */
    public void addObserver(StorhListenerObserver observer) {
        Assert.notNull(observer, "'observer' must not be null");
        this.outcomes.addObserver(observer);
    }

    @Override
    public String toString() {
        return "StorhListenerContainer[" + this.id + " on queue '" + this.queueName + "']";
    }

    // ------------------------------------------------------------------ used by consumers

    long signals() {
        synchronized (this.signal) {
            return this.signals;
        }
    }

    /**
     * Waits until a wake-up after {@code seen}, a stop, or the timeout. An interrupt ends the wait
     * without keeping the interrupt flag (see {@link StorhListenerConsumer}).
     */
    void awaitSignal(long seen, long timeoutMs) {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
        synchronized (this.signal) {
            long left;
            while (this.signals == seen && this.running && (left = deadline - System.nanoTime()) > 0) {
                try {
                    TimeUnit.NANOSECONDS.timedWait(this.signal, left);
                }
                catch (InterruptedException ex) {
                    return;
                }
            }
        }
    }

    void processed(QueueJob job, Duration duration) {
        this.outcomes.processed(job, duration);
    }

    void failed(QueueJob job, Duration duration, Throwable error) {
        this.outcomes.failed(job, duration, error);
    }

    private void requeueTimedOut() {
        try {
            int requeued = this.queue.requeueTimedOut(this.settings.processingTimeout());
            if (requeued > 0) {
                logger.info("storh listener '" + this.id + "': requeued " + requeued + " jobs of queue '"
                        + this.queueName + "' claimed more than " + this.settings.processingTimeout() + " ago");
                wakeUp();
            }
        }
        catch (RuntimeException ex) {
            if (this.running) {
                logger.warn("storh listener '" + this.id + "' could not requeue timed-out jobs of queue '"
                        + this.queueName + "'", ex);
            }
        }
    }

    private void wakeUp() {
        synchronized (this.signal) {
            this.signals++;
            this.signal.notifyAll();
        }
    }

    private static Thread daemon(Runnable task, String name) {
        Thread thread = new Thread(task, name);
        thread.setDaemon(true);
        return thread;
    }

}
