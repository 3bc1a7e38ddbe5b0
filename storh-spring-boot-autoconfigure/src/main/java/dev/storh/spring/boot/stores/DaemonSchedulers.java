package dev.storh.spring.boot.stores;

import org.springframework.scheduling.concurrent.ThreadPoolTaskScheduler;

/**
 * The single daemon thread the background tasks of a registry run on.
 */
final class DaemonSchedulers {

	private DaemonSchedulers() {
	}

	/**
	 * @param threadNamePrefix e.g. {@code storh-verify-}
	 * @return an initialized scheduler with one daemon thread that does not wait for running
	 * tasks on shutdown
	 */
	static ThreadPoolTaskScheduler start(String threadNamePrefix) {
		ThreadPoolTaskScheduler scheduler = new ThreadPoolTaskScheduler();
		scheduler.setPoolSize(1);
		scheduler.setThreadNamePrefix(threadNamePrefix);
		scheduler.setDaemon(true);
		scheduler.setWaitForTasksToCompleteOnShutdown(false);
		scheduler.initialize();
		return scheduler;
	}

}
