package dev.storh.spring.boot.autoconfigure;

import dev.storh.spring.data.repository.StorhRepository;
import dev.storh.spring.data.repository.config.EnableStorhRepositories;
import dev.storh.spring.data.repository.config.StorhRepositoryConfigurationExtension;
import dev.storh.spring.data.repository.support.StorhRepositoryFactoryBean;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Import;

/**
 * Auto-configuration of storh repositories: every storh repository interface in the application's
 * auto-configuration packages (the package of the {@code @SpringBootApplication} class and
 * below) becomes a bean, as if the application declared {@link EnableStorhRepositories}.
 * <p>
 * Backs off when the application declares {@code @EnableStorhRepositories} or its own
 * {@link StorhRepositoryFactoryBean}, and when {@code storh.repositories.enabled} is
 * {@code false}.
 */
@AutoConfiguration(after = StorhAutoConfiguration.class)
@ConditionalOnClass(StorhRepository.class)
@ConditionalOnMissingBean({ StorhRepositoryFactoryBean.class, StorhRepositoryConfigurationExtension.class })
@ConditionalOnBooleanProperty(name = "storh.repositories.enabled", matchIfMissing = true)
@Import(StorhRepositoriesAutoConfigureRegistrar.class)
public final class StorhRepositoriesAutoConfiguration {

}
