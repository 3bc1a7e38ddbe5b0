package dev.storh.spring.boot.test.autoconfigure;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.test.autoconfigure.OverrideAutoConfiguration;
import org.springframework.boot.test.context.filter.annotation.TypeExcludeFilters;
import org.springframework.context.annotation.ComponentScan.Filter;
import org.springframework.core.annotation.AliasFor;
import org.springframework.test.context.BootstrapWith;
import org.springframework.test.context.junit.jupiter.SpringExtension;

/**
 * A storh test slice, like {@code @DataMongoTest}: only storh's auto-configuration (stores,
 * template, repositories, logs, queues, scheduled verify, background maintenance) is applied, no other
 * {@code @Component} is scanned, and {@code storh.root} is a fresh temporary folder, deleted when
 * the test context closes. Properties given here, in {@code @TestPropertySource} or by a
 * {@code @DynamicPropertySource} override the temporary root.
 * <pre>
 * &#64;StorhTest(properties = "storh.logs.events.max-segment-bytes=4KB")
 * class CityRepositoryTests {
 *     &#64;Autowired CityRepository cities;
 *     &#64;Autowired &#64;Qualifier("events") SegmentedLog events;
 * }
 * </pre>
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
@BootstrapWith(StorhTestContextBootstrapper.class)
@ExtendWith(SpringExtension.class)
@OverrideAutoConfiguration(enabled = false)
@TypeExcludeFilters(StorhTypeExcludeFilter.class)
@AutoConfigureStorh
@ImportAutoConfiguration
public @interface StorhTest {

    /**
     * @return properties in {@code key=value} form added to the environment before the test
     * runs
     */
    String[] properties() default {};

    /**
     * @return whether default component scanning filters apply (none of the application's
     * components are included by default)
     */
    boolean useDefaultFilters() default true;

    /**
     * @return filters of components to add to the application context
     */
    Filter[] includeFilters() default {};

    /**
     * @return filters of components to leave out of the application context
     */
    Filter[] excludeFilters() default {};

    /**
     * @return auto-configuration classes to leave out for this test
     */
    @AliasFor(annotation = ImportAutoConfiguration.class, attribute = "exclude")
    Class<?>[] excludeAutoConfiguration() default {};

}
