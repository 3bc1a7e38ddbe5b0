package dev.storh.query;

import dev.storh.StorageException;
import java.util.List;
import java.util.Map;

/**
 * One condition of a query group: a field, an operator and its operands (already in the JSON
 * model). Matching follows the original's rules (strict, type-sensitive equality, see
 * {@link Values}); the field {@code id}
 * means the record id, which always exists.
 *
 * @param field the top-level field name, or {@code id}
 * @param operator the operator
 * @param values the operands: one for eq/neq/gt/gte/lt/lte/prefix, two for between, any number
 *     for in/notIn, none for exists/missing
 */
public record Condition(String field, Operator operator, List<Object> values) {

    /**
     * @throws StorageException {@code "Query field cannot be empty."}
     */
    public Condition {
        if (field == null || field.isBlank()) {
            throw new StorageException("Query field cannot be empty.");
        }
        values = java.util.Collections.unmodifiableList(new java.util.ArrayList<>(values.stream().map(Values::normalise).toList()));
    }

    /**
     * @return the single operand
     */
    public Object value() {
        return values.get(0);
    }

    /**
     * @param id the record id
     * @param data the record data
     * @return whether the record satisfies this condition
     */
    public boolean matches(String id, Map<String, Object> data) {
        boolean isId = field.equals("id");
        return test(isId || data.containsKey(field), isId ? id : data.get(field));
    }

    /**
     * @param value a present field value
     * @return whether a record whose field holds this value satisfies the condition
     */
    public boolean matchesValue(Object value) {
        return test(true, Values.normalise(value));
    }

    private boolean test(boolean exists, Object actual) {
        switch (operator) {
            case EQ:
                return exists && Values.identical(actual, value());
            case NEQ:
                return !exists || !Values.identical(actual, value());
            case IN:
                return exists && values.stream().anyMatch(v -> Values.identical(actual, v));
            case NOT_IN:
                return !exists || values.stream().noneMatch(v -> Values.identical(actual, v));
            case GT:
                return exists && Values.compare(actual, value()) > 0;
            case GTE:
                return exists && Values.compare(actual, value()) >= 0;
            case LT:
                return exists && Values.compare(actual, value()) < 0;
            case LTE:
                return exists && Values.compare(actual, value()) <= 0;
            case BETWEEN:
                return exists && Values.compare(actual, values.get(0)) >= 0 && Values.compare(actual, values.get(1)) <= 0;
            case EXISTS:
                return exists;
            case MISSING:
                return !exists;
            case PREFIX:
                return exists && actual instanceof String s && value() instanceof String p && s.startsWith(p);
            default:
                throw new StorageException("Unsupported query operator: " + operator);
        }
    }
}
