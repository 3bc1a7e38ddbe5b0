package dev.storh.spring.data.config;

import java.lang.annotation.Annotation;

import dev.storh.spring.data.core.event.AuditingEntityCallback;

import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.beans.factory.support.BeanDefinitionBuilder;
import org.springframework.beans.factory.support.BeanDefinitionRegistry;
import org.springframework.data.auditing.IsNewAwareAuditingHandler;
import org.springframework.data.auditing.config.AuditingBeanDefinitionRegistrarSupport;
import org.springframework.data.auditing.config.AuditingConfiguration;
import org.springframework.data.config.ParsingUtils;

/**
 * Registers the beans of {@link EnableStorhAuditing}: an {@link IsNewAwareAuditingHandler} named
 * {@code storhAuditingHandler} over the {@code storhMappingContext} bean, and the
 * {@link AuditingEntityCallback} that the template runs before converting an entity.
 */
class StorhAuditingRegistrar extends AuditingBeanDefinitionRegistrarSupport {

    static final String MAPPING_CONTEXT_BEAN_NAME = "storhMappingContext";

    @Override
    protected Class<? extends Annotation> getAnnotation() {
        return EnableStorhAuditing.class;
    }

    @Override
    protected String getAuditingHandlerBeanName() {
        return "storhAuditingHandler";
    }

    @Override
    protected void postProcess(BeanDefinitionBuilder builder, AuditingConfiguration configuration,
            BeanDefinitionRegistry registry) {
        builder.setFactoryMethod("from").addConstructorArgReference(MAPPING_CONTEXT_BEAN_NAME);
    }

    @Override
    protected BeanDefinitionBuilder getAuditHandlerBeanDefinitionBuilder(AuditingConfiguration configuration) {
        return configureDefaultAuditHandlerAttributes(configuration,
                BeanDefinitionBuilder.rootBeanDefinition(IsNewAwareAuditingHandler.class));
    }

    @Override
    protected void registerAuditListenerBeanDefinition(BeanDefinition auditingHandlerDefinition,
            BeanDefinitionRegistry registry) {
        BeanDefinitionBuilder callback = BeanDefinitionBuilder.rootBeanDefinition(AuditingEntityCallback.class);
        callback.addConstructorArgValue(
                ParsingUtils.getObjectFactoryBeanDefinition(getAuditingHandlerBeanName(), registry));
        registerInfrastructureBeanWithId(callback.getBeanDefinition(), AuditingEntityCallback.class.getName(),
                registry);
    }

}
