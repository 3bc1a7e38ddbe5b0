package dev.storh.spring.listener;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a bean method as the consumer of a storh job queue: a
 * {@link StorhListenerContainer} claims the queue's jobs in batches and calls the method once per
 * job, completing the job when the method returns and retrying it with back-off when it throws;
 * after the last attempt the job moves to the dead-letter queue.
 * <p>
 * Each parameter is resolved by its type:
 * <ul>
 * <li>{@link dev.storh.queue.QueueJob}: the job with its id, payload, attempt count (1 on the
 * first delivery) and enqueue and claim times;</li>
 * <li>{@link dev.storh.StorageRecord}: the job's id and payload as stored;</li>
 * <li>any other type (at most one such parameter): the payload converted to that type, generics
 * included, by the application's Jackson {@code JsonMapper} (records and classes alike). A
 * payload that cannot be converted is dead-lettered at once: retrying cannot help.</li>
 * </ul>
 * The return value is ignored. Every attribute accepts {@code ${...}} placeholders; an empty
 * attribute takes {@code storh.queues.<queue>.listener.*}, then the default.
 * <p>
 * No {@code @Enable...} annotation is needed: the auto-configuration processes these annotations
 * whenever storh is on the class path.
 */
@Target(ElementType.METHOD)
@Retention(RetentionPolicy.RUNTIME)
@Documented
public @interface StorhListener {

    /**
     * @return the container id, unique in the application (meters and health use it); default
     * {@code <bean name>.<method name>}
     */
    String id() default "";

    /**
     * @return the queue name, e.g. {@code jobs}; its {@code Queue} bean when one has that name,
     * else the queue of that name in the collections folder
     */
    String queue();

    /**
     * @return consumer threads, each claiming its own batches (default 1)
     */
    String concurrency() default "";

    /**
     * @return the most jobs a consumer claims at once, with one fsync (default 10)
     */
    String batchSize() default "";

    /**
     * @return deliveries of a job before it is dead-lettered, 1 or more (default 3)
     */
    String maxAttempts() default "";

    /**
     * @return the delay before the first retry, e.g. {@code 500ms} or {@code PT2S} (default 1s);
     * later retries multiply it by {@code storh.queues.<queue>.listener.backoff-multiplier}
     */
    String backoff() default "";

    /**
     * @return the queue receiving jobs whose last attempt failed (default {@code <queue>.dead})
     */
    String deadLetterQueue() default "";

    /**
     * @return whether the container starts with the application context (default true)
     */
    String autoStartup() default "";

}
