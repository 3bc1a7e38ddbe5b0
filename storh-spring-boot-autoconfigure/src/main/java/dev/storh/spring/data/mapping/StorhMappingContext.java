package dev.storh.spring.data.mapping;

import org.springframework.data.core.TypeInformation;
import org.springframework.data.mapping.context.AbstractMappingContext;
import org.springframework.data.mapping.model.Property;
import org.springframework.data.mapping.model.SimpleTypeHolder;

/**
 * Spring Data mapping context for storh: builds and caches a {@link StorhPersistentEntity} per
 * Java type on first use. JDK value types (see {@link StorhSimpleTypes}: numbers of every width
 * including {@code BigDecimal} and {@code BigInteger}, {@code UUID}, {@code java.time} types,
 * {@code URI}, ...) are simple values written by Jackson as JSON scalars, never entities, so
 * auditing and property paths do not look into them. Thread-safe; one instance is shared by the
 * template and all repositories.
 */
public class StorhMappingContext extends AbstractMappingContext<StorhPersistentEntity<?>, StorhPersistentProperty> {

    /**
     * Create a context whose simple types are {@link StorhSimpleTypes#INSTANCE}.
     */
    public StorhMappingContext() {
        setSimpleTypeHolder(StorhSimpleTypes.INSTANCE);
    }

    @Override
    protected boolean shouldCreatePersistentEntityFor(TypeInformation<?> type) {
        String name = type.getType().getName();
        return !name.startsWith("java.") && !name.startsWith("javax.") && super.shouldCreatePersistentEntityFor(type);
    }

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
