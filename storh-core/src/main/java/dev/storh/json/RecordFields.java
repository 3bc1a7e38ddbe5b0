package dev.storh.json;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.RecordComponent;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The JSON shape of a record: one key per component, named as the component, in declaration
 * order. Values are put as the JSON model holds them: an {@code Integer}, {@code Short} or
 * {@code Byte} becomes a {@code Long}, a {@link JsonShape} becomes its {@link JsonShape#toMap()},
 * a map is copied in order with its values converted the same way; anything else (strings,
 * longs, booleans, lists) is put as it is.
 * <p>
 * Stateless and thread-safe; the components of each record class are looked up once.
 */
public final class RecordFields {

    private static final ClassValue<List<Method>> ACCESSORS = new ClassValue<>() {
        @Override
        protected List<Method> computeValue(Class<?> type) {
            List<Method> accessors = new ArrayList<>();
            for (RecordComponent component : type.getRecordComponents()) {
                Method accessor = component.getAccessor();
                accessor.trySetAccessible();
                accessors.add(accessor);
            }
            return List.copyOf(accessors);
        }
    };

    private RecordFields() {
    }

    /**
     * @param record any record
     * @return a new, modifiable map from each component's name to its value, in declaration order
     * @throws IllegalStateException when a component's accessor cannot be called or throws
     */
    public static Map<String, Object> of(Record record) {
        Map<String, Object> map = new LinkedHashMap<>();
        for (Method accessor : ACCESSORS.get(record.getClass())) {
            map.put(accessor.getName(), model(read(accessor, record)));
        }
        return map;
    }

    private static Object read(Method accessor, Record record) {
        try {
            return accessor.invoke(record);
        } catch (IllegalAccessException | InvocationTargetException e) {
            throw new IllegalStateException("Cannot read component " + accessor.getName() + " of "
                    + record.getClass().getName(), e);
        }
    }

    private static Object model(Object value) {
        if (value instanceof Integer || value instanceof Short || value instanceof Byte) {
            return ((Number) value).longValue();
        }
        if (value instanceof JsonShape shape) {
            return shape.toMap();
        }
        if (value instanceof Map<?, ?> map) {
            Map<Object, Object> copy = new LinkedHashMap<>();
            map.forEach((key, item) -> copy.put(key, model(item)));
            return copy;
        }
        return value;
    }
}
