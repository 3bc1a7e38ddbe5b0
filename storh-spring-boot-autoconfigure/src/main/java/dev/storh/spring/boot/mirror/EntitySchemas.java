package dev.storh.spring.boot.mirror;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.Set;

import dev.storh.schema.Schema;
import dev.storh.spring.data.mapping.StorhMappingContext;
import dev.storh.spring.data.mapping.StorhPersistentEntity;
import dev.storh.spring.data.mapping.StorhPersistentProperty;

/**
 * The mirror schema of a collection from its mapped entity: every non-id property of a simple
 * type becomes a typed column ({@code String} and enums → string, whole numbers → int, other
 * numbers → float, {@code boolean} → bool), indexed as its {@code @Indexed} says.
 */
final class EntitySchemas {

    private static final Set<Class<?>> INTEGERS = Set.of(int.class, long.class, short.class, byte.class, Integer.class,
            Long.class, Short.class, Byte.class, BigInteger.class);

    private static final Set<Class<?>> NUMBERS = Set.of(double.class, float.class, Double.class, Float.class,
            BigDecimal.class);

    private EntitySchemas() {
    }

    /**
     * @param context the mapping context, holding the entities of the application's repositories
     * @param collection a collection name
     * @return the schema of the first document entity stored in that collection, or {@code null}
     */
    static Schema of(StorhMappingContext context, String collection) {
        for (StorhPersistentEntity<?> entity : context.getPersistentEntities()) {
            if (entity.isDocument() && collection.equals(entity.getCollection())) {
                return of(entity, collection);
            }
        }
        return null;
    }

    private static Schema of(StorhPersistentEntity<?> entity, String collection) {
        Schema[] schema = { Schema.collection(collection) };
        entity.doWithProperties((StorhPersistentProperty p) -> {
            if (p.isIdProperty() || p.isTransient() || !p.getName().matches("[A-Za-z][A-Za-z0-9_]*")
                    || Set.of("hash", "data").contains(p.getName().toLowerCase(java.util.Locale.ROOT))) {
                return;
            }
            Class<?> type = p.getType();
            Schema.FieldStep step;
            if (type == String.class || type.isEnum()) {
                step = schema[0].string(p.getName());
            }
            else if (INTEGERS.contains(type)) {
                step = schema[0].integer(p.getName());
            }
            else if (NUMBERS.contains(type)) {
                step = schema[0].number(p.getName());
            }
            else if (type == boolean.class || type == Boolean.class) {
                step = schema[0].bool(p.getName());
            }
            else {
                return;
            }
            schema[0] = p.isUniqueIndex() ? step.unique()
                    : p.isRangeIndex() ? step.range() : p.isIndexed() ? step.index() : step.done();
        });
        return schema[0];
    }

}
