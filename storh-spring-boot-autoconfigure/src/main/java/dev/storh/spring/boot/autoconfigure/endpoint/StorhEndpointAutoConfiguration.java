package dev.storh.spring.boot.autoconfigure.endpoint;

import dev.storh.spring.boot.actuate.StorhEndpoint;
import dev.storh.spring.boot.autoconfigure.StorhAutoConfiguration;
import dev.storh.spring.boot.stores.StorhStores;
import dev.storh.spring.listener.StorhListenerContainer;
import dev.storh.spring.listener.StorhListenerEndpointRegistry;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.actuate.autoconfigure.endpoint.condition.ConditionalOnAvailableEndpoint;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

/**
 * Auto-configuration of the {@code storh} Actuator endpoint ({@link StorhEndpoint}) when
 * Actuator is on the classpath, a {@link StorhStores} registry exists and the endpoint is
 * available (enabled and exposed: {@code management.endpoints.web.exposure.include=storh}). Its
 * write operations stay off unless {@code management.endpoint.storh.access=unrestricted}. Backs
 * off when the application defines its own {@link StorhEndpoint}. A queue's {@code dead} count
 * reads the dead-letter queue of its {@code @StorhListener} (default {@code <queue>.dead}).
 */
@AutoConfiguration(after = StorhAutoConfiguration.class)
@ConditionalOnClass(name = { "org.springframework.boot.actuate.endpoint.annotation.Endpoint",
    "org.springframework.boot.actuate.autoconfigure.endpoint.condition.ConditionalOnAvailableEndpoint" })
@ConditionalOnBean(StorhStores.class)
public final class StorhEndpointAutoConfiguration {

    @Bean
    @ConditionalOnMissingBean
    @ConditionalOnAvailableEndpoint
    StorhEndpoint storhEndpoint(StorhStores storhStores, ObjectProvider<StorhListenerEndpointRegistry> listeners) {
        StorhEndpoint endpoint = new StorhEndpoint(storhStores);
        endpoint.setDeadLetterQueues((queue) -> {
            StorhListenerEndpointRegistry registry = listeners.getIfAvailable();
            if (registry != null) {
                for (StorhListenerContainer container : registry.getListenerContainers()) {
                    if (container.getQueueName().equals(queue)) {
                        return container.getDeadLetterQueueName();
                    }
                }
            }
            return queue + ".dead";
        });
        return endpoint;
    }

}
