package dev.storh.spring.boot.autoconfigure;

import java.time.Duration;

/**
 * Scheduled verification of every store, {@code storh.verify}. Set either {@code cron} or
 * {@code interval}; with neither, nothing is scheduled.
 */
public class StorhVerifyProperties {

    /**
     * Cron expression (Spring's six fields, e.g. '0 0 3 * * *') of the verify runs, in the
     * server's time zone. Excludes 'interval'.
     */
    private String cron;

    /**
     * Time between the end of one verify run and the start of the next (e.g. 6h); the first run
     * starts one interval after startup. Excludes 'cron'.
     */
    private Duration interval;

    /**
     * Whether to repair a store whose verify failed, then verify it again.
     */
    private boolean repair;

    /**
     * @return the cron expression, or {@code null}
     */
    public String getCron() {
        return this.cron;
    }

    /**
     * @param cron the cron expression, or {@code null}
     */
    public void setCron(String cron) {
        this.cron = cron;
    }

    /**
     * @return the interval, or {@code null}
     */
    public Duration getInterval() {
        return this.interval;
    }

    /**
     * @param interval the interval, or {@code null}
     */
    public void setInterval(Duration interval) {
        this.interval = interval;
    }

    /**
     * @return whether a failed verify is followed by a repair
     */
    public boolean isRepair() {
        return this.repair;
    }

    /**
     * @param repair whether a failed verify is followed by a repair
     */
    public void setRepair(boolean repair) {
        this.repair = repair;
    }

}
