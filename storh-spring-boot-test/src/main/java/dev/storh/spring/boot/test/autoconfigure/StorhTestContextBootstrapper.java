package dev.storh.spring.boot.test.autoconfigure;

import org.springframework.boot.test.context.SpringBootTestContextBootstrapper;
import org.springframework.core.annotation.MergedAnnotations;
import org.springframework.core.annotation.MergedAnnotations.SearchStrategy;

/**
 * Bootstraps a {@link StorhTest}: a Spring Boot test context with the annotation's
 * {@code properties}.
 */
class StorhTestContextBootstrapper extends SpringBootTestContextBootstrapper {

    @Override
    protected String[] getProperties(Class<?> testClass) {
        return MergedAnnotations.from(testClass, SearchStrategy.INHERITED_ANNOTATIONS)
            .get(StorhTest.class)
            .getValue("properties", String[].class)
            .orElse(null);
    }

}
