package dev.storh.spring.data.repository.config;

import java.lang.annotation.Annotation;
import java.util.Collection;
import java.util.List;

import dev.storh.spring.data.mapping.Document;
import dev.storh.spring.data.repository.StorhRepository;
import dev.storh.spring.data.repository.support.StorhRepositoryFactoryBean;

import org.springframework.beans.factory.support.BeanDefinitionBuilder;
import org.springframework.data.repository.config.AnnotationRepositoryConfigurationSource;
import org.springframework.data.repository.config.RepositoryConfigurationExtensionSupport;
import org.springframework.util.StringUtils;

/**
 * Spring Data configuration extension for storh: module "Storh", repositories of
 * {@link Document @Document} entities or extending {@link StorhRepository}, created by
 * {@link StorhRepositoryFactoryBean} with the {@code StorhOperations} bean named by
 * {@link EnableStorhRepositories#storhTemplateRef()}.
 */
public class StorhRepositoryConfigurationExtension extends RepositoryConfigurationExtensionSupport {

    private static final String STORH_TEMPLATE_REF = "storhTemplateRef";

    private static final String DEFAULT_STORH_TEMPLATE_REF = "storhTemplate";

    @Override
    public String getModuleName() {
        return "Storh";
    }

    @Override
    public String getModuleIdentifier() {
        return "storh";
    }

    @Override
    @SuppressWarnings("deprecation") // still abstract in RepositoryConfigurationExtensionSupport
    protected String getModulePrefix() {
        return getModuleIdentifier();
    }

    @Override
    public String getRepositoryFactoryBeanClassName() {
        return StorhRepositoryFactoryBean.class.getName();
    }

    @Override
    protected Collection<Class<? extends Annotation>> getIdentifyingAnnotations() {
        return List.of(Document.class);
    }

    @Override
    protected Collection<Class<?>> getIdentifyingTypes() {
        return List.of(StorhRepository.class);
    }

    @Override
    public void postProcess(BeanDefinitionBuilder builder, AnnotationRepositoryConfigurationSource config) {
        String ref = config.getAttributes().getString(STORH_TEMPLATE_REF);
        builder.addPropertyReference("storhOperations",
                StringUtils.hasText(ref) ? ref : DEFAULT_STORH_TEMPLATE_REF);
    }

}
