package dev.storh.spring.data.mapping;

import java.util.concurrent.atomic.AtomicBoolean;

import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.data.annotation.Id;
import org.springframework.data.mapping.Association;
import org.springframework.data.mapping.PersistentEntity;
import org.springframework.data.mapping.model.AnnotationBasedPersistentProperty;
import org.springframework.data.mapping.model.Property;
import org.springframework.data.mapping.model.SimpleTypeHolder;
import org.springframework.util.ReflectionUtils;

/**
 * One property of a storh entity: a record component or a POJO field with its accessors.
 * <p>
 * The id property is the one annotated with {@link Id @Id} or, when no field or method of the
 * type carries {@code @Id}, the property named {@code id}. Its value lives in the record envelope
 * (the file name), not in the stored JSON object. The {@link Indexed @Indexed} declaration is
 * exposed through {@link #isIndexed()}, {@link #isUniqueIndex()} and {@link #isRangeIndex()}.
 * Instances are immutable and thread-safe once created by the mapping context.
 */
public class StorhPersistentProperty extends AnnotationBasedPersistentProperty<StorhPersistentProperty> {

    /** Name of the property that is the id when no property carries {@code @Id}. */
    public static final String DEFAULT_ID_PROPERTY_NAME = "id";

    private final boolean implicitId;

    /**
     * Create the property; called by {@link StorhMappingContext}.
     * @param property the Java property
     * @param owner the entity holding it
     * @param simpleTypeHolder the types stored as plain values
     */
    public StorhPersistentProperty(Property property, PersistentEntity<?, StorhPersistentProperty> owner,
            SimpleTypeHolder simpleTypeHolder) {
        super(property, owner, simpleTypeHolder);
        this.implicitId = DEFAULT_ID_PROPERTY_NAME.equals(getName()) && !hasExplicitId(owner.getType());
    }

    /**
     * Whether this property is the explicit or implicit id.
     * @return {@code true} for a property annotated with {@code @Id} or named {@code id}
     */
    @Override
    public boolean isIdProperty() {
        return this.implicitId || isExplicitIdProperty();
    }

    /**
     * Whether this property carries {@link Id @Id}; an explicit id wins over a property named
     * {@code id}.
     * @return {@code true} when annotated with {@code @Id}
     */
    public boolean isExplicitIdProperty() {
        return isAnnotationPresent(Id.class);
    }

    /**
     * Whether the property carries {@link Indexed @Indexed}.
     * @return {@code true} when an index is declared
     */
    public boolean isIndexed() {
        return isAnnotationPresent(Indexed.class);
    }

    /**
     * Whether the declared index is unique.
     * @return {@code true} for {@code @Indexed(unique = true)}, {@code false} otherwise or without
     * {@code @Indexed}
     */
    public boolean isUniqueIndex() {
        Indexed indexed = findAnnotation(Indexed.class);
        return indexed != null && indexed.unique();
    }

    /**
     * Whether the declared index is a range index.
     * @return {@code true} for {@code @Indexed(range = true)}, {@code false} otherwise or without
     * {@code @Indexed}
     */
    public boolean isRangeIndex() {
        Indexed indexed = findAnnotation(Indexed.class);
        return indexed != null && indexed.range();
    }

    /**
     * Whether the declared index is case-insensitive.
     * @return {@code true} for {@code @Indexed(ignoreCase = true)}, {@code false} otherwise or
     * without {@code @Indexed}
     */
    public boolean isIgnoreCaseIndex() {
        Indexed indexed = findAnnotation(Indexed.class);
        return indexed != null && indexed.ignoreCase();
    }

    private static boolean hasExplicitId(Class<?> type) {
        AtomicBoolean found = new AtomicBoolean();
        ReflectionUtils.doWithFields(type, (field) -> {
            if (AnnotatedElementUtils.hasAnnotation(field, Id.class)) {
                found.set(true);
            }
        });
        ReflectionUtils.doWithMethods(type, (method) -> {
            if (AnnotatedElementUtils.hasAnnotation(method, Id.class)) {
                found.set(true);
            }
        });
        return found.get();
    }

    @Override
    protected Association<StorhPersistentProperty> createAssociation() {
        return new Association<>(this, null);
    }

}
