package dev.storh.spring.boot.autoconfigure;

import java.time.Duration;

/**
 * Routine upkeep that runs in the background on its own schedules, {@code storh.maintenance}:
 * log retention ({@code storh.logs.<name>.retention}), the requeue of claimed jobs past their
 * queue's {@code processing-timeout}, and the move of date-partitioned logs to the next
 * partition. Independent of {@code storh.verify}.
 */
public class StorhMaintenanceProperties {

    /**
     * Whether to run the upkeep tasks at all.
     */
    private boolean enabled = true;

    /**
     * Time between two retention runs over the logs that have a retention (each deletes records
     * older than the retention and compacts the log). The first run starts one interval after
     * startup.
     */
    private Duration retentionInterval = Duration.ofHours(1);

    /**
     * Time between two passes that put claimed jobs older than their queue's processing timeout
     * back to pending. The first pass starts one interval after startup.
     */
    private Duration requeueInterval = Duration.ofMinutes(1);

    /**
     * Time between two checks whether a date-partitioned log should move to a new partition
     * (writes through the log's bean also check, on every call).
     */
    private Duration partitionCheckInterval = Duration.ofMinutes(1);

    /**
     * @return whether the upkeep tasks run
     */
    public boolean isEnabled() {
        return this.enabled;
    }

    /**
     * @param enabled whether the upkeep tasks run
     */
    public void setEnabled(boolean enabled) {
        this.enabled = enabled;
    }

    /**
     * @return the time between retention runs
     */
    public Duration getRetentionInterval() {
        return this.retentionInterval;
    }

    /**
     * @param retentionInterval the time between retention runs
     */
    public void setRetentionInterval(Duration retentionInterval) {
        this.retentionInterval = retentionInterval;
    }

    /**
     * @return the time between requeue passes
     */
    public Duration getRequeueInterval() {
        return this.requeueInterval;
    }

    /**
     * @param requeueInterval the time between requeue passes
     */
    public void setRequeueInterval(Duration requeueInterval) {
        this.requeueInterval = requeueInterval;
    }

    /**
     * @return the time between partition checks
     */
    public Duration getPartitionCheckInterval() {
        return this.partitionCheckInterval;
    }

    /**
     * @param partitionCheckInterval the time between partition checks
     */
    public void setPartitionCheckInterval(Duration partitionCheckInterval) {
        this.partitionCheckInterval = partitionCheckInterval;
    }

}
