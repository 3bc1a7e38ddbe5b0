package dev.storh.spring.data.mapping;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Declares a storh index on a property of a {@link Document} entity.
 * <p>
 * The template declares every {@code @Indexed} property of an entity on its collection's
 * {@code IndexManager} ({@code defineField(name, unique, range)} then {@code sync()}, which builds
 * the index from the stored records when the set of definitions changed) the first time it uses
 * the collection for that entity type, so derived queries on the property are answered from the
 * index: equality and {@code In} from any index; {@code GreaterThan}, {@code LessThan},
 * {@code Between}, {@code StartingWith} and {@code OrderBy} with a limit from a range index.
 * The index is on the top-level JSON key named like the property.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target({ ElementType.FIELD, ElementType.METHOD, ElementType.RECORD_COMPONENT, ElementType.ANNOTATION_TYPE })
public @interface Indexed {

    /**
     * Whether no two records may hold the same value of this property; a save that would break
     * it fails with {@code DuplicateKeyException} naming the field, value and holder, and writes
     * nothing.
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
