package dev.storh.spring.data.mapping;

import java.net.URI;
import java.net.URL;
import java.time.temporal.Temporal;
import java.time.temporal.TemporalAmount;
import java.util.Currency;
import java.util.Locale;
import java.util.Set;
import java.util.UUID;

import org.springframework.data.core.TypeInformation;
import org.springframework.data.mapping.context.AbstractMappingContext;
import org.springframework.data.mapping.model.Property;
import org.springframework.data.mapping.model.SimpleTypeHolder;

/**
 * Spring Data mapping context for storh: builds and caches a {@link StorhPersistentEntity} per
 * Java type on first use. JDK value types ({@code java.*} and {@code javax.*}: {@code UUID},
 * {@code java.time} types, {@code URI}, ...) are simple values written by Jackson, never
 * entities. Thread-safe; one instance is shared by the template and all repositories.
 */
public class StorhMappingContext extends AbstractMappingContext<StorhPersistentEntity<?>, StorhPersistentProperty> {

	/**
	 * Create a context whose simple types add {@code UUID}, {@code java.time} types,
	 * {@code Currency}, {@code Locale}, {@code URI} and {@code URL} to Spring Data's defaults.
	 */
	public StorhMappingContext() {
		setSimpleTypeHolder(new SimpleTypeHolder(
				Set.of(UUID.class, Temporal.class, TemporalAmount.class, Currency.class, Locale.class, URI.class,
						URL.class),
				true));
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
