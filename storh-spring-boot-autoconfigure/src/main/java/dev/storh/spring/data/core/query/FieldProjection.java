package dev.storh.spring.data.core.query;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.springframework.util.Assert;

/**
 * Which stored fields a query reads into its entities, in MongoDB's projection style: either
 * only the listed fields ({@link #include}) or all but them ({@link #exclude}). Fields are paths
 * with dots walking into nested objects ({@code publisher.name}); the record id is always kept.
 * Properties left out come back as {@code null} (or the type's default). Immutable and
 * thread-safe.
 */
public final class FieldProjection {

    private final Set<String> fields;

    private final boolean including;

    private FieldProjection(Set<String> fields, boolean including) {
        this.fields = Set.copyOf(fields);
        this.including = including;
    }

    /**
     * @param fields the paths to keep; not empty
     * @return a projection keeping only those fields
     */
    public static FieldProjection include(Set<String> fields) {
        Assert.notEmpty(fields, "'fields' must not be empty");
        return new FieldProjection(fields, true);
    }

    /**
     * @param fields the paths to leave out; not empty
     * @return a projection keeping every other field
     */
    public static FieldProjection exclude(Set<String> fields) {
        Assert.notEmpty(fields, "'fields' must not be empty");
        return new FieldProjection(fields, false);
    }

    /**
     * @return the listed paths
     */
    public Set<String> getFields() {
        return this.fields;
    }

    /**
     * @return whether the listed paths are kept ({@code true}) or left out
     */
    public boolean isIncluding() {
        return this.including;
    }

    /**
     * @param data a stored JSON object
     * @return a new object with the projection applied; {@code data} is not changed
     */
    public Map<String, Object> apply(Map<String, Object> data) {
        Map<String, Object> result = this.including ? new LinkedHashMap<>() : deepCopy(data);
        for (String field : this.fields) {
            List<String> path = List.of(field.split("\\.", -1));
            if (this.including) {
                copyPath(data, result, path);
            }
            else {
                removePath(result, path);
            }
        }
        return result;
    }

    @SuppressWarnings("unchecked")
    private static void copyPath(Map<String, Object> from, Map<String, Object> to, List<String> path) {
        String key = path.get(0);
        if (!from.containsKey(key)) {
            return;
        }
        Object value = from.get(key);
        if (path.size() == 1 || !(value instanceof Map<?, ?>)) {
            if (path.size() == 1) {
                to.put(key, value);
            }
            return;
        }
        Object existing = to.get(key);
        Map<String, Object> target = (existing instanceof Map<?, ?>) ? (Map<String, Object>) existing
                : new LinkedHashMap<>();
        to.put(key, target);
        copyPath((Map<String, Object>) value, target, path.subList(1, path.size()));
    }

    @SuppressWarnings("unchecked")
    private static void removePath(Map<String, Object> data, List<String> path) {
        if (path.size() == 1) {
            data.remove(path.get(0));
            return;
        }
        if (data.get(path.get(0)) instanceof Map<?, ?> nested) {
            removePath((Map<String, Object>) nested, path.subList(1, path.size()));
        }
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> deepCopy(Map<String, Object> data) {
        Map<String, Object> copy = new LinkedHashMap<>();
        data.forEach((key, value) -> copy.put(key,
                (value instanceof Map<?, ?> nested) ? deepCopy((Map<String, Object>) nested) : value));
        return copy;
    }

    @Override
    public String toString() {
        return (this.including ? "include " : "exclude ") + this.fields;
    }

}
