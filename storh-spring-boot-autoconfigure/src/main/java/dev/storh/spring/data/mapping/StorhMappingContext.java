package dev.storh.spring.data.mapping;

import org.springframework.data.core.TypeInformation;
import org.springframework.data.mapping.context.AbstractMappingContext;
import org.springframework.data.mapping.model.Property;
import org.springframework.data.mapping.model.SimpleTypeHolder;

/**
 * Spring Data mapping context for storh: builds and caches a {@link StorhPersistentEntity} per
 * Java type on first use. Thread-safe; one instance is shared by the template and all
 * repositories.
 */
public class StorhMappingContext extends AbstractMappingContext<StorhPersistentEntity<?>, StorhPersistentProperty> {

	@Override
	protected <T> StorhPersistentEntity<?> createPersistentEntity(TypeInformation<T> typeInformation) {
		return new StorhPersistentEntity<>(typeInformation);
	}

	@Override
	protected StorhPersistentProperty createPersistentProperty(Property property, StorhPersistentEntity<?> owner,
			SimpleTypeHolder simpleTypeHolder) {
		return new StorhPersistentProperty(property, owner, simpleTypeHolder);
	}

}
