package dev.storh.spring.data.mapping;

import org.springframework.data.core.TypeInformation;
import org.springframework.data.mapping.MappingException;
import org.springframework.data.mapping.model.BasicPersistentEntity;
import org.springframework.util.StringUtils;

/**
 * Mapping metadata of one Java type stored by storh: its collection name and its properties.
 * <p>
 * The collection is {@link Document#collection()} or, when that is empty or the type is not
 * annotated, the simple class name with its first letter in lower case ({@code City} →
 * {@code city}). A type used as a document must have a {@code String} id property (see
 * {@link #getRequiredDocumentIdProperty()}); nested value types need no id.
 * Instances are thread-safe once created by {@link StorhMappingContext}.
 *
 * @param <T> the mapped type
 */
public class StorhPersistentEntity<T> extends BasicPersistentEntity<T, StorhPersistentProperty> {

	private final String collection;

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
	 * {@code String} (a UUIDv7 text, spec/docstore.md §2).
	 * @return the id property, never {@code null}
	 * @throws MappingException naming the type when it has no id property or the id is not a
	 * {@code String}
	 */
	public StorhPersistentProperty getRequiredDocumentIdProperty() {
		StorhPersistentProperty id = getIdProperty();
		if (id == null) {
			throw new MappingException("Entity " + getType().getName() + " has no id property: annotate a String "
					+ "property with @org.springframework.data.annotation.Id or name it 'id'");
		}
		if (id.getType() != String.class) {
			throw new MappingException("Id property '" + id.getName() + "' of " + getType().getName() + " is a "
					+ id.getType().getName() + "; storh ids are UUIDv7 strings, declare it as java.lang.String");
		}
		return id;
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
