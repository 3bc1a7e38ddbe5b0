package dev.storh.spring.data.core;

import java.lang.reflect.RecordComponent;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.temporal.TemporalAccessor;
import java.time.temporal.TemporalAmount;
import java.util.HashSet;
import java.util.Set;
import java.util.UUID;
import java.util.function.Function;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.storh.StorageRecord;

/**
 * Entities already read from stored records, kept per record instance, so that reading the same
 * record again hands out the same entity without converting it again. A {@code DocStore} hands
 * out one {@link StorageRecord} instance for a record file until the file changes (its record
 * cache), and a changed or re-read file gives a new instance, which is a new key here: an entity
 * is never served for a record it was not read from.
 * <p>
 * Only entities that cannot change after they are read are kept: Java records whose components
 * are all immutable values (primitives and their wrappers, {@code String}, {@code BigDecimal},
 * {@code BigInteger}, {@code UUID}, enums, {@code java.time} values, and nested records of such
 * components). Other types (beans, records holding lists, maps or arrays) are converted on every
 * read, since a caller may modify what it got. Keys are held weakly (by identity, as the record
 * cache holds them), and at most {@value #MAX_ENTRIES} entities are kept. Thread-safe.
 */
final class EntityReadCache {

    /** The most entities kept. */
    static final int MAX_ENTRIES = 10_000;

    private static final Set<Class<?>> IMMUTABLE_VALUES = Set.of(String.class, Boolean.class, Character.class,
            Byte.class, Short.class, Integer.class, Long.class, Float.class, Double.class, BigDecimal.class,
            BigInteger.class, UUID.class);

    private static final ClassValue<Boolean> CACHEABLE = new ClassValue<>() {
        @Override
        protected Boolean computeValue(Class<?> type) {
            return immutableRecord(type, new HashSet<>());
        }
    };

    private final Cache<StorageRecord, Object> entities = Caffeine.newBuilder()
        .weakKeys()
        .maximumSize(MAX_ENTRIES)
        .build();

    /**
     * @param <T> the entity type
     * @param type the entity type
     * @param record a stored record
     * @param read converts the record to a new entity
     * @return the entity read from this record instance before as this type, or a new one
     */
    <T> T read(Class<T> type, StorageRecord record, Function<StorageRecord, T> read) {
        if (!CACHEABLE.get(type)) {
            return read.apply(record);
        }
        Object known = this.entities.getIfPresent(record);
        if (known != null && known.getClass() == type) {
            return type.cast(known);
        }
        T entity = read.apply(record);
        if (entity != null && entity.getClass() == type) {
            this.entities.put(record, entity);
        }
        return entity;
    }

    /**
     * @param type a type
     * @return whether the type's instances are kept: a record of immutable values only
     */
    static boolean cacheable(Class<?> type) {
        return CACHEABLE.get(type);
    }

    private static boolean immutableRecord(Class<?> type, Set<Class<?>> visiting) {
        if (!type.isRecord() || !visiting.add(type)) {
            return false;
        }
        for (RecordComponent component : type.getRecordComponents()) {
            Class<?> value = component.getType();
            boolean immutable = value.isPrimitive() || value.isEnum() || IMMUTABLE_VALUES.contains(value)
                    || (value.getName().startsWith("java.time.")
                            && (TemporalAccessor.class.isAssignableFrom(value)
                                    || TemporalAmount.class.isAssignableFrom(value)
                                    || value == java.time.ZoneId.class || value == java.time.ZoneOffset.class))
                    || immutableRecord(value, visiting);
            if (!immutable) {
                return false;
            }
        }
        visiting.remove(type);
        return true;
    }

}
