package dev.storh.spring.boot.autoconfigure;

import java.util.function.Function;

import dev.storh.queue.Queue;
import dev.storh.spring.boot.actuate.StorhListenerMetrics;
import dev.storh.spring.boot.actuate.StorhListenersHealthIndicator;
import dev.storh.spring.boot.stores.StorhStores;
import dev.storh.spring.data.core.StorhEntityConverter;
import dev.storh.spring.listener.StorhListener;
import dev.storh.spring.listener.StorhListenerAnnotationBeanPostProcessor;
import dev.storh.spring.listener.StorhListenerEndpointRegistrar;
import dev.storh.spring.listener.StorhListenerEndpointRegistry;
import dev.storh.spring.listener.StorhListenerSettings;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.health.autoconfigure.contributor.ConditionalOnEnabledHealthIndicator;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Role;

/**
 * Auto-configuration of {@link StorhListener} methods: the bean post-processor that finds them,
 * the {@link StorhListenerEndpointRegistry} (bean {@code storhListenerEndpointRegistry}) holding
 * one container per method, and the registrar that builds each container from the annotation and
 * {@code storh.queues.<queue>.listener.*} (and the queue's {@code processing-timeout}). A listener's
 * queue is the {@code Queue} bean of that name when there is one, else the {@link StorhStores}
 * registry's queue of that name, as is its dead-letter queue; payloads are converted by the
 * application's {@link JsonMapper} bean (else {@link StorhEntityConverter#defaultJsonMapper()}).
 * <p>
 * With Micrometer on the class path, {@link StorhListenerMetrics} ({@code storh.listener.*}
 * meters); with {@code spring-boot-health}, the {@code storhListeners} health component (switched
 * by {@code management.health.storh.enabled}). Each bean backs off when the application defines
 * its own.
 */
@AutoConfiguration(after = StorhAutoConfiguration.class,
        afterName = "org.springframework.boot.jackson.autoconfigure.JacksonAutoConfiguration")
@ConditionalOnClass(StorhListener.class)
@ConditionalOnBean(StorhStores.class)
public final class StorhListenerAutoConfiguration {

    @Bean
    @Role(BeanDefinition.ROLE_INFRASTRUCTURE)
    static StorhListenerAnnotationBeanPostProcessor storhListenerAnnotationBeanPostProcessor() {
        return new StorhListenerAnnotationBeanPostProcessor();
    }

    @Bean
    @ConditionalOnMissingBean
    StorhListenerEndpointRegistry storhListenerEndpointRegistry() {
        return new StorhListenerEndpointRegistry();
    }

    @Bean
    @ConditionalOnMissingBean
    StorhListenerEndpointRegistrar storhListenerEndpointRegistrar(StorhListenerEndpointRegistry registry,
            StorhStores stores, StorhProperties properties, ObjectProvider<JsonMapper> jsonMapper,
            ListableBeanFactory beanFactory) {
        JsonMapper applicationMapper = jsonMapper.getIfUnique();
        JsonMapper mapper = (applicationMapper != null) ? applicationMapper : StorhEntityConverter.defaultJsonMapper();
        Function<String, Queue> queues = (name) -> (beanFactory.containsBean(name)
                && beanFactory.isTypeMatch(name, Queue.class)) ? beanFactory.getBean(name, Queue.class)
                        : stores.queue(name);
        return new StorhListenerEndpointRegistrar(registry, queues, mapper, (queue) -> settings(properties, queue));
    }

    static StorhListenerSettings settings(StorhProperties properties, String queue) {
        StorhQueueProperties settings = properties.queues().get(queue);
        if (settings == null) {
            return StorhListenerSettings.defaults();
        }
        StorhQueueListenerProperties listener = settings.listener();
        String prefix = "storh.queues." + queue;
        try {
            return new StorhListenerSettings(listener.concurrency(), listener.batchSize(),
                    listener.maxAttempts(), listener.backoff(), listener.backoffMultiplier(),
                    listener.maxBackoff(), listener.shutdownTimeout(), listener.idleInterval(),
                    listener.requeueInterval(), settings.processingTimeout(), listener.deadLetterQueue());
        }
        catch (IllegalArgumentException ex) {
            String message = ex.getMessage();
            String setting = message.substring(0, Math.max(0, message.indexOf(' ')));
            String property = setting.equals("processing-timeout") ? prefix + ".processing-timeout"
                    : prefix + ".listener." + setting;
            throw new InvalidStorhPropertyException(property, valueOf(settings, setting), message, ex);
        }
    }

    private static Object valueOf(StorhQueueProperties settings, String setting) {
        StorhQueueListenerProperties listener = settings.listener();
        return switch (setting) {
            case "concurrency" -> listener.concurrency();
            case "batch-size" -> listener.batchSize();
            case "max-attempts" -> listener.maxAttempts();
            case "backoff" -> listener.backoff();
            case "backoff-multiplier" -> listener.backoffMultiplier();
            case "max-backoff" -> listener.maxBackoff();
            case "shutdown-timeout" -> listener.shutdownTimeout();
            case "idle-interval" -> listener.idleInterval();
            case "requeue-interval" -> listener.requeueInterval();
            case "processing-timeout" -> settings.processingTimeout();
            default -> listener.deadLetterQueue();
        };
    }

    /**
     * Listener meters, only with Micrometer on the class path.
     */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(name = "io.micrometer.core.instrument.binder.MeterBinder")
    static class StorhListenerMetricsConfiguration {

        @Bean
        @ConditionalOnMissingBean
        StorhListenerMetrics storhListenerMetrics(StorhListenerEndpointRegistry registry) {
            return new StorhListenerMetrics(registry);
        }

    }

    /**
     * Listener health, only with {@code spring-boot-health} on the class path.
     */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(name = { "org.springframework.boot.health.contributor.AbstractHealthIndicator",
        "org.springframework.boot.health.autoconfigure.contributor.ConditionalOnEnabledHealthIndicator" })
    static class StorhListenerHealthConfiguration {

        @Configuration(proxyBeanMethods = false)
        @ConditionalOnEnabledHealthIndicator("storh")
        static class Enabled {

            @Bean
            @ConditionalOnMissingBean(name = "storhListenersHealthIndicator")
            StorhListenersHealthIndicator storhListenersHealthIndicator(StorhListenerEndpointRegistry registry) {
                return new StorhListenersHealthIndicator(registry);
            }

        }

    }

}
