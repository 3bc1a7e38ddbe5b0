package dev.storh.spring.data.repository.config;

import java.lang.annotation.Annotation;

import org.springframework.data.repository.config.RepositoryBeanDefinitionRegistrarSupport;
import org.springframework.data.repository.config.RepositoryConfigurationExtension;

/**
 * Registers the repository beans for {@link EnableStorhRepositories}.
 */
public class StorhRepositoriesRegistrar extends RepositoryBeanDefinitionRegistrarSupport {

    @Override
    protected Class<? extends Annotation> getAnnotation() {
        return EnableStorhRepositories.class;
    }

    @Override
    protected RepositoryConfigurationExtension getExtension() {
        return new StorhRepositoryConfigurationExtension();
    }

}
