package dev.storh.spring.boot.autoconfigure;

import dev.storh.spring.boot.stores.StorhStores;
import dev.storh.spring.boot.stores.StorhVerifyScheduler;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.AnyNestedCondition;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;

/**
 * Auto-configuration of the scheduled verify of every store ({@link StorhVerifyScheduler}) when
 * {@code storh.verify.cron} or {@code storh.verify.interval} is set; {@code storh.verify.repair}
 * repairs a store whose verify failed. Backs off when the application defines its own
 * {@link StorhVerifyScheduler}.
 */
@AutoConfiguration(after = StorhAutoConfiguration.class)
@ConditionalOnBean(StorhStores.class)
@Conditional(StorhVerifyAutoConfiguration.VerifyScheduleCondition.class)
public final class StorhVerifyAutoConfiguration {

    @Bean
    @ConditionalOnMissingBean
    StorhVerifyScheduler storhVerifyScheduler(StorhStores storhStores, StorhProperties properties) {
        StorhVerifyProperties verify = properties.verify();
        return new StorhVerifyScheduler(storhStores, verify.trigger(), verify.repair());
    }

    /**
     * Matches when {@code storh.verify.cron} or {@code storh.verify.interval} is set.
     */
    static final class VerifyScheduleCondition extends AnyNestedCondition {

        VerifyScheduleCondition() {
            super(ConfigurationPhase.REGISTER_BEAN);
        }

        @ConditionalOnProperty("storh.verify.cron")
        static final class Cron {

        }

        @ConditionalOnProperty("storh.verify.interval")
        static final class Interval {

        }

    }

}
