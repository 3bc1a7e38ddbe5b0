package dev.storh.spring.boot.autoconfigure;

import java.time.Duration;

/**
 * Scheduled verification of every store, {@code storh.verify}. Set either {@code cron} or
 * {@code interval}; with neither, nothing is scheduled. Immutable, bound through its constructor.
 *
 * @param cron Cron expression (Spring's six fields, e.g. '0 0 3 * * *') of the runs, in the
 *     server's time zone. When set, 'interval' is not used.
 * @param interval Time between the end of one run and the start of the next (e.g. 6h); the first
 *     run starts one interval after startup. Used when no 'cron' is set.
 * @param repair Whether to repair a store whose verify failed, then verify it again.
 */
public record StorhVerifyProperties(String cron, Duration interval, boolean repair) implements StorhScheduleProperties {

}
