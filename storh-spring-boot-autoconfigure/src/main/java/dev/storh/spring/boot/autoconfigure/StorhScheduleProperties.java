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
public interface StorhScheduleProperties {

    /**
     * @return the cron expression (Spring's six fields, in the server's time zone), or {@code null}
     */
    String cron();

    /**
     * @return the time between the end of one run and the start of the next, or {@code null}
     */
    Duration interval();

    /**
     * @return a {@link CronTrigger} of the cron expression when one is set, else a
     * {@link PeriodicTrigger} of the interval that first fires one interval from now
     * @throws IllegalArgumentException when neither is set, or the cron expression is invalid
     */
    default Trigger trigger() {
        if (StringUtils.hasText(cron())) {
            return new CronTrigger(cron());
        }
        PeriodicTrigger periodic = new PeriodicTrigger(interval());
        periodic.setInitialDelay(interval());
        return periodic;
    }

}
