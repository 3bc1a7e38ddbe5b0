package dev.storh.spring.data.repository.config;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import dev.storh.spring.data.repository.support.StorhRepositoryFactoryBean;

import org.springframework.beans.factory.FactoryBean;
import org.springframework.context.annotation.ComponentScan.Filter;
import org.springframework.context.annotation.Import;
import org.springframework.data.repository.config.BootstrapMode;
import org.springframework.data.repository.config.DefaultRepositoryBaseClass;
import org.springframework.data.repository.query.QueryLookupStrategy;
import org.springframework.data.repository.query.QueryLookupStrategy.Key;

/**
 * Creates a bean for each storh repository interface ({@code StorhRepository} sub-interface, or a
 * Spring Data repository of a {@code @Document} entity) found in the given packages, or in the
 * annotated class's package when none are given.
 * <p>
 * Optional in a Spring Boot application: the auto-configuration scans the application's packages
 * and backs off when this annotation is present.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
@Import(StorhRepositoriesRegistrar.class)
public @interface EnableStorhRepositories {

    /**
     * Alias for {@link #basePackages()}.
     * @return the base packages
     */
    String[] value() default {};

    /**
     * Packages to scan for repository interfaces, with their sub-packages.
     * @return the base packages
     */
    String[] basePackages() default {};

    /**
     * Type-safe alternative to {@link #basePackages()}: the package of each class is scanned.
     * @return classes whose packages are scanned
     */
    Class<?>[] basePackageClasses() default {};

    /**
     * Types eligible for component scanning, narrowing the base packages.
     * @return include filters
     */
    Filter[] includeFilters() default {};

    /**
     * Types not eligible for component scanning.
     * @return exclude filters
     */
    Filter[] excludeFilters() default {};

    /**
     * Suffix of custom implementation classes of repository fragments.
     * @return the suffix, {@code Impl} by default
     */
    String repositoryImplementationPostfix() default "Impl";

    /**
     * Location of a named-queries properties file; storh has no named queries, the value is
     * accepted for uniformity with other Spring Data modules.
     * @return the location
     */
    String namedQueriesLocation() default "";

    /**
     * How query methods are resolved; storh derives every query from the method name, so
     * {@link Key#USE_DECLARED_QUERY} makes query methods fail.
     * @return the lookup strategy key
     */
    QueryLookupStrategy.Key queryLookupStrategy() default QueryLookupStrategy.Key.CREATE_IF_NOT_FOUND;

    /**
     * The {@link FactoryBean} class creating each repository.
     * @return the factory bean class
     */
    Class<?> repositoryFactoryBeanClass() default StorhRepositoryFactoryBean.class;

    /**
     * The base class of repository implementations; the default is
     * {@code SimpleStorhRepository}.
     * @return the base class
     */
    Class<?> repositoryBaseClass() default DefaultRepositoryBaseClass.class;

    /**
     * Name of the {@code StorhOperations} bean the repositories use.
     * @return the bean name, {@code storhTemplate} by default
     */
    String storhTemplateRef() default "storhTemplate";

    /**
     * Whether repository interfaces nested in other classes are also picked up.
     * @return {@code false} by default
     */
    boolean considerNestedRepositories() default false;

    /**
     * When repositories are initialised.
     * @return the bootstrap mode, {@link BootstrapMode#DEFAULT} (eagerly) by default
     */
    BootstrapMode bootstrapMode() default BootstrapMode.DEFAULT;

}
