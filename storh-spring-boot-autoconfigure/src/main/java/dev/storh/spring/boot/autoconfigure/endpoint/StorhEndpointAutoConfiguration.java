package dev.storh.spring.boot.autoconfigure.endpoint;

import dev.storh.spring.boot.actuate.StorhEndpoint;
import dev.storh.spring.boot.autoconfigure.StorhAutoConfiguration;
import dev.storh.spring.boot.stores.StorhStores;

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
 * off when the application defines its own {@link StorhEndpoint}.
 */
@AutoConfiguration(after = StorhAutoConfiguration.class)
@ConditionalOnClass(name = { "org.springframework.boot.actuate.endpoint.annotation.Endpoint",
		"org.springframework.boot.actuate.autoconfigure.endpoint.condition.ConditionalOnAvailableEndpoint" })
@ConditionalOnBean(StorhStores.class)
public final class StorhEndpointAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	@ConditionalOnAvailableEndpoint
	StorhEndpoint storhEndpoint(StorhStores storhStores) {
		return new StorhEndpoint(storhStores);
	}

}
