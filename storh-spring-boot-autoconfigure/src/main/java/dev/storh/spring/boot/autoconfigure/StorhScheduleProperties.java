package dev.storh.spring.boot.autoconfigure;

import java.time.Duration;

import org.springframework.scheduling.Trigger;
import org.springframework.scheduling.support.CronTrigger;
import org.springframework.scheduling.support.PeriodicTrigger;
import org.springframework.util.StringUtils;

/**
 * When a periodic storh task runs: {@code cron} or {@code interval}, shared by the scheduled verify
 * ({@code storh.verify}) and the mirror's periodic push ({@code storh.mirror}). With neither,
 * nothing is scheduled.
 */
public abstract class StorhScheduleProperties {

    /**
     * Cron expression (Spring's six fields, e.g. '0 0 3 * * *') of the runs, in the server's time
     * zone. When set, 'interval' is not used.
     */
    private String cron;

    /**
     * Time between the end of one run and the start of the next (e.g. 6h); the first run starts
     * one interval after startup. Used when no 'cron' is set.
     */
    private Duration interval;

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
     * @return a {@link CronTrigger} of the cron expression when one is set, else a
     * {@link PeriodicTrigger} of the interval that first fires one interval from now
     * @throws IllegalArgumentException when neither is set, or the cron expression is invalid
     */
    public Trigger trigger() {
        if (StringUtils.hasText(this.cron)) {
            return new CronTrigger(this.cron);
        }
        PeriodicTrigger periodic = new PeriodicTrigger(this.interval);
        periodic.setInitialDelay(this.interval);
        return periodic;
    }

}
