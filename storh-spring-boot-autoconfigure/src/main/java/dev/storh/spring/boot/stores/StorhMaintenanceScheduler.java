package dev.storh.spring.boot.stores;

import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Function;
import java.util.function.Predicate;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.scheduling.concurrent.ThreadPoolTaskScheduler;
import org.springframework.util.Assert;

/**
 * Runs the routine upkeep of a {@link StorhStores} registry on its own thread
 * {@code storh-maintenance-1} (the application needs no {@code @EnableScheduling}), each task at
 * a fixed delay after the previous run ended:
 * <ul>
 * <li>{@link #applyRetention()}: every log with a retention deletes its expired records and
 * compacts ({@link LogStore#compact()});</li>
 * <li>{@link #requeueTimedOut()}: every queue puts claimed jobs older than its processing timeout
 * back to pending ({@code Queue.requeueTimedOut});</li>
 * <li>{@link #rollPartitions()}: every date-partitioned log moves to the partition of the
 * current date ({@link LogStore#rollIfDue()}).</li>
 * </ul>
 * A failure of one store is logged at WARN and does not stop the others or later runs. Started
 * and stopped with the application context; the public methods also run one pass on the calling
 * thread.
 */
public class StorhMaintenanceScheduler extends DaemonScheduledLifecycle {

    private static final Log logger = LogFactory.getLog(StorhMaintenanceScheduler.class);

    private final StorhStores stores;

    private final Duration retentionInterval;

    private final Duration requeueInterval;

    private final Duration partitionCheckInterval;

    /**
     * @param stores the stores to keep
     * @param retentionInterval time between retention runs
     * @param requeueInterval time between requeue passes
     * @param partitionCheckInterval time between partition checks
     */
    public StorhMaintenanceScheduler(StorhStores stores, Duration retentionInterval, Duration requeueInterval,
            Duration partitionCheckInterval) {
        super("storh-maintenance-");
        Assert.notNull(stores, "'stores' must not be null");
        Assert.isTrue(retentionInterval != null && positive(retentionInterval),
                "'retentionInterval' must be positive");
        Assert.isTrue(requeueInterval != null && positive(requeueInterval), "'requeueInterval' must be positive");
        Assert.isTrue(partitionCheckInterval != null && positive(partitionCheckInterval),
                "'partitionCheckInterval' must be positive");
        this.stores = stores;
        this.retentionInterval = retentionInterval;
        this.requeueInterval = requeueInterval;
        this.partitionCheckInterval = partitionCheckInterval;
    }

    /**
     * Applies the retention of every log that has one, now.
     * @return records deleted per log name, for the logs whose retention ran
     */
    public Map<String, Long> applyRetention() {
        return eachStore(LogStore.class, "retention of", (log) -> log.retentionDays() != null, (log) -> {
            long count = (log.compact().get("expired") instanceof Number deleted) ? deleted.longValue() : 0;
            if (count > 0) {
                logger.info("storh retention of " + log + ": " + count + " record(s) older than "
                        + log.retentionDays() + " days deleted");
            }
            return count;
        });
    }

    /**
     * Puts the timed-out claims of every queue back to pending, now.
     * @return jobs requeued per queue name
     */
    public Map<String, Integer> requeueTimedOut() {
        return eachStore(QueueStore.class, "requeue of", (queue) -> true, (queue) -> {
            int count = queue.queue().requeueTimedOut(queue.processingTimeout());
            if (count > 0) {
                logger.info("storh requeued " + count + " job(s) of " + queue + " claimed more than "
                        + queue.processingTimeout() + " ago");
            }
            return count;
        });
    }

    /**
     * Moves every date-partitioned log to the partition of the current date, now.
     * @return the number of logs that moved
     */
    public int rollPartitions() {
        Map<String, Boolean> rolled = eachStore(LogStore.class, "move to the next partition of", (log) -> true,
                LogStore::rollIfDue);
        return (int) rolled.values().stream().filter(Boolean::booleanValue).count();
    }

    /**
     * Runs a task on every store of a kind it applies to; a store whose task fails is logged at
     * WARN and left out of the result.
     * @return the task's result per store name, in the registry's order
     */
    private <S extends StorhStore, T> Map<String, T> eachStore(Class<S> kind, String task, Predicate<S> applies,
            Function<S, T> action) {
        Map<String, T> results = new LinkedHashMap<>();
        for (S store : this.stores.stores(kind)) {
            if (!applies.test(store)) {
                continue;
            }
            try {
                results.put(store.name(), action.apply(store));
            }
            catch (RuntimeException ex) {
                logger.warn("storh " + task + " " + store + " failed: " + ex.getMessage(), ex);
            }
        }
        return results;
    }

    @Override
    protected void schedule(ThreadPoolTaskScheduler scheduler) {
        Instant now = Instant.now();
        scheduler.scheduleWithFixedDelay(this::applyRetention, now.plus(this.retentionInterval),
                this.retentionInterval);
        scheduler.scheduleWithFixedDelay(this::requeueTimedOut, now.plus(this.requeueInterval), this.requeueInterval);
        scheduler.scheduleWithFixedDelay(this::rollPartitions, now.plus(this.partitionCheckInterval),
                this.partitionCheckInterval);
    }

    private static boolean positive(Duration interval) {
        return !interval.isNegative() && !interval.isZero();
    }

}
