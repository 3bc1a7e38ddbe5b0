package dev.storh.spring.boot.autoconfigure;

import java.util.HashSet;
import java.util.List;

import javax.sql.DataSource;

import dev.storh.mirror.SqlMirror;
import dev.storh.spring.boot.actuate.StorhMirrorHealthIndicator;
import dev.storh.spring.boot.actuate.StorhMirrorMetrics;
import dev.storh.spring.boot.mirror.StorhMirror;
import dev.storh.spring.boot.mirror.StorhMirrorInitializer;
import dev.storh.spring.boot.mirror.StorhMirrorScheduler;
import dev.storh.spring.boot.mirror.StorhMirrorWriteListener;
import dev.storh.spring.boot.stores.StorhStores;
import dev.storh.spring.data.mapping.StorhMappingContext;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionOutcome;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.autoconfigure.condition.SpringBootCondition;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.health.autoconfigure.contributor.ConditionalOnEnabledHealthIndicator;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.type.AnnotatedTypeMetadata;

/**
 * Auto-configuration of the SQL mirror ({@link StorhMirror}) on the application's
 * {@link DataSource} when {@code storh.mirror.collections} names at least one collection: tables
 * created at startup ({@code storh.mirror.install}), an optional push at startup, a periodic push
 * ({@code storh.mirror.cron} or {@code storh.mirror.interval}), push-on-write
 * ({@code storh.mirror.push-on-write}), health component {@code storhMirror} (last push, drift)
 * and timers {@code storh.mirror.push} / {@code storh.mirror.flush}. Each bean backs off when the
 * application defines its own.
 */
@AutoConfiguration(after = { StorhAutoConfiguration.class, StorhRepositoriesAutoConfiguration.class },
        afterName = "org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration")
@ConditionalOnClass(SqlMirror.class)
@ConditionalOnBean({ DataSource.class, StorhStores.class })
@Conditional(StorhMirrorAutoConfiguration.CollectionsConfigured.class)
@EnableConfigurationProperties(StorhMirrorProperties.class)
public final class StorhMirrorAutoConfiguration {

    @Bean
    @ConditionalOnMissingBean
    StorhMirror storhMirror(DataSource dataSource, StorhMirrorProperties properties) {
        return new StorhMirror(SqlMirror.builder().dataSource(dataSource).prefix(properties.prefix()).build());
    }

    @Bean
    @ConditionalOnMissingBean
    StorhMirrorInitializer storhMirrorInitializer(StorhMirror storhMirror, StorhStores storhStores,
            ObjectProvider<StorhMappingContext> mappingContext, StorhMirrorProperties properties) {
        return new StorhMirrorInitializer(storhMirror, storhStores, mappingContext.getIfAvailable(),
                properties.collections(), properties.install(), properties.pushOnStartup());
    }

    @Bean
    @ConditionalOnMissingBean
    @Conditional(ScheduleConfigured.class)
    StorhMirrorScheduler storhMirrorScheduler(StorhMirror storhMirror, StorhMirrorProperties properties) {
        return new StorhMirrorScheduler(storhMirror, properties.trigger());
    }

    @Bean
    @ConditionalOnMissingBean
    @ConditionalOnBean(StorhMappingContext.class)
    @ConditionalOnProperty(name = "storh.mirror.push-on-write", havingValue = "true")
    StorhMirrorWriteListener storhMirrorWriteListener(StorhMirror storhMirror, StorhMappingContext mappingContext,
            StorhMirrorProperties properties) {
        return new StorhMirrorWriteListener(storhMirror, mappingContext, new HashSet<>(properties.collections()));
    }

    /** Health, read only when {@code spring-boot-health} is present. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(name = "org.springframework.boot.health.contributor.AbstractHealthIndicator")
    @ConditionalOnEnabledHealthIndicator("storhMirror")
    static class HealthConfiguration {

        @Bean
        @ConditionalOnMissingBean(name = "storhMirrorHealthIndicator")
        StorhMirrorHealthIndicator storhMirrorHealthIndicator(StorhMirror storhMirror, StorhMirrorProperties properties) {
            return new StorhMirrorHealthIndicator(storhMirror, properties.healthVerifyMaxAge());
        }

    }

    /** Timers, when Micrometer is present. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(name = "io.micrometer.core.instrument.MeterRegistry")
    static class MetricsConfiguration {

        @Bean
        @ConditionalOnMissingBean
        StorhMirrorMetrics storhMirrorMetrics(StorhMirror storhMirror) {
            return new StorhMirrorMetrics(storhMirror);
        }

    }

    /** Matches when {@code storh.mirror.collections} holds at least one name. */
    static final class CollectionsConfigured extends SpringBootCondition {

        @Override
        public ConditionOutcome getMatchOutcome(ConditionContext context, AnnotatedTypeMetadata metadata) {
            List<String> names = Binder.get(context.getEnvironment())
                .bind("storh.mirror.collections", Bindable.listOf(String.class))
                .orElse(List.of());
            return names.isEmpty() ? ConditionOutcome.noMatch("no storh.mirror.collections")
                    : ConditionOutcome.match("storh.mirror.collections " + names);
        }

    }

    /** Matches when {@code storh.mirror.cron} or {@code storh.mirror.interval} is set. */
    static final class ScheduleConfigured extends SpringBootCondition {

        @Override
        public ConditionOutcome getMatchOutcome(ConditionContext context, AnnotatedTypeMetadata metadata) {
            var env = context.getEnvironment();
            return (env.containsProperty("storh.mirror.cron") || env.containsProperty("storh.mirror.interval"))
                    ? ConditionOutcome.match("storh.mirror schedule set") : ConditionOutcome.noMatch("no storh.mirror schedule");
        }

    }

}
