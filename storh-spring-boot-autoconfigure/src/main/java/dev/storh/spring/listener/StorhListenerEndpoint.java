package dev.storh.spring.listener;

import java.lang.reflect.Method;

import org.springframework.util.Assert;

/**
 * One {@link StorhListener} method found on a bean, with its attributes resolved (placeholders
 * replaced; empty means "not set here").
 *
 * @param id the container id
 * @param queue the queue name
 * @param bean the bean (as the context holds it, possibly a proxy)
 * @param method the method to invoke on {@code bean}
 * @param concurrency the annotation's concurrency, or empty
 * @param batchSize the annotation's batch size, or empty
 * @param maxAttempts the annotation's max attempts, or empty
 * @param backoff the annotation's back-off, or empty
 * @param deadLetterQueue the annotation's dead-letter queue, or empty
 * @param autoStartup the annotation's auto-startup, or empty
 */
public record StorhListenerEndpoint(String id, String queue, Object bean, Method method, String concurrency,
        String batchSize, String maxAttempts, String backoff, String deadLetterQueue, String autoStartup) {

    /**
     * @throws IllegalArgumentException when the id, queue, bean or method is missing
     */
    public StorhListenerEndpoint {
        Assert.hasText(id, "'id' must not be empty");
        Assert.hasText(queue, () -> "@StorhListener on " + method + " needs a queue");
        Assert.notNull(bean, "'bean' must not be null");
        Assert.notNull(method, "'method' must not be null");
    }

}
