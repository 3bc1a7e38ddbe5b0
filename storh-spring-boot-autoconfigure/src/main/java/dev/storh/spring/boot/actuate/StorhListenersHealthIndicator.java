package dev.storh.spring.boot.actuate;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.storh.spring.listener.StorhListenerContainer;
import dev.storh.spring.listener.StorhListenerEndpointRegistry;

import org.springframework.boot.health.contributor.Health;

/**
 * Health of the {@code @StorhListener} containers, component {@code storhListeners}: DOWN when a
 * container is stopped, has lost a consumer thread, or has a consumer stuck (busy on one job for
 * longer than the queue's processing timeout); a paused container is UP (it was asked to
 * pause). Without containers it is UP.
 * <p>
 * Details, per container id: {@code queue}, {@code state} ({@code running}, {@code paused},
 * {@code stopped}), {@code consumers} (alive of configured), {@code inFlight},
 * {@code processed}, {@code failed}, {@code retried}, {@code deadLettered}, {@code stuck}
 * (consumer thread to busy seconds); plus {@code reasons}, one sentence per DOWN cause. Reads
 * memory only.
 */
public class StorhListenersHealthIndicator extends ReasonedHealthIndicator<StorhListenerEndpointRegistry> {

    /**
     * @param registry the listener containers
     * @throws IllegalArgumentException when {@code registry} is null
     */
    public StorhListenersHealthIndicator(StorhListenerEndpointRegistry registry) {
        super("storh listener health check failed", StorhListenersHealthIndicator.class, registry, "registry");
    }

    @Override
    String subject(StorhListenerEndpointRegistry registry) {
        return "storh listeners are";
    }

    @Override
    void check(StorhListenerEndpointRegistry registry, Health.Builder builder, List<String> reasons) {
        for (StorhListenerContainer container : registry.getListenerContainers()) {
            Map<String, Object> details = new LinkedHashMap<>();
            boolean running = container.isRunning();
            int configured = container.getSettings().concurrency();
            int alive = container.getActiveConsumers();
            Map<String, Duration> stuck = container.getStuckConsumers();
            details.put("queue", container.getQueueName());
            details.put("state", !running ? "stopped" : container.isPaused() ? "paused" : "running");
            details.put("consumers", alive + "/" + configured);
            details.put("inFlight", container.getInFlight());
            details.put("processed", container.getProcessed());
            details.put("failed", container.getFailed());
            details.put("retried", container.getRetried());
            details.put("deadLettered", container.getDeadLettered());
            Map<String, Long> stuckSeconds = new LinkedHashMap<>();
            stuck.forEach((thread, busy) -> stuckSeconds.put(thread, busy.toSeconds()));
            details.put("stuck", stuckSeconds);
            builder.withDetail(container.getId(), details);
            if (!running) {
                reasons.add("Listener '" + container.getId() + "' on queue '" + container.getQueueName()
                        + "' is stopped");
            }
            else if (alive < configured) {
                reasons.add("Listener '" + container.getId() + "' has " + alive + " of " + configured
                        + " consumer threads alive");
            }
            if (running && !stuck.isEmpty()) {
                reasons.add("Listener '" + container.getId() + "' has consumers busy on one job for longer than the "
                        + "processing timeout of " + container.getSettings().processingTimeout() + ": " + stuckSeconds
                        + " (seconds)");
            }
        }
    }

}
