package dev.storh.spring.boot.autoconfigure;

import java.lang.annotation.Annotation;

import dev.storh.spring.data.repository.config.EnableStorhRepositories;
import dev.storh.spring.data.repository.config.StorhRepositoryConfigurationExtension;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.beans.BeansException;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.support.BeanDefinitionRegistry;
import org.springframework.beans.factory.support.BeanNameGenerator;
import org.springframework.boot.autoconfigure.AutoConfigurationPackages;
import org.springframework.boot.autoconfigure.data.AbstractRepositoryConfigurationSourceSupport;
import org.springframework.core.type.AnnotationMetadata;
import org.springframework.data.repository.config.RepositoryConfigurationExtension;

/**
 * Registers storh repositories found in the auto-configuration packages, with the defaults of
 * {@link EnableStorhRepositories}. Registers nothing when the application has no
 * auto-configuration packages (no {@code @SpringBootApplication} or
 * {@code @AutoConfigurationPackage}).
 */
class StorhRepositoriesAutoConfigureRegistrar extends AbstractRepositoryConfigurationSourceSupport {

    private static final Log logger = LogFactory.getLog(StorhRepositoriesAutoConfigureRegistrar.class);

    private BeanFactory beanFactory;

    @Override
    public void setBeanFactory(BeanFactory beanFactory) throws BeansException {
        super.setBeanFactory(beanFactory);
        this.beanFactory = beanFactory;
    }

    @Override
    public void registerBeanDefinitions(AnnotationMetadata importingClassMetadata, BeanDefinitionRegistry registry,
            BeanNameGenerator importBeanNameGenerator) {
        if (!AutoConfigurationPackages.has(this.beanFactory)) {
            logger.debug("No auto-configuration packages: storh repositories are not scanned");
            return;
        }
        super.registerBeanDefinitions(importingClassMetadata, registry, importBeanNameGenerator);
    }

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
