package dev.storh.spring.data.mapping;

import java.util.LinkedHashSet;
import java.util.Set;
import java.util.UUID;

import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.data.annotation.Transient;
import org.springframework.data.core.TypeInformation;
import org.springframework.data.mapping.MappingException;
import org.springframework.data.mapping.model.BasicPersistentEntity;
import org.springframework.util.ReflectionUtils;
import org.springframework.util.StringUtils;

/**
 * Mapping metadata of one Java type stored by storh: its collection name and its properties.
 * <p>
 * The collection is {@link Document#collection()} or, when that is empty or the type is not
 * annotated, the simple class name with its first letter in lower case ({@code City} →
 * {@code city}). A type used as a document must have a {@code String} id property (see
 * {@link #getRequiredDocumentIdProperty()}); nested value types need no id. An optional
 * {@code @Version} property must be a {@code long} or {@code Long}
 * ({@link #getDocumentVersionProperty()}). Properties annotated with Spring Data's
 * {@link Transient @Transient} are not stored ({@link #getTransientPropertyNames()}).
 * Instances are thread-safe once created by {@link StorhMappingContext}.
 *
 * @param <T> the mapped type
 */
public class StorhPersistentEntity<T> extends BasicPersistentEntity<T, StorhPersistentProperty> {

    private final String collection;

    private final Set<String> transientPropertyNames;

    /**
     * Create the entity; called by {@link StorhMappingContext}.
     * @param information the type
     * @throws MappingException when {@link Document#collection()} is not a valid collection name
     */
    public StorhPersistentEntity(TypeInformation<T> information) {
        super(information);
        Document document = findAnnotation(Document.class);
        String name = (document != null && StringUtils.hasText(document.collection())) ? document.collection()
                : StringUtils.uncapitalize(information.getType().getSimpleName());
        this.collection = checkCollectionName(name, information.getType());
        Set<String> transientNames = new LinkedHashSet<>();
        ReflectionUtils.doWithFields(information.getType(), (field) -> {
            if (AnnotatedElementUtils.hasAnnotation(field, Transient.class)) {
                transientNames.add(field.getName());
            }
        });
        this.transientPropertyNames = Set.copyOf(transientNames);
    }

    /**
     * Names of the fields annotated with Spring Data's {@link Transient @Transient} (record
     * components included): their values are left out of the stored JSON object and read back
     * as Java defaults. Their JSON names must be their Java names.
     * @return unmodifiable set of field names, empty when none
     */
    public Set<String> getTransientPropertyNames() {
        return this.transientPropertyNames;
    }

    /**
     * The {@code @Version} property, checked to be a {@code long} or {@code Long}.
     * @return the version property, or {@code null} when the type has none
     * @throws MappingException naming the type and property when the version is not a
     * {@code long}/{@code Long}
     */
    public StorhPersistentProperty getDocumentVersionProperty() {
        StorhPersistentProperty version = getVersionProperty();
        if (version != null && version.getType() != Long.class && version.getType() != long.class) {
            throw new MappingException("@Version property '" + version.getName() + "' of " + getType().getName()
                    + " is a " + version.getType().getName() + "; storh versions are long or Long");
        }
        return version;
    }

    /**
     * The collection this type is stored in.
     * @return the collection name, one path segment, never empty
     */
    public String getCollection() {
        return this.collection;
    }

    /**
     * Whether the type carries {@link Document @Document}.
     * @return {@code true} when annotated
     */
    public boolean isDocument() {
        return isAnnotationPresent(Document.class);
    }

    /**
     * The id property, checked for use as a stored document: it must exist and be a
     * {@code String} (a UUIDv7 text) or a {@link UUID} (whose
     * {@link UUID#version()} must then be 7; checked on save).
     * @return the id property, never {@code null}
     * @throws MappingException naming the type when it has no id property or the id is neither a
     * {@code String} nor a {@code UUID}
     */
    public StorhPersistentProperty getRequiredDocumentIdProperty() {
        StorhPersistentProperty id = getIdProperty();
        if (id == null) {
            throw new MappingException("Entity " + getType().getName() + " has no id property: annotate a String "
                    + "property with @org.springframework.data.annotation.Id or name it 'id'");
        }
        if (id.getType() != String.class && id.getType() != UUID.class) {
            throw new MappingException("Id property '" + id.getName() + "' of " + getType().getName() + " is a "
                    + id.getType().getName() + "; storh ids are UUIDv7s, declare it as java.lang.String or java.util.UUID");
        }
        return id;
    }

    /**
     * Checks the mapping once it is complete: every {@link Indexed @Indexed} property must be of a
     * type the index can serve with the answers of a scan (see {@link IndexableTypes}).
     * @throws MappingException naming the property, its type and what to change
     */
    @Override
    public void verify() {
        super.verify();
        doWithProperties((StorhPersistentProperty property) -> {
            if (property.isIndexed() && !property.isIdProperty()) {
                IndexableTypes.check(property);
            }
        });
    }

    /**
     * Picks the id: an {@code @Id} property wins over one merely named {@code id}; two
     * {@code @Id} properties are an error.
     */
    @Override
    protected StorhPersistentProperty returnPropertyIfBetterIdPropertyCandidateOrNull(
            StorhPersistentProperty property) {
        if (!property.isIdProperty()) {
            return null;
        }
        StorhPersistentProperty current = getIdProperty();
        if (current == null || current == property) {
            return property;
        }
        if (current.isExplicitIdProperty() && property.isExplicitIdProperty()) {
            throw new MappingException("Entity " + getType().getName() + " has two @Id properties, '"
                    + current.getName() + "' and '" + property.getName() + "'; keep one");
        }
        return property.isExplicitIdProperty() ? property : null;
    }

    private static String checkCollectionName(String name, Class<?> type) {
        if (name.isBlank() || name.contains("/") || name.contains("\\") || name.startsWith(".")
                || name.indexOf('\0') >= 0 || !name.strip().equals(name)) {
            throw new MappingException("Invalid storh collection name '" + name + "' for " + type.getName()
                    + ": it must be one folder name, not empty, without '/', '\\', NUL, surrounding spaces "
                    + "or a leading '.'");
        }
        return name;
    }

}
