package dev.storh.spring.boot.stores;

import java.util.List;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.scheduling.Trigger;
import org.springframework.scheduling.concurrent.ThreadPoolTaskScheduler;
import org.springframework.util.Assert;

/**
 * Verifies every store of a {@link StorhStores} registry on a schedule, one store after the
 * other, on its own thread {@code storh-verify-1} (the application needs no
 * {@code @EnableScheduling}). Each run verifies each store; with {@code repair} set, a store that
 * fails is repaired and verified again. Results become each store's last verify (health,
 * metrics) and one log line per store: INFO when clean, WARN naming the errors otherwise. A
 * failure of one store does not stop the others.
 * <p>
 * Log retention and the requeue of timed-out jobs are not part of it: they run on their own
 * schedules ({@link StorhMaintenanceScheduler}). Started and stopped with the application
 * context.
 */
public class StorhVerifyScheduler extends DaemonScheduledLifecycle {

    private static final Log logger = LogFactory.getLog(StorhVerifyScheduler.class);

    private static final int ERRORS_LOGGED = 5;

    private final StorhStores stores;

    private final Trigger trigger;

    private final boolean repair;

    /**
     * @param stores the stores to verify
     * @param trigger when to run, e.g. a {@code CronTrigger} or a {@code PeriodicTrigger}
     * @param repair whether to repair a store whose verify failed, then verify it again
     */
    public StorhVerifyScheduler(StorhStores stores, Trigger trigger, boolean repair) {
        super("storh-verify-");
        Assert.notNull(stores, "'stores' must not be null");
        Assert.notNull(trigger, "'trigger' must not be null");
        this.stores = stores;
        this.trigger = trigger;
        this.repair = repair;
    }

    /**
     * Runs one verify of every store now, on the calling thread.
     * @return the result per store that could be verified, in registry order
     */
    public List<VerifyResult> runOnce() {
        return this.stores.stores().stream().map(this::runOne).filter((result) -> result != null).toList();
    }

    private VerifyResult runOne(StorhStore store) {
        try {
            VerifyResult result = store.verify(this.repair);
            if (result.ok()) {
                logger.info("storh verify of " + store + ": ok in " + result.duration().toMillis() + " ms"
                        + (result.repaired() ? " after repair" : ""));
            }
            else {
                logger.warn("storh verify of " + store + ": FAILED with " + result.errors().size() + " error(s)"
                        + (result.repaired() ? " after repair" : "") + ": "
                        + result.errors().stream().limit(ERRORS_LOGGED).toList());
            }
            return result;
        }
        catch (RuntimeException ex) {
            logger.warn("storh verify of " + store + " could not run: " + ex.getMessage(), ex);
            return null;
        }
    }

    @Override
    protected void schedule(ThreadPoolTaskScheduler scheduler) {
        scheduler.schedule(this::runOnce, this.trigger);
    }

}
