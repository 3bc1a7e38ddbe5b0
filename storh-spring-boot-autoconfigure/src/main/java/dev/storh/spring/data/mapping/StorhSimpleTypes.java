package dev.storh.spring.data.mapping;

import java.util.Collection;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;

import org.springframework.data.mapping.model.SimpleTypeHolder;

/**
 * The types storh stores as one JSON value rather than as a nested object with properties of its
 * own: Spring Data's defaults (primitives and their wrappers, {@code String}, enums, ...), every
 * {@link Number} ({@code BigDecimal}, {@code BigInteger}, {@code AtomicLong}, ...), {@code UUID},
 * and every other JDK type ({@code java.*}, {@code javax.*}: {@code java.time} types,
 * {@code Currency}, {@code Locale}, {@code URI}, {@code URL}, {@code ZoneId}, ...) except
 * collections, maps, arrays and {@code Optional}, whose elements are looked at instead. Jackson
 * writes these as JSON scalars (or, for a JDK type Jackson writes as an object, as that object),
 * and Spring Data never creates a persistent entity for them, so auditing and property paths
 * stop there. Immutable and thread-safe.
 */
public final class StorhSimpleTypes extends SimpleTypeHolder {

    /** The shared instance. */
    public static final StorhSimpleTypes INSTANCE = new StorhSimpleTypes();

    private StorhSimpleTypes() {
        super(Set.of(Number.class, UUID.class), true);
    }

    @Override
    public boolean isSimpleType(Class<?> type) {
        if (super.isSimpleType(type)) {
            return true;
        }
        if (type.isArray() || Collection.class.isAssignableFrom(type) || Map.class.isAssignableFrom(type)
                || Iterable.class.isAssignableFrom(type) || Optional.class == type) {
            return false;
        }
        String name = type.getName();
        return name.startsWith("java.") || name.startsWith("javax.");
    }

}
