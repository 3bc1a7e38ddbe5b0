package dev.storh.spring.boot.autoconfigure;

import java.lang.annotation.Annotation;

import dev.storh.spring.data.repository.config.EnableStorhRepositories;
import dev.storh.spring.data.repository.config.StorhRepositoryConfigurationExtension;

import org.springframework.boot.autoconfigure.data.AbstractRepositoryConfigurationSourceSupport;
import org.springframework.data.repository.config.RepositoryConfigurationExtension;

/**
 * Registers storh repositories found in the auto-configuration packages, with the defaults of
 * {@link EnableStorhRepositories}.
 */
class StorhRepositoriesAutoConfigureRegistrar extends AbstractRepositoryConfigurationSourceSupport {

	@Override
	protected Class<? extends Annotation> getAnnotation() {
		return EnableStorhRepositories.class;
	}

	@Override
	protected Class<?> getConfiguration() {
		return EnableStorhRepositoriesConfiguration.class;
	}

	@Override
	protected RepositoryConfigurationExtension getRepositoryConfigurationExtension() {
		return new StorhRepositoryConfigurationExtension();
	}

	@EnableStorhRepositories
	private static final class EnableStorhRepositoriesConfiguration {

	}

}
