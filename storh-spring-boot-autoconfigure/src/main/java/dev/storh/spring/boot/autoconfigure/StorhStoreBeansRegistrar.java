package dev.storh.spring.boot.autoconfigure;

import java.util.Map;

import dev.storh.log.LogPartition;
import dev.storh.log.SegmentedLog;
import dev.storh.spring.boot.stores.PartitionedLog;
import dev.storh.queue.Queue;
import dev.storh.spring.boot.stores.StorhStores;

import org.springframework.beans.BeansException;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.BeanFactoryAware;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.beans.factory.support.AutowireCandidateQualifier;
import org.springframework.beans.factory.support.BeanDefinitionRegistry;
import org.springframework.beans.factory.support.RootBeanDefinition;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.context.EnvironmentAware;
import org.springframework.context.annotation.ImportBeanDefinitionRegistrar;
import org.springframework.core.env.Environment;
import org.springframework.core.type.AnnotationMetadata;

/**
 * Registers one {@link SegmentedLog} bean per {@code storh.logs.<name>} (a {@link PartitionedLog}
 * for a log partitioned by date, so that it moves to each new day's or month's partition) and one
 * {@link Queue} bean per {@code storh.queues.<name>}, each named {@code <name>} and qualified
 * {@code <name>}, so {@code @Qualifier("events") SegmentedLog events} injects it. Each is opened by the
 * {@link StorhStores} registry with its configured options when first needed, and closed on
 * context shutdown. A bean the application already defines under that name wins: none is
 * registered then (the registry shows the application's log or queue instead).
 */
class StorhStoreBeansRegistrar implements ImportBeanDefinitionRegistrar, BeanFactoryAware, EnvironmentAware {

    private BeanFactory beanFactory;

    private Environment environment;

    @Override
    public void setBeanFactory(BeanFactory beanFactory) throws BeansException {
        this.beanFactory = beanFactory;
    }

    @Override
    public void setEnvironment(Environment environment) {
        this.environment = environment;
    }

    @Override
    public void registerBeanDefinitions(AnnotationMetadata importingClassMetadata, BeanDefinitionRegistry registry) {
        Binder binder = Binder.get(this.environment);
        Map<String, StorhLogProperties> logs = binder
            .bind("storh.logs", Bindable.mapOf(String.class, StorhLogProperties.class))
            .orElse(Map.of());
        Map<String, StorhQueueProperties> queues = binder
            .bind("storh.queues", Bindable.mapOf(String.class, StorhQueueProperties.class))
            .orElse(Map.of());
        logs.forEach((name, log) -> register(registry, name,
                (log.partition() == LogPartition.NONE) ? SegmentedLog.class : PartitionedLog.class));
        for (String name : queues.keySet()) {
            register(registry, name, Queue.class);
        }
    }

    private void register(BeanDefinitionRegistry registry, String name, Class<?> type) {
        if (registry.containsBeanDefinition(name)) {
            return;
        }
        BeanFactory beanFactory = this.beanFactory;
        RootBeanDefinition definition = new RootBeanDefinition(type);
        definition.setInstanceSupplier(() -> {
            StorhStores stores = beanFactory.getBean(StorhStores.class);
            if (type == PartitionedLog.class) {
                return stores.partitionedLog(name);
            }
            return (type == SegmentedLog.class) ? stores.openLog(name) : stores.queue(name);
        });
        definition.addQualifier(new AutowireCandidateQualifier(Qualifier.class, name));
        registry.registerBeanDefinition(name, definition);
    }

}
