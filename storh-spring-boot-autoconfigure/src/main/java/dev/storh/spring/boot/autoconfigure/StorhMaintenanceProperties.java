package dev.storh.spring.boot.autoconfigure;

import java.time.Duration;

import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Routine upkeep that runs in the background on its own schedules, {@code storh.maintenance}:
 * log retention ({@code storh.logs.<name>.retention}), the requeue of claimed jobs past their
 * queue's {@code processing-timeout}, and the move of date-partitioned logs to the next
 * partition. Independent of {@code storh.verify}. Immutable, bound through its constructor.
 *
 * @param enabled Whether to run the upkeep tasks at all.
 * @param retentionInterval Time between two retention runs over the logs that have a retention
 *     (each deletes records older than the retention and compacts the log). The first run starts
 *     one interval after startup.
 * @param requeueInterval Time between two passes that put claimed jobs older than their queue's
 *     processing timeout back to pending. The first pass starts one interval after startup.
 * @param partitionCheckInterval Time between two checks whether a date-partitioned log should move
 *     to a new partition (writes through the log's bean also check, on every call).
 */
public record StorhMaintenanceProperties(@DefaultValue("true") boolean enabled,
        @DefaultValue("1h") Duration retentionInterval, @DefaultValue("1m") Duration requeueInterval,
        @DefaultValue("1m") Duration partitionCheckInterval) {

}
