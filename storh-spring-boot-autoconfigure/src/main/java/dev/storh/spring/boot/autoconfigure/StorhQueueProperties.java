package dev.storh.spring.boot.autoconfigure;

import java.time.Duration;

import org.springframework.boot.context.properties.NestedConfigurationProperty;

/**
 * Settings of one job queue, {@code storh.queues.<name>}: the application gets a {@code Queue}
 * bean named {@code <name>} (inject it with {@code @Qualifier("<name>")}), kept in
 * {@code <collections folder>/<name>/}.
 */
public class StorhQueueProperties {

    /**
     * How long a claimed job may stay in processing before it is put back to pending, every
     * 'storh.maintenance.requeue-interval' (default 1m) and by a repair; whole seconds, not
     * negative.
     */
    private Duration processingTimeout = Duration.ofHours(1);

    /**
     * Settings of the @StorhListener methods consuming this queue.
     */
    @NestedConfigurationProperty
    private final StorhQueueListenerProperties listener = new StorhQueueListenerProperties();

    /**
     * @return the processing timeout
     */
    public Duration getProcessingTimeout() {
        return this.processingTimeout;
    }

    /**
     * @param processingTimeout the processing timeout
     */
    public void setProcessingTimeout(Duration processingTimeout) {
        this.processingTimeout = processingTimeout;
    }

    /**
     * @return the listener settings ({@code storh.queues.<name>.listener})
     */
    public StorhQueueListenerProperties getListener() {
        return this.listener;
    }

}
