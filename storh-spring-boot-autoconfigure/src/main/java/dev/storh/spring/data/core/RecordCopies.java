package dev.storh.spring.data.core;

import java.lang.invoke.MethodType;
import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.RecordComponent;
import java.util.Map;

/**
 * New instances of Java records with some components replaced: the canonical constructor gets the
 * replacement values and every other component's current value, read through its accessor. This is
 * how a saved record entity gets its stored id and version, as Spring Data's other modules hand back
 * an immutable entity: the saved instance with those properties set, not one read back from the
 * stored data. The constructor and accessors of each record type are looked up once. Thread-safe.
 */
final class RecordCopies {

    /** A record type's canonical constructor and component accessors, or none when they cannot be called. */
    private record Shape(Constructor<?> canonical, RecordComponent[] components, Method[] accessors) {
    }

    private static final Shape NONE = new Shape(null, new RecordComponent[0], new Method[0]);

    private static final ClassValue<Shape> SHAPES = new ClassValue<>() {
        @Override
        protected Shape computeValue(Class<?> type) {
            return shapeOf(type);
        }
    };

    private RecordCopies() {
    }

    private static Shape shapeOf(Class<?> type) {
        if (!type.isRecord()) {
            return NONE;
        }
        RecordComponent[] components = type.getRecordComponents();
        Class<?>[] types = new Class<?>[components.length];
        Method[] accessors = new Method[components.length];
        try {
            for (int i = 0; i < components.length; i++) {
                types[i] = components[i].getType();
                accessors[i] = components[i].getAccessor();
                accessors[i].setAccessible(true);
            }
            Constructor<?> canonical = type.getDeclaredConstructor(types);
            canonical.setAccessible(true);
            return new Shape(canonical, components, accessors);
        }
        catch (NoSuchMethodException | RuntimeException ex) { // not accessible from here (a module that does not open it)
            return NONE;
        }
    }

    /**
     * @param <T> the record type
     * @param record a record
     * @param replaced component name to its new value; each value must be of the component's type
     * @return a new record with the replaced components and the others as {@code record} holds them,
     * or {@code null} when {@code record} is not a Java record, its constructor or accessors cannot
     * be called from here, a name is not one of its components or a value does not fit its component
     */
    @SuppressWarnings("unchecked")
    static <T> T with(T record, Map<String, Object> replaced) {
        Shape shape = SHAPES.get(record.getClass());
        if (shape == NONE) {
            return null;
        }
        Object[] args = new Object[shape.components().length];
        int found = 0;
        try {
            for (int i = 0; i < args.length; i++) {
                String name = shape.components()[i].getName();
                if (replaced.containsKey(name)) {
                    Object value = replaced.get(name);
                    Class<?> type = shape.components()[i].getType();
                    if (value == null ? type.isPrimitive() : !wrap(type).isInstance(value)) {
                        return null;
                    }
                    args[i] = value;
                    found++;
                }
                else {
                    args[i] = shape.accessors()[i].invoke(record);
                }
            }
            if (found != replaced.size()) {
                return null;
            }
            return (T) shape.canonical().newInstance(args);
        }
        catch (IllegalAccessException | InstantiationException ex) {
            return null;
        }
        catch (InvocationTargetException ex) {
            // an accessor or the constructor threw (a compact constructor's validation): the caller reads instead
            return null;
        }
    }

    /** @return the wrapper class of a primitive type, any other type itself */
    private static Class<?> wrap(Class<?> type) {
        return MethodType.methodType(type).wrap().returnType();
    }
}
