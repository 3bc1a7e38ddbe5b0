package dev.storh.spring.boot.test.autoconfigure;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import org.springframework.boot.autoconfigure.ImportAutoConfiguration;

/**
 * Applies storh's auto-configuration to a test, as {@link StorhTest} does; use it alone to add
 * storh to another slice. The classes are listed in
 * {@code META-INF/spring/dev.storh.spring.boot.test.autoconfigure.AutoConfigureStorh.imports}.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
@ImportAutoConfiguration
public @interface AutoConfigureStorh {

}
