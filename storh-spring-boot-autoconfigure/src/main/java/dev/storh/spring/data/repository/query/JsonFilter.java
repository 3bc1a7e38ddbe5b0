package dev.storh.spring.data.repository.query;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.Map;
import java.util.function.Function;
import java.util.function.Predicate;

import dev.storh.query.FieldPath;
import dev.storh.spring.data.core.query.FieldProjection;
import dev.storh.spring.data.core.query.StorhCriteria;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.data.domain.Sort;

/**
 * A parsed {@link Query} filter: MongoDB-style JSON with {@code ?0} and {@code :name} parameter
 * markers, turned into {@link StorhCriteria} once per call. Immutable and thread-safe once
 * parsed.
 */
final class JsonFilter {

    /** The key a parameter marker becomes in the parsed tree. */
    private static final String PARAMETER = "$storh.parameter";

    /** What parameters stand for while a filter is checked: any operand shape is accepted. */
    private static final Object PLACEHOLDER = new Object();

    private static final JsonMapper MAPPER = JsonMapper.builder().build();

    private final Map<String, Object> filter;

    private final String idProperty;

    private final Predicate<String> listField;

    private JsonFilter(Map<String, Object> filter, String idProperty, Predicate<String> listField) {
        this.filter = filter;
        this.idProperty = idProperty;
        this.listField = listField;
    }

    /**
     * @param json the filter
     * @param idProperty the entity's id property name
     * @param listField whether a filter key names a collection property (equality with a single
     * value then matches an element)
     * @param parameters resolves a parameter marker (an index or a name) to its position, or
     * throws {@link IllegalArgumentException} when the method has no such parameter
     * @return the filter, checked by building criteria with placeholder arguments
     * @throws IllegalArgumentException for invalid JSON, an unknown operator or parameter
     */
    static JsonFilter parse(String json, String idProperty, Predicate<String> listField,
            Function<Object, Integer> parameters) {
        JsonFilter parsed = new JsonFilter(readObject(markParameters(json)), idProperty, listField);
        parsed.criteria((marker) -> {
            parameters.apply(marker);
            return PLACEHOLDER;
        });
        return parsed;
    }

    /**
     * @param json a sort such as {@code {"population": -1}}, or empty
     * @return the sort
     * @throws IllegalArgumentException for invalid JSON or a direction other than 1 or -1
     */
    static Sort parseSort(String json) {
        if (json == null || json.isBlank()) {
            return Sort.unsorted();
        }
        List<Sort.Order> orders = new ArrayList<>();
        for (Map.Entry<String, Object> entry : readObject(json).entrySet()) {
            Object direction = entry.getValue();
            if (!(direction instanceof Number n) || (n.intValue() != 1 && n.intValue() != -1)) {
                throw new IllegalArgumentException("sort direction of '" + entry.getKey() + "' must be 1 or -1, got "
                        + direction);
            }
            orders.add((n.intValue() == 1) ? Sort.Order.asc(entry.getKey()) : Sort.Order.desc(entry.getKey()));
        }
        return Sort.by(orders);
    }

    /**
     * @param json a JSON projection such as {@code {"title": 1, "publisher.name": 1}} (1 or
     * {@code true} keeps, 0 or {@code false} leaves out; one kind per projection, except that the id
     * is always kept); blank for none
     * @param idProperty the id property's name, which may be listed with either kind
     * @return the projection, {@code null} when blank
     * @throws IllegalArgumentException when the JSON is no object, a value is not 0, 1 or a
     * boolean, or the kinds are mixed
     */
    static FieldProjection parseFields(String json, String idProperty) {
        if (json == null || json.isBlank()) {
            return null;
        }
        Set<String> included = new LinkedHashSet<>();
        Set<String> excluded = new LinkedHashSet<>();
        for (Map.Entry<String, Object> entry : readObject(json).entrySet()) {
            Object flag = entry.getValue();
            boolean keep;
            if (flag instanceof Boolean b) {
                keep = b;
            }
            else if (flag instanceof Number n && (n.intValue() == 0 || n.intValue() == 1)) {
                keep = n.intValue() == 1;
            }
            else {
                throw new IllegalArgumentException("field '" + entry.getKey() + "' of the projection must be 1, 0, "
                        + "true or false, got " + flag);
            }
            if (!entry.getKey().equals(idProperty) && !entry.getKey().equals("_id")) {
                (keep ? included : excluded).add(entry.getKey());
            }
        }
        if (!included.isEmpty() && !excluded.isEmpty()) {
            throw new IllegalArgumentException("a projection either keeps fields (1) or leaves them out (0), not both: "
                    + "keeps " + included + ", leaves out " + excluded);
        }
        if (included.isEmpty() && excluded.isEmpty()) {
            throw new IllegalArgumentException("a projection must list a field besides the id, got: " + json);
        }
        return included.isEmpty() ? FieldProjection.exclude(excluded) : FieldProjection.include(included);
    }

