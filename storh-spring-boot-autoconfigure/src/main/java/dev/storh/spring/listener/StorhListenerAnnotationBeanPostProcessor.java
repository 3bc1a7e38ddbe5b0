package dev.storh.spring.listener;

import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import org.springframework.aop.support.AopUtils;
import org.springframework.beans.BeansException;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.BeanFactoryAware;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.beans.factory.config.ConfigurableBeanFactory;
import org.springframework.core.MethodIntrospector;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.AnnotatedElementUtils;

/**
 * Finds {@link StorhListener} methods on every bean and, once all singletons exist, registers a
 * container for each through the {@link StorhListenerEndpointRegistrar} bean. Attributes may use
 * {@code ${...}} placeholders. Classes without the annotation are remembered, so each class is
 * inspected once. Thread-safe.
 */
public class StorhListenerAnnotationBeanPostProcessor
        implements BeanPostProcessor, BeanFactoryAware, SmartInitializingSingleton, Ordered {

    private final Set<Class<?>> nonAnnotatedClasses = ConcurrentHashMap.newKeySet();

    private final List<StorhListenerEndpoint> endpoints = new ArrayList<>();

    private BeanFactory beanFactory;

    private volatile boolean singletonsReady;

    @Override
    public void setBeanFactory(BeanFactory beanFactory) throws BeansException {
        this.beanFactory = beanFactory;
    }

    @Override
    public int getOrder() {
        return LOWEST_PRECEDENCE;
    }

    @Override
    public Object postProcessAfterInitialization(Object bean, String beanName) throws BeansException {
        Class<?> targetClass = AopUtils.getTargetClass(bean);
        if (this.nonAnnotatedClasses.contains(targetClass)) {
            return bean;
        }
        Map<Method, StorhListener> annotated = MethodIntrospector.selectMethods(targetClass,
                (MethodIntrospector.MetadataLookup<StorhListener>) (method) -> AnnotatedElementUtils
                    .findMergedAnnotation(method, StorhListener.class));
        if (annotated.isEmpty()) {
            this.nonAnnotatedClasses.add(targetClass);
            return bean;
        }
        annotated.forEach((method, annotation) -> {
            Method invocable = AopUtils.selectInvocableMethod(method, bean.getClass());
            String id = resolve(annotation.id());
            StorhListenerEndpoint endpoint = new StorhListenerEndpoint(
                    id.isEmpty() ? beanName + "." + method.getName() : id, resolve(annotation.queue()), bean,
                    invocable, resolve(annotation.concurrency()), resolve(annotation.batchSize()),
                    resolve(annotation.maxAttempts()), resolve(annotation.backoff()),
                    resolve(annotation.deadLetterQueue()), resolve(annotation.autoStartup()));
            if (this.singletonsReady) {
                // a lazy bean created later
                this.beanFactory.getBean(StorhListenerEndpointRegistrar.class).register(endpoint);
                return;
            }
            synchronized (this.endpoints) {
                this.endpoints.add(endpoint);
            }
        });
        return bean;
    }

    @Override
    public void afterSingletonsInstantiated() {
        List<StorhListenerEndpoint> found;
        this.singletonsReady = true;
        synchronized (this.endpoints) {
            found = List.copyOf(this.endpoints);
            this.endpoints.clear();
        }
        if (found.isEmpty()) {
            return;
        }
        StorhListenerEndpointRegistrar registrar = this.beanFactory.getBean(StorhListenerEndpointRegistrar.class);
        found.forEach(registrar::register);
    }

    private String resolve(String value) {
        if (value == null || value.isEmpty()) {
            return "";
        }
        String resolved = (this.beanFactory instanceof ConfigurableBeanFactory configurable)
                ? configurable.resolveEmbeddedValue(value) : value;
        return (resolved != null) ? resolved.trim() : "";
    }

}
