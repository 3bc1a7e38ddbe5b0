package dev.storh.query;

import dev.storh.StorageException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * One condition of a query group: a field path, an operator and its operands (already in the
 * JSON model). Matching follows the original's rules for the original's operators (strict,
 * type-sensitive equality, see {@link Values}); the top-level field {@code id} means the record
 * id, which always exists.
 *
 * <p>A path that reaches several values (through lists) matches when one of them satisfies a
 * positive operator; a negating operator ({@link Operator#negated()}) matches when none satisfies
 * its positive counterpart, so {@code neq} also matches a missing field. With {@code ignoreCase},
 * strings compare after case folding ({@code toUpperCase} then {@code toLowerCase}, both in
 * {@link Locale#ROOT}, so {@code "STRASSE"} equals {@code "straße"}); a regular expression then
 * gets {@link Pattern#CASE_INSENSITIVE} and {@link Pattern#UNICODE_CASE}. Immutable and
 * thread-safe.
 *
 * @param path where the condition looks
 * @param operator the operator
 * @param values the operands: one for most operators, two for between, any number for in/notIn,
 *     none for exists/missing; a string for suffix, contains, like and regex
 * @param ignoreCase whether strings compare case-insensitively (string operators and eq, neq, in,
 *     notIn, has, notHas only)
 */
public record Condition(FieldPath path, Operator operator, List<Object> values, boolean ignoreCase) {

    private static final Map<String, Pattern> PATTERNS = new ConcurrentHashMap<>();
    private static final int PATTERN_CACHE_LIMIT = 512;

    /**
     * @throws StorageException {@code "Query field cannot be empty."}; an operator that needs a
     *     string operand without one, an invalid regular expression, or {@code ignoreCase} on an
     *     operator that does not compare strings, each naming the field
     */
    public Condition {
        if (path == null) {
            throw new StorageException("Query field cannot be empty.");
        }
        if (values.size() == 1) { // most operators: one operand, kept without a list to copy
            values = Collections.singletonList(Values.normalise(values.get(0)));
        } else {
            List<Object> normalised = new ArrayList<>(values.size());
            for (Object v : values) {
                normalised.add(Values.normalise(v));
            }
            values = Collections.unmodifiableList(normalised);
        }
        if (ignoreCase && !operator.foldsCase()) {
            throw new StorageException("Query operator " + operator.label() + " on field " + path
                    + " cannot ignore case: it compares by value order.");
        }
        if (needsPattern(operator)) {
            if (values.size() != 1 || !(values.get(0) instanceof String)) {
                throw new StorageException("Query operator " + operator.label() + " on field " + path
                        + " needs one string operand. Got: " + values);
            }
            pattern(operator, (String) values.get(0), ignoreCase, path);
        }
    }

    /**
     * A case-sensitive condition on a top-level field.
     *
     * @param field the top-level field name, or {@code id}
     * @param operator the operator
     * @param values the operands
     */
    public Condition(String field, Operator operator, List<Object> values) {
        this(topLevel(field), operator, values, false);
    }

    private static FieldPath topLevel(String field) {
        if (field == null || field.isBlank()) {
            throw new StorageException("Query field cannot be empty.");
        }
        return FieldPath.of(field);
    }

    /**
     * @return the top-level key for a top-level path; the keys joined by dots for a nested one
     *     (check {@link FieldPath#nested()} before treating it as a key)
     */
    public String field() {
        return path.nested() ? path.toString() : path.segments().get(0);
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
        if (operator == Operator.EQ && !ignoreCase && path.segments().size() == 1) {
            // The most common condition, a top-level eq on a string or an integer, without the general
            // dispatch: identical to a string means an equal string, to a Long an equal integer once
            // the actual value is normalised (an Integer or a small BigInteger is the same integer).
            Object expected = values.get(0);
            if (expected instanceof String || expected instanceof Long) {
                String key = path.segments().get(0);
                Object actual = key.equals("id") ? id : data.get(key);
                return expected.equals(expected instanceof Long ? Values.normalise(actual) : actual);
            }
        }
        Operator positive = operator.negated();
        if (!path.nested()) {
            String key = path.segments().get(0);
            boolean isId = key.equals("id");
            Object value = isId ? id : data.get(key);
            if (value == null && !isId && !data.containsKey(key)) {
                return positive != null;
            }
            return positive != null ? !test(positive, value) : test(operator, value);
        }
        List<Object> reached = path.resolve(data);
        if (positive != null) {
            for (Object v : reached) {
                if (test(positive, v)) {
                    return false;
                }
            }
            return true;
        }
        for (Object v : reached) {
            if (test(operator, v)) {
                return true;
            }
        }
        return false;
    }

    /**
     * @param value a present field value
     * @return whether a record whose field holds this value satisfies the condition
     */
    public boolean matchesValue(Object value) {
        Object v = Values.normalise(value);
        Operator positive = operator.negated();
        return positive != null ? !test(positive, v) : test(operator, v);
    }

    private boolean same(Object actual, Object expected) {
        if (ignoreCase && actual instanceof String a && expected instanceof String e) {
            return fold(a).equals(fold(e));
        }
        return Values.identical(actual, expected);
    }

    private boolean test(Operator op, Object actual) {
        switch (op) {
            case EQ:
                return same(actual, value());
            case IN:
                return values.stream().anyMatch(v -> same(actual, v));
            case GT:
                return Values.compare(actual, value()) > 0;
            case GTE:
                return Values.compare(actual, value()) >= 0;
            case LT:
                return Values.compare(actual, value()) < 0;
            case LTE:
                return Values.compare(actual, value()) <= 0;
            case BETWEEN:
                return Values.compare(actual, values.get(0)) >= 0 && Values.compare(actual, values.get(1)) <= 0;
            case EXISTS:
                return true;
            case PREFIX:
                return actual instanceof String s && value() instanceof String p
                        && (ignoreCase ? fold(s).startsWith(fold(p)) : s.startsWith(p));
            case SUFFIX:
                return actual instanceof String s && (ignoreCase ? fold(s).endsWith(fold((String) value()))
                        : s.endsWith((String) value()));
            case CONTAINS:
                return actual instanceof String s && (ignoreCase ? fold(s).contains(fold((String) value()))
                        : s.contains((String) value()));
            case LIKE:
                return actual instanceof String s
                        && pattern(op, (String) value(), ignoreCase, path).matcher(ignoreCase ? fold(s) : s).matches();
            case REGEX:
                return actual instanceof String s && pattern(op, (String) value(), ignoreCase, path).matcher(s).find();
            case HAS:
                return actual instanceof List<?> list && list.stream().anyMatch(e -> same(e, value()));
            default:
                throw new StorageException("Unsupported query operator: " + op);
        }
    }

    /**
     * Whether a list or an object can satisfy this range condition, which indexes holding only
     * scalars must then answer from their list of such records: every object is greater than any
     * non-object, lists are greater than strings and numbers, so only an upper bound that is a string
     * or a number (or {@code prefix}, which needs a string) rules them out.
     *
     * @return whether a list or object value may match
     */
    public boolean mayMatchContainers() {
        switch (operator) {
            case LT:
            case LTE:
                return !(value() instanceof String || value() instanceof Number);
            case BETWEEN:
                return !(values.get(1) instanceof String || values.get(1) instanceof Number);
            case PREFIX:
                return false;
            default:
                return true;
        }
    }

    /**
     * @param s a string
     * @return its case-folded form: upper then lower case in {@link Locale#ROOT}
     */
    public static String fold(String s) {
        return s.toUpperCase(Locale.ROOT).toLowerCase(Locale.ROOT);
    }

    private static boolean needsPattern(Operator op) {
        return op == Operator.SUFFIX || op == Operator.CONTAINS || op == Operator.NOT_CONTAINS || op == Operator.LIKE
                || op == Operator.NOT_LIKE || op == Operator.REGEX;
    }

    private static Pattern pattern(Operator op, String source, boolean ignoreCase, FieldPath path) {
        if (op != Operator.LIKE && op != Operator.NOT_LIKE && op != Operator.REGEX) {
            return null;
        }
        boolean like = op != Operator.REGEX;
        String key = (like ? "L" : "R") + (ignoreCase ? "i" : "c") + source;
        Pattern cached = PATTERNS.get(key);
        if (cached != null) {
            return cached;
        }
        Pattern compiled;
        try {
            compiled = like ? likePattern(ignoreCase ? fold(source) : source)
                    : Pattern.compile(source, ignoreCase ? Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CASE : 0);
        } catch (PatternSyntaxException e) {
            throw new StorageException("Query operator regex on field " + path + " has an invalid pattern: "
                    + e.getDescription() + " in " + source, e);
        }
        if (PATTERNS.size() >= PATTERN_CACHE_LIMIT) {
            PATTERNS.clear();
        }
        PATTERNS.put(key, compiled);
        return compiled;
    }

    private static Pattern likePattern(String like) {
        StringBuilder regex = new StringBuilder();
        int start = 0;
        for (int star = like.indexOf('*'); star >= 0; star = like.indexOf('*', start)) {
            if (star > start) {
                regex.append(Pattern.quote(like.substring(start, star)));
            }
            regex.append(".*");
            start = star + 1;
        }
        if (start < like.length()) {
            regex.append(Pattern.quote(like.substring(start)));
        }
        return Pattern.compile(regex.toString(), Pattern.DOTALL);
    }
}
