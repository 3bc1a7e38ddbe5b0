package dev.storh.spring.boot.test.autoconfigure;

import org.springframework.boot.test.context.filter.annotation.StandardAnnotationCustomizableTypeExcludeFilter;

/**
 * Leaves the application's components out of a {@link StorhTest} context, except those its
 * {@code includeFilters} add.
 */
final class StorhTypeExcludeFilter extends StandardAnnotationCustomizableTypeExcludeFilter<StorhTest> {

    StorhTypeExcludeFilter(Class<?> testClass) {
        super(testClass);
    }

}
