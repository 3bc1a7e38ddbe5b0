package dev.storh.spring.boot.stores;

import org.springframework.context.SmartLifecycle;
import org.springframework.scheduling.concurrent.ThreadPoolTaskScheduler;

/**
 * Background tasks of a registry that run on one daemon thread, started and stopped with the
 * application context. {@link #start()} creates the thread and lets the subclass
 * {@linkplain #schedule schedule} its tasks; {@link #stop()} shuts it down without waiting for a
 * running task. Thread-safe: the lifecycle methods may be called from any thread.
 */
public abstract class DaemonScheduledLifecycle implements SmartLifecycle {

    private final String threadNamePrefix;

    private volatile ThreadPoolTaskScheduler scheduler;

    /**
     * @param threadNamePrefix the thread's name prefix, e.g. {@code storh-verify-}
     */
    protected DaemonScheduledLifecycle(String threadNamePrefix) {
        this.threadNamePrefix = threadNamePrefix;
    }

    /**
     * Schedules this component's tasks on a freshly started scheduler.
     * @param scheduler one daemon thread, initialized
     */
    protected abstract void schedule(ThreadPoolTaskScheduler scheduler);

    @Override
    public void start() {
        ThreadPoolTaskScheduler scheduler = new ThreadPoolTaskScheduler();
        scheduler.setPoolSize(1);
        scheduler.setThreadNamePrefix(this.threadNamePrefix);
        scheduler.setDaemon(true);
        scheduler.setWaitForTasksToCompleteOnShutdown(false);
        scheduler.initialize();
        schedule(scheduler);
        this.scheduler = scheduler;
    }

    @Override
    public void stop() {
        ThreadPoolTaskScheduler scheduler = this.scheduler;
        this.scheduler = null;
        if (scheduler != null) {
            scheduler.shutdown();
        }
    }

    @Override
    public boolean isRunning() {
        return this.scheduler != null;
    }

}
