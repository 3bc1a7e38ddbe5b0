package dev.storh.spring.data.repository.query;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Declares a repository method's query as a JSON filter in MongoDB's style instead of deriving
 * it from the method name, for example
 * {@code @Query("{\"country\": ?0, \"population\": {\"$gt\": ?1}}")}.
 * <p>
 * A filter is a JSON object: each key is a field (dots walk into nested objects, as in
 * {@code "publisher.name"}; the id property or {@code _id} is the record id) mapped to a value
 * (equality, or element match when the field holds a list) or to an object of operators:
 * {@code $eq}, {@code $ne}, {@code $gt}, {@code $gte}, {@code $lt}, {@code $lte}, {@code $in},
 * {@code $nin}, {@code $exists} (a boolean), {@code $regex} (with {@code $options: "i"} to ignore
 * case). {@code $and} and {@code $or} take a list of filters. Values are JSON or parameters:
 * {@code ?0} is the first argument, {@code :name} the argument named {@code name} (its
 * {@code @Param} name or compiled parameter name). The filter is checked when the repository is
 * created: invalid JSON, an unknown operator or a parameter the method does not declare fails at
 * startup naming the method. The query is planned on indexes like a derived query.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target({ ElementType.METHOD, ElementType.ANNOTATION_TYPE })
@Documented
public @interface Query {

    /**
     * @return the JSON filter
     */
    String value();

    /**
     * @return a JSON sort such as {@code {"population": -1, "name": 1}} (1 ascending, -1
     * descending), applied before a {@code Sort} or {@code Pageable} argument; empty for none
     */
    String sort() default "";

    /**
     * @return a JSON projection of the stored fields read into the entities, such as
     * {@code {"title": 1, "publisher.name": 1}} (only those) or {@code {"reviews": 0}} (all but
     * those); the id is always read, fields left out come back {@code null}; empty for every field
     */
    String fields() default "";

    /**
     * @return whether the method returns the number of matches instead of the entities
     */
    boolean count() default false;

    /**
     * @return whether the method returns whether any record matches
     */
    boolean exists() default false;

}
