package dev.storh.spring.data.config;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import org.springframework.context.annotation.Import;

/**
 * Turns on Spring Data auditing for storh entities: before each save, properties
 * annotated with {@code @CreatedDate}, {@code @LastModifiedDate}, {@code @CreatedBy} and
 * {@code @LastModifiedBy} are set by an {@code IsNewAwareAuditingHandler} run from the
 * template's {@code BeforeConvertCallback}. Needs the {@code StorhMappingContext} bean named
 * {@code storhMappingContext} (the auto-configuration's). Audited entities must be mutable
 * (setters or non-final fields) or offer withers: a Java record without withers cannot be
 * audited and the save fails naming the property.
 */
@Inherited
@Documented
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Import(StorhAuditingRegistrar.class)
public @interface EnableStorhAuditing {

    /**
     * @return the name of the {@code AuditorAware} bean for {@code @CreatedBy} and
     * {@code @LastModifiedBy}; empty for none
     */
    String auditorAwareRef() default "";

    /**
     * @return whether the creation and modification dates are set
     */
    boolean setDates() default true;

    /**
     * @return whether a new entity's modification date is set too
     */
    boolean modifyOnCreate() default true;

    /**
     * @return the name of the {@code DateTimeProvider} bean; empty for the current time
     */
    String dateTimeProviderRef() default "";

}