    /**
     * @param arguments resolves a parameter marker (an index or a name) to the argument's JSON value
     * @return the criteria of this filter with these arguments
     */
    StorhCriteria criteria(Function<Object, Object> arguments) {
        return object(this.filter, arguments);
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> readObject(String json) {
        try {
            Object tree = MAPPER.readValue(json, Object.class);
            if (!(tree instanceof Map<?, ?>)) {
                throw new IllegalArgumentException("a filter must be a JSON object, got: " + json);
            }
            return (Map<String, Object>) tree;
        }
        catch (JacksonException ex) {
            throw new IllegalArgumentException("invalid JSON " + json + ": " + ex.getOriginalMessage(), ex);
        }
    }

    /**
     * Replaces {@code ?0} and {@code :name} outside string literals by marker objects, so the
     * filter parses as JSON.
     */
    static String markParameters(String json) {
        StringBuilder out = new StringBuilder();
        boolean inString = false;
        char previous = 0;
        for (int i = 0; i < json.length(); i++) {
            char c = json.charAt(i);
            if (inString) {
                out.append(c);
                if (c == '\\' && i + 1 < json.length()) {
                    out.append(json.charAt(++i));
                }
                else if (c == '"') {
                    inString = false;
                }
                continue;
            }
            if (c == '"') {
                inString = true;
            }
            else if (c == '?' && i + 1 < json.length() && Character.isDigit(json.charAt(i + 1))
                    || c == ':' && (previous == ':' || previous == '[' || previous == ',') && i + 1 < json.length()
                            && Character.isJavaIdentifierStart(json.charAt(i + 1))) {
                boolean named = c == ':';
                int end = i + 1;
                while (end < json.length() && (named ? Character.isJavaIdentifierPart(json.charAt(end))
                        : Character.isDigit(json.charAt(end)))) {
                    end++;
                }
                String quote = named ? "\"" : "";
                out.append("{\"").append(PARAMETER).append("\":").append(quote).append(json, i + 1, end)
                    .append(quote).append('}');
                i = end - 1;
                previous = '}';
                continue;
            }
            out.append(c);
            if (!Character.isWhitespace(c)) {
                previous = c;
            }
        }
        return out.toString();
    }

    private StorhCriteria object(Map<String, Object> filter, Function<Object, Object> arguments) {
        StorhCriteria result = StorhCriteria.all();
        for (Map.Entry<String, Object> entry : filter.entrySet()) {
            String key = entry.getKey();
            Object value = entry.getValue();
            StorhCriteria next;
            if (key.equals("$and") || key.equals("$or")) {
                if (!(value instanceof List<?> list) || list.isEmpty()) {
                    throw new IllegalArgumentException(key + " needs a non-empty list of filters, got " + value);
                }
                StorhCriteria combined = null;
                for (Object element : list) {
                    if (!(element instanceof Map<?, ?> map) || map.containsKey(PARAMETER)) {
                        throw new IllegalArgumentException(key + " needs filters (JSON objects), got " + element);
                    }
                    @SuppressWarnings("unchecked")
                    StorhCriteria branch = object((Map<String, Object>) map, arguments);
                    combined = (combined == null) ? branch
                            : key.equals("$and") ? combined.and(branch) : combined.or(branch);
                }
                next = combined;
            }
            else if (key.startsWith("$")) {
                throw new IllegalArgumentException("unknown top-level operator " + key
                        + "; supported: $and, $or and fields");
            }
            else {
                next = field(key, value, arguments);
            }
            result = result.and(next);
        }
        return result;
    }

    private FieldPath path(String key) {
        if (key.equals("_id") || key.equals(this.idProperty)) {
            return FieldPath.of("id");
        }
        return FieldPath.parse(key);
    }

    private StorhCriteria field(String key, Object value, Function<Object, Object> arguments) {
        FieldPath path = path(key);
        boolean list = this.listField.test(key);
        if (!(value instanceof Map<?, ?> map) || map.containsKey(PARAMETER)
                || map.keySet().stream().noneMatch((k) -> String.valueOf(k).startsWith("$"))) {
            Object operand = resolve(value, arguments);
            return (operand == null) ? StorhCriteria.where(path).isNull()
                    : (list && !(operand instanceof List<?>)) ? StorhCriteria.where(path).hasElement(operand)
                            : StorhCriteria.where(path).is(operand);
        }
        StorhCriteria result = StorhCriteria.all();
        boolean ignoreCase = "i".equals(map.get("$options"));
        for (Map.Entry<?, ?> operator : map.entrySet()) {
            String name = String.valueOf(operator.getKey());
            Object resolved = resolve(operator.getValue(), arguments);
            Object operand = (resolved != PLACEHOLDER) ? resolved : name.equals("$regex") ? ""
                    : name.equals("$in") || name.equals("$nin") ? List.of() : name.equals("$exists") ? true : resolved;
            StorhCriteria.Field where = StorhCriteria.where(path);
            StorhCriteria next = switch (name) {
                case "$eq" -> (operand == null) ? where.isNull()
                        : (list && !(operand instanceof List<?>)) ? where.hasElement(operand) : where.is(operand);
                case "$ne" -> (operand == null) ? where.isNotNull()
                        : (list && !(operand instanceof List<?>)) ? where.lacksElement(operand) : where.isNot(operand);
                case "$gt" -> where.greaterThan(operand).and(path).isNot(null);
                case "$gte" -> where.greaterThanOrEqual(operand).and(path).isNot(null);
                case "$lt" -> where.lessThan(operand);
                case "$lte" -> where.lessThanOrEqual(operand);
                case "$in" -> where.in(list(name, operand));
                case "$nin" -> where.notIn(list(name, operand));
                case "$exists" -> Boolean.TRUE.equals(operand) ? where.exists()
                        : Boolean.FALSE.equals(operand) ? where.missing() : fail(name + " needs true or false");
                case "$regex" -> (operand instanceof String regex)
                        ? (ignoreCase ? where.ignoreCase().regex(regex) : where.regex(regex))
                        : fail("$regex needs a string, got " + operand);
                case "$options" -> StorhCriteria.all();
                default -> fail("unknown operator " + name + " on field '" + path + "'; supported: $eq, $ne, $gt, "
                        + "$gte, $lt, $lte, $in, $nin, $exists, $regex (with $options \"i\")");
            };
            result = result.and(next);
        }
        return result;
    }

    private static StorhCriteria fail(String reason) {
        throw new IllegalArgumentException(reason);
    }

    private static List<?> list(String operator, Object operand) {
        if (!(operand instanceof List<?> list)) {
            throw new IllegalArgumentException(operator + " needs a list, got " + operand);
        }
        return list;
    }

    private static Object resolve(Object value, Function<Object, Object> arguments) {
        if (value instanceof Map<?, ?> map && map.containsKey(PARAMETER)) {
            return arguments.apply(map.get(PARAMETER));
        }
        if (value instanceof List<?> list) {
            return list.stream().map((element) -> resolve(element, arguments)).toList();
        }
        return value;
    }

}
