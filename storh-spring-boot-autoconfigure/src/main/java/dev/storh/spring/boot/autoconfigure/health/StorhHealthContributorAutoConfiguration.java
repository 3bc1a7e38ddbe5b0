package dev.storh.spring.boot.autoconfigure.health;

import dev.storh.spring.boot.actuate.StorhHealthIndicator;
import dev.storh.spring.boot.actuate.StorhStoresHealthContributor;
import dev.storh.spring.boot.stores.StoreType;
import dev.storh.spring.boot.stores.StorhStores;
import dev.storh.spring.boot.autoconfigure.StorhAutoConfiguration;
import dev.storh.spring.data.core.StorhOperations;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.health.autoconfigure.contributor.ConditionalOnEnabledHealthIndicator;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Auto-configuration of the {@link StorhHealthIndicator}, shown as component {@code storh} of the
 * health endpoint. Requires {@code spring-boot-health} on the classpath (an optional dependency)
 * and a {@link StorhOperations} bean; switched by {@code management.health.storh.enabled}
 * (default {@code management.health.defaults.enabled}, itself true); backs off when the
 * application defines a bean named {@code storhHealthIndicator} or
 * {@code storhHealthContributor}.
 * <p>
 * With a {@link StorhStores} registry, also one composite per kind of store, with a health per
 * store: {@code storhCollections}, {@code storhLogs} and {@code storhQueues} (e.g.
 * {@code /actuator/health/storhLogs/events}), each backing off when the application defines a
 * bean of its name ({@code storhCollectionsHealthContributor}, ...).
 */
@AutoConfiguration(after = StorhAutoConfiguration.class)
@ConditionalOnClass(name = { "org.springframework.boot.health.contributor.AbstractHealthIndicator",
    "org.springframework.boot.health.autoconfigure.contributor.ConditionalOnEnabledHealthIndicator" })
public final class StorhHealthContributorAutoConfiguration {

    /**
     * Kept in a nested class so that its health annotations are read only when
     * {@code spring-boot-health} is present.
     */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnBean(StorhOperations.class)
    @ConditionalOnEnabledHealthIndicator("storh")
    static class StorhHealthIndicatorConfiguration {

        @Bean
        @ConditionalOnMissingBean(name = { "storhHealthIndicator", "storhHealthContributor" })
        StorhHealthIndicator storhHealthIndicator(StorhOperations storhOperations) {
            return new StorhHealthIndicator(storhOperations.collectionsFolder());
        }

    }

    /**
     * Health per store, switched by the same property as the folder health.
     */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnBean(StorhStores.class)
    @ConditionalOnEnabledHealthIndicator("storh")
    static class StorhStoresHealthConfiguration {

        @Bean
        @ConditionalOnMissingBean(name = "storhCollectionsHealthContributor")
        StorhStoresHealthContributor storhCollectionsHealthContributor(StorhStores storhStores) {
            return new StorhStoresHealthContributor(storhStores, StoreType.COLLECTION);
        }

        @Bean
        @ConditionalOnMissingBean(name = "storhLogsHealthContributor")
        StorhStoresHealthContributor storhLogsHealthContributor(StorhStores storhStores) {
            return new StorhStoresHealthContributor(storhStores, StoreType.LOG);
        }

        @Bean
        @ConditionalOnMissingBean(name = "storhQueuesHealthContributor")
        StorhStoresHealthContributor storhQueuesHealthContributor(StorhStores storhStores) {
            return new StorhStoresHealthContributor(storhStores, StoreType.QUEUE);
        }

    }

}
