package dev.storh.spring.boot.autoconfigure;

import java.time.Duration;

import org.springframework.boot.context.properties.NestedConfigurationProperty;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Settings of one job queue, {@code storh.queues.<name>}: the application gets a {@code Queue}
 * bean named {@code <name>} (inject it with {@code @Qualifier("<name>")}), kept in
 * {@code <collections folder>/<name>/}. Immutable, bound through its constructor.
 *
 * @param processingTimeout How long a claimed job may stay in processing before it is put back to
 *     pending, every 'storh.maintenance.requeue-interval' (default 1m) and by a repair; whole
 *     seconds, not negative.
 * @param listener Settings of the @StorhListener methods consuming this queue.
 */
public record StorhQueueProperties(@DefaultValue("1h") Duration processingTimeout,
        @NestedConfigurationProperty @DefaultValue StorhQueueListenerProperties listener) {

}
