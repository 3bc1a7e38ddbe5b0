package dev.storh.spring.data.core;

import java.lang.reflect.RecordComponent;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.temporal.TemporalAccessor;
import java.time.temporal.TemporalAmount;
import java.util.HashSet;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.BiFunction;

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
 * read, since a caller may modify what it got.
 * <p>
 * The cache is a table of {@value #MAX_ENTRIES} slots indexed by the record instance's identity
 * hash: a record's entity sits in its slot or one of the next three, so a read costs at most four
 * identity comparisons (no hashing of the record, no map); when all four are taken, a new entry
 * replaces one of them at random, and a record whose entry was replaced is converted again. Each
 * slot holds its record and entity strongly until another record takes it, so the cache keeps at
 * most {@value #MAX_ENTRIES} records and their entities alive. Thread-safe: a slot is replaced as
 * a whole by an immutable entry, and a lost race only costs a conversion.
 */
final class EntityReadCache {

    /** The most entities kept: the number of slots, a power of two. */
    static final int MAX_ENTRIES = 16_384;

    /** The slots a record's entity may take: the one of its identity hash and the next ones. */
    private static final int WAYS = 4;

    private static final Set<Class<?>> IMMUTABLE_VALUES = Set.of(String.class, Boolean.class, Character.class,
            Byte.class, Short.class, Integer.class, Long.class, Float.class, Double.class, BigDecimal.class,
            BigInteger.class, UUID.class);

    private static final ClassValue<Boolean> CACHEABLE = new ClassValue<>() {
        @Override
        protected Boolean computeValue(Class<?> type) {
            return immutableRecord(type, new HashSet<>());
        }
    };

    private final Entry[] slots = new Entry[MAX_ENTRIES];

    /** A record instance, the type it was read as and the entity read. */
    private record Entry(StorageRecord record, Class<?> type, Object entity) {
    }

    /**
     * @param <T> the entity type
     * @param type the entity type
     * @param record a stored record
     * @param read converts the record to a new entity of the type
     * @return the entity read from this record instance before as this type, or a new one
     */
    <T> T read(Class<T> type, StorageRecord record, BiFunction<Class<?>, StorageRecord, Object> read) {
        if (!CACHEABLE.get(type)) {
            return type.cast(read.apply(type, record));
        }
        int home = System.identityHashCode(record);
        for (int probe = 0; probe < WAYS; probe++) {
            Entry known = this.slots[(home + probe) & (MAX_ENTRIES - 1)];
            if (known != null && known.record() == record && known.type() == type) {
                return type.cast(known.entity());
            }
        }
        T entity = type.cast(read.apply(type, record));
        if (entity != null && entity.getClass() == type) {
            this.slots[(home + freeWay(home)) & (MAX_ENTRIES - 1)] = new Entry(record, type, entity);
        }
        return entity;
    }

    /** @return the first empty one of a record's slots, or a random one of them when all are taken */
    private int freeWay(int home) {
        for (int probe = 0; probe < WAYS; probe++) {
            if (this.slots[(home + probe) & (MAX_ENTRIES - 1)] == null) {
                return probe;
            }
        }
        return ThreadLocalRandom.current().nextInt(WAYS);
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
