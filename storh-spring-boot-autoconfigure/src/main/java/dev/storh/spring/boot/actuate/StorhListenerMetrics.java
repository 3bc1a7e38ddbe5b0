package dev.storh.spring.boot.actuate;

import java.time.Duration;
import java.util.function.ToDoubleFunction;

import dev.storh.queue.QueueJob;
import dev.storh.spring.listener.StorhListenerContainer;
import dev.storh.spring.listener.StorhListenerEndpointRegistry;
import dev.storh.spring.listener.StorhListenerObserver;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.binder.MeterBinder;

import org.springframework.util.Assert;

/**
 * Micrometer meters of every {@code @StorhListener} container, including containers registered
 * after binding. Every meter carries the tags {@code queue} (the consumed queue) and
 * {@code listener} (the container id):
 * <ul>
 * <li>{@code storh.listener.processed}, {@code storh.listener.failed},
 * {@code storh.listener.retried}, {@code storh.listener.dead.lettered} (function counters): jobs
 * whose method returned, failed attempts, jobs put back for another attempt, jobs moved to the
 * dead-letter queue;</li>
 * <li>{@code storh.listener.in.flight} (gauge): jobs claimed and not settled yet;</li>
 * <li>{@code storh.listener.consumers} (gauge): consumer threads alive;</li>
 * <li>{@code storh.listener.latency} (timer, tag {@code outcome} = {@code success} or
 * {@code failure}): how long the method ran per job.</li>
 * </ul>
 */
public class StorhListenerMetrics implements MeterBinder {

    private final StorhListenerEndpointRegistry registry;

    /**
     * @param registry the listener containers
     */
    public StorhListenerMetrics(StorhListenerEndpointRegistry registry) {
        Assert.notNull(registry, "'registry' must not be null");
        this.registry = registry;
    }

    @Override
    public void bindTo(MeterRegistry meterRegistry) {
        this.registry.addContainerListener((container) -> bind(meterRegistry, container));
    }

    private static void bind(MeterRegistry meters, StorhListenerContainer container) {
        Tags tags = Tags.of("queue", container.getQueueName(), "listener", container.getId());
        counter(meters, "storh.listener.processed", "Jobs whose listener method returned.", container,
                StorhListenerContainer::getProcessed, tags);
        counter(meters, "storh.listener.failed", "Failed attempts of the listener method.", container,
                StorhListenerContainer::getFailed, tags);
        counter(meters, "storh.listener.retried", "Jobs put back to pending for another attempt.", container,
                StorhListenerContainer::getRetried, tags);
        counter(meters, "storh.listener.dead.lettered", "Jobs moved to the dead-letter queue.", container,
                StorhListenerContainer::getDeadLettered, tags);
        Gauge.builder("storh.listener.in.flight", container, StorhListenerContainer::getInFlight)
            .description("Jobs claimed by the listener and not settled yet.")
            .tags(tags)
            .register(meters);
        Gauge.builder("storh.listener.consumers", container, StorhListenerContainer::getActiveConsumers)
            .description("Consumer threads of the listener alive.")
            .tags(tags)
            .register(meters);
        Timer success = latency(meters, tags, "success");
        Timer failure = latency(meters, tags, "failure");
        container.addObserver(new StorhListenerObserver() {

            @Override
            public void processed(StorhListenerContainer c, QueueJob job, Duration duration) {
                success.record(duration);
            }

            @Override
            public void failed(StorhListenerContainer c, QueueJob job, Duration duration, Throwable error) {
                failure.record(duration);
            }

        });
    }

    private static Timer latency(MeterRegistry meters, Tags tags, String outcome) {
        return Timer.builder("storh.listener.latency")
            .description("Time the listener method ran per job.")
            .tags(tags)
            .tag("outcome", outcome)
            .register(meters);
    }

    private static void counter(MeterRegistry meters, String name, String description,
            StorhListenerContainer container, ToDoubleFunction<StorhListenerContainer> count, Tags tags) {
        FunctionCounter.builder(name, container, count).description(description).tags(tags).register(meters);
    }

}
