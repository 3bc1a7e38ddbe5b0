package dev.storh.spring.boot.autoconfigure;

import java.time.Duration;

import dev.storh.spring.boot.stores.StorhMaintenanceScheduler;
import dev.storh.spring.boot.stores.StorhStores;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

/**
 * Auto-configuration of the background upkeep of every store ({@link StorhMaintenanceScheduler}):
 * log retention every {@code storh.maintenance.retention-interval} (default 1h), requeue of
 * timed-out jobs every {@code storh.maintenance.requeue-interval} (default 1m), and the move of
 * date-partitioned logs to the next partition every
 * {@code storh.maintenance.partition-check-interval} (default 1m). On unless
 * {@code storh.maintenance.enabled} is {@code false}; backs off when the application defines its
 * own {@link StorhMaintenanceScheduler}.
 */
@AutoConfiguration(after = StorhAutoConfiguration.class)
@ConditionalOnBean(StorhStores.class)
@ConditionalOnBooleanProperty(name = "storh.maintenance.enabled", matchIfMissing = true)
public final class StorhMaintenanceAutoConfiguration {

    @Bean
    @ConditionalOnMissingBean
    StorhMaintenanceScheduler storhMaintenanceScheduler(StorhStores storhStores, StorhProperties properties) {
        StorhMaintenanceProperties maintenance = properties.maintenance();
        check("retention-interval", maintenance.retentionInterval());
        check("requeue-interval", maintenance.requeueInterval());
        check("partition-check-interval", maintenance.partitionCheckInterval());
        return new StorhMaintenanceScheduler(storhStores, maintenance.retentionInterval(),
                maintenance.requeueInterval(), maintenance.partitionCheckInterval());
    }

    private static void check(String name, Duration interval) {
        if (interval == null || !positive(interval)) {
            throw new InvalidStorhPropertyException("storh.maintenance." + name, interval,
                    "The interval must be positive (e.g. 1m).");
        }
    }

    private static boolean positive(Duration interval) {
        return !interval.isNegative() && !interval.isZero();
    }

}
