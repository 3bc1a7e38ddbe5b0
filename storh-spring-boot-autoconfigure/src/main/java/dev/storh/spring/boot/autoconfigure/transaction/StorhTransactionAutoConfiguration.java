package dev.storh.spring.boot.autoconfigure.transaction;

import dev.storh.spring.boot.autoconfigure.StorhAutoConfiguration;
import dev.storh.spring.data.core.StorhOperations;
import dev.storh.spring.transaction.StorhTransactionManager;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.TransactionManager;

/**
 * Auto-configuration of a {@link StorhTransactionManager} named {@code storhTransactionManager}
 * over the {@link StorhOperations} bean (the configured storh root), so {@code @Transactional}
 * and Boot's {@code TransactionTemplate} bean work on storh repositories. Its start rolls forward
 * the transactions a crash interrupted, before the application serves a request. Backs off when
 * the application defines any {@link TransactionManager} (for instance a JDBC one, whose
 * auto-configuration runs first): define a {@code StorhTransactionManager} bean then and name it
 * in {@code @Transactional("…")}.
 */
@AutoConfiguration(after = StorhAutoConfiguration.class,
        afterName = "org.springframework.boot.jdbc.autoconfigure.DataSourceTransactionManagerAutoConfiguration",
        beforeName = "org.springframework.boot.transaction.autoconfigure.TransactionAutoConfiguration")
@ConditionalOnClass({ PlatformTransactionManager.class, StorhTransactionManager.class })
@ConditionalOnBean(StorhOperations.class)
public final class StorhTransactionAutoConfiguration {

    @Bean
    @ConditionalOnMissingBean(TransactionManager.class)
    StorhTransactionManager storhTransactionManager(StorhOperations storhOperations) {
        return new StorhTransactionManager(storhOperations);
    }

}
