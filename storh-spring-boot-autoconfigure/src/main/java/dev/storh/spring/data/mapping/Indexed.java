package dev.storh.spring.data.mapping;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Declares a storh index on a property of a {@link Document} entity (spec/indexes-queries-schema.md).
 * <p>
 * The declaration is recorded by the mapping context
 * ({@link StorhPersistentProperty#isIndexed()}, {@link StorhPersistentProperty#isUniqueIndex()},
 * {@link StorhPersistentProperty#isRangeIndex()}); this version does not yet create the index
 * files, and derived queries scan the collection.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target({ ElementType.FIELD, ElementType.METHOD, ElementType.RECORD_COMPONENT, ElementType.ANNOTATION_TYPE })
public @interface Indexed {

	/**
	 * Whether no two records may hold the same value of this property.
	 * @return {@code true} for a unique index
	 */
	boolean unique() default false;

	/**
	 * Whether the index also keeps values in order, for greater-than, less-than, between and
	 * prefix conditions and for sorting.
	 * @return {@code true} for a range index
	 */
	boolean range() default false;

}
