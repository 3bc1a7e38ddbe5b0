package dev.storh.spring.boot.mirror;

import dev.storh.spring.boot.stores.DaemonScheduledLifecycle;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.scheduling.Trigger;
import org.springframework.scheduling.concurrent.ThreadPoolTaskScheduler;
import org.springframework.util.Assert;

/**
 * Pushes a {@link StorhMirror} on a schedule, on its own thread {@code storh-mirror-1} (the
 * application needs no {@code @EnableScheduling}). A failed push is logged at WARN and retried at
 * the next run. Started and stopped with the application context.
 */
public class StorhMirrorScheduler extends DaemonScheduledLifecycle {

    private static final Log logger = LogFactory.getLog(StorhMirrorScheduler.class);

    private final StorhMirror mirror;

    private final Trigger trigger;

    /**
     * @param mirror the mirror to push
     * @param trigger when, e.g. a {@code CronTrigger} or a {@code PeriodicTrigger}
     */
    public StorhMirrorScheduler(StorhMirror mirror, Trigger trigger) {
        super("storh-mirror-");
        Assert.notNull(mirror, "'mirror' must not be null");
        Assert.notNull(trigger, "'trigger' must not be null");
        this.mirror = mirror;
        this.trigger = trigger;
    }

    /**
     * Pushes once now on the calling thread, logging the outcome instead of throwing.
     */
    public void runOnce() {
        try {
            var result = this.mirror.push();
            logger.debug("storh mirror push: " + result);
        }
        catch (RuntimeException ex) {
            logger.warn("storh mirror push failed: " + ex.getMessage(), ex);
        }
    }

    @Override
    protected void schedule(ThreadPoolTaskScheduler scheduler) {
        scheduler.schedule(this::runOnce, this.trigger);
    }

}
