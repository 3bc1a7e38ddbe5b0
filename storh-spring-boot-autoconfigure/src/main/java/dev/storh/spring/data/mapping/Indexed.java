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
 * <p>
 * On a top-level scalar property the index is the original's, on the JSON key named like the
 * property. Storh's own path indexes serve the rest: a property of a nested object
 * ({@code Publisher.name}, queried as {@code findByPublisherName}) is indexed at its path
 * {@code publisher.name}, also inside a collection of objects ({@code reviews.rating}); a collection
 * of scalars ({@code List<String> tags}) gets one entry per element, for {@code findByTags("rare")}
 * and {@code findByTagsContaining("rare")}; {@code ignoreCase = true} indexes text case-folded
 * (per {@code Locale.ROOT}), for {@code IgnoreCase} equality and {@code StartingWithIgnoreCase}.
 * See {@code docs/indexes.md}.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target({ ElementType.FIELD, ElementType.METHOD, ElementType.RECORD_COMPONENT, ElementType.ANNOTATION_TYPE })
public @interface Indexed {

    /**
     * Whether no two records may hold the same value of this property; a save that would break
     * it fails with {@code DuplicateKeyException} naming the field, value and holder, and writes
     * nothing. Any number of records may leave the property {@code null} (a {@code null} top-level
     * property is not stored) or lack it: the uniqueness is kept by a path index that never checks
     * {@code null} or a missing value, beside the original's index on the property (itself unique
     * unless {@code range} is set, so that the original pairs it in no compound index).
     * @return {@code true} for a unique index
     */
    boolean unique() default false;

    /**
     * Whether text is indexed case-folded (upper then lower case in {@code Locale.ROOT}), so that
     * {@code IgnoreCase} equality, {@code In} and {@code StartingWithIgnoreCase} are answered from
     * the index; with {@code unique}, two values differing only in case collide. Such an index
     * keeps no case-sensitive order: it serves no range condition.
     * @return {@code true} for a case-insensitive index
     */
    boolean ignoreCase() default false;

    /**
     * Whether the index also keeps values in order, for greater-than, less-than, between and
     * prefix conditions and for sorting.
     * @return {@code true} for a range index
     */
    boolean range() default false;

}
