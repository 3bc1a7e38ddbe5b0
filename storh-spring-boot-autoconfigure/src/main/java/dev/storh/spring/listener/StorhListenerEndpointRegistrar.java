package dev.storh.spring.listener;

import java.time.Duration;
import java.util.function.Function;

import dev.storh.queue.Queue;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.boot.convert.DurationStyle;
import org.springframework.util.Assert;
import org.springframework.util.StringUtils;

/**
 * Turns {@link StorhListenerEndpoint}s into {@link StorhListenerContainer}s in the
 * {@link StorhListenerEndpointRegistry}: settles each setting (annotation attribute, else the
 * queue's defaults, e.g. {@code storh.queues.<queue>.listener.*}), opens the queue and its
 * dead-letter queue, and adapts the method. Thread-safe.
 */
public class StorhListenerEndpointRegistrar {

    private final StorhListenerEndpointRegistry registry;

    private final Function<String, Queue> queues;

    private final JsonMapper mapper;

    private final Function<String, StorhListenerSettings> defaults;

    /**
     * @param registry receives the containers
     * @param queues the queue of a name (e.g. its bean, else the store registry's)
     * @param mapper converts payloads to parameter types
     * @param defaults the settings of a queue's listeners before the annotation's attributes
     */
    public StorhListenerEndpointRegistrar(StorhListenerEndpointRegistry registry, Function<String, Queue> queues,
            JsonMapper mapper, Function<String, StorhListenerSettings> defaults) {
        Assert.notNull(registry, "'registry' must not be null");
        Assert.notNull(queues, "'queues' must not be null");
        Assert.notNull(mapper, "'mapper' must not be null");
        Assert.notNull(defaults, "'defaults' must not be null");
        this.registry = registry;
        this.queues = queues;
        this.mapper = mapper;
        this.defaults = defaults;
    }

    /**
     * Creates the endpoint's container and registers it (it starts with the registry).
     * @param endpoint the endpoint
     * @return the container
     * @throws IllegalStateException naming the method when an attribute is not usable, the method
     * has two payload parameters or the id is taken
     */
    public StorhListenerContainer register(StorhListenerEndpoint endpoint) {
        String where = "@StorhListener on " + StorhListenerMethodInvoker.describe(endpoint.method());
        StorhListenerSettings settings;
        try {
            settings = settings(endpoint);
        }
        catch (IllegalArgumentException ex) {
            throw new IllegalStateException(where + ": " + ex.getMessage(), ex);
        }
        StorhListenerMethodInvoker invoker = new StorhListenerMethodInvoker(endpoint, this.mapper);
        Queue queue = this.queues.apply(endpoint.queue());
        Queue deadLetters = this.queues.apply(settings.deadLetterQueueFor(endpoint.queue()));
        StorhListenerContainer container = new StorhListenerContainer(endpoint.id(), endpoint.queue(), queue,
                () -> deadLetters, invoker::invoke, settings);
        if (StringUtils.hasText(endpoint.autoStartup())) {
            container.setAutoStartup(parseBoolean(endpoint.autoStartup(), "autoStartup"));
        }
        this.registry.registerListenerContainer(container);
        return container;
    }

    private StorhListenerSettings settings(StorhListenerEndpoint endpoint) {
        StorhListenerSettings settings = this.defaults.apply(endpoint.queue());
        if (StringUtils.hasText(endpoint.concurrency())) {
            settings = settings.withConcurrency(parseInt(endpoint.concurrency(), "concurrency"));
        }
        if (StringUtils.hasText(endpoint.batchSize())) {
            settings = settings.withBatchSize(parseInt(endpoint.batchSize(), "batchSize"));
        }
        if (StringUtils.hasText(endpoint.maxAttempts())) {
            settings = settings.withMaxAttempts(parseInt(endpoint.maxAttempts(), "maxAttempts"));
        }
        if (StringUtils.hasText(endpoint.backoff())) {
            settings = settings.withBackoff(parseDuration(endpoint.backoff(), "backoff"));
        }
        if (StringUtils.hasText(endpoint.deadLetterQueue())) {
            settings = settings.withDeadLetterQueue(endpoint.deadLetterQueue().trim());
        }
        return settings;
    }

    private static int parseInt(String value, String attribute) {
        try {
            return Integer.parseInt(value.trim());
        }
        catch (NumberFormatException ex) {
            throw new IllegalArgumentException(attribute + " must be a whole number, got '" + value + "'", ex);
        }
    }

    private static Duration parseDuration(String value, String attribute) {
        try {
            return DurationStyle.detectAndParse(value.trim());
        }
        catch (IllegalArgumentException ex) {
            throw new IllegalArgumentException(
                    attribute + " must be a duration such as 500ms, 2s or PT2S, got '" + value + "'", ex);
        }
    }

    private static boolean parseBoolean(String value, String attribute) {
        String text = value.trim();
        if (text.equalsIgnoreCase("true") || text.equalsIgnoreCase("false")) {
            return Boolean.parseBoolean(text);
        }
        throw new IllegalStateException(attribute + " must be true or false, got '" + value + "'");
    }

}
