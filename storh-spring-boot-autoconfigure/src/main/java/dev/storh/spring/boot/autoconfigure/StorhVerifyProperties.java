package dev.storh.spring.boot.autoconfigure;

/**
 * Scheduled verification of every store, {@code storh.verify}. Set either {@code cron} or
 * {@code interval}; with neither, nothing is scheduled.
 */
public class StorhVerifyProperties extends StorhScheduleProperties {

    /**
     * Whether to repair a store whose verify failed, then verify it again.
     */
    private boolean repair;

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
