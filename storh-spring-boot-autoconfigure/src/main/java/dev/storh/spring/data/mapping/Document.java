package dev.storh.spring.data.mapping;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import org.springframework.data.annotation.Persistent;

/**
 * Marks a Java record or POJO as stored in one storh {@code DocStore} collection, one JSONC file
 * per instance under {@code <collections folder>/<collection>/data/<bucket>/<id>.jsonc}.
 * <p>
 * The annotation is optional for repositories (an entity without it is stored under the default
 * name) but it marks the type as a storh entity when several Spring Data modules are on the
 * classpath.
 */
@Persistent
@Documented
@Inherited
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
public @interface Document {

    /**
     * The collection name, used verbatim as a folder name below the collections folder. Empty (the
     * default) means the simple class name with its first letter in lower case: {@code City} is
     * stored in {@code city}. A name must be one path segment: not empty, no {@code /} or
     * {@code \}, not {@code .} or {@code ..}, not starting with {@code .}; other names fail when the
     * entity is first mapped.
     * @return the collection name, or empty for the default
     */
    String collection() default "";

}
