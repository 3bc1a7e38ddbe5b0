package dev.storh.spring.boot.autoconfigure.metrics;

import dev.storh.observe.StoreObserver;
import dev.storh.spring.boot.actuate.StorhMetrics;
import dev.storh.spring.boot.actuate.StorhOperationMetrics;
import dev.storh.spring.boot.autoconfigure.StorhAutoConfiguration;
import dev.storh.spring.boot.stores.StorhStores;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

/**
 * Auto-configuration of {@link StorhMetrics}, the Micrometer meters of every storh store, and of
 * {@link StorhOperationMetrics}, the {@link StoreObserver} that times every store's data operations
 * ({@code storh.operation}) and fsyncs ({@code storh.fsync}); the registry opens its stores with
 * it. Runs
 * after Boot's meter registry auto-configuration; requires Micrometer on the classpath, a
 * {@link MeterRegistry} and a {@link StorhStores} registry; backs off when the application
 * defines its own {@link StorhMetrics} (or {@link StoreObserver}).
 */
@AutoConfiguration(after = StorhAutoConfiguration.class,
        afterName = { "org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration",
            "org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration",
            "org.springframework.boot.micrometer.metrics.autoconfigure.export.simple.SimpleMetricsExportAutoConfiguration" })
@ConditionalOnClass({ MeterRegistry.class, MeterBinder.class, StorhMetrics.class })
@ConditionalOnBean({ MeterRegistry.class, StorhStores.class })
public final class StorhMetricsAutoConfiguration {

    @Bean
    @ConditionalOnMissingBean
    StorhMetrics storhMetrics(StorhStores storhStores) {
        return new StorhMetrics(storhStores);
    }

    @Bean
    @ConditionalOnMissingBean(StoreObserver.class)
    StorhOperationMetrics storhOperationMetrics(MeterRegistry registry) {
        return new StorhOperationMetrics(registry);
    }

}
