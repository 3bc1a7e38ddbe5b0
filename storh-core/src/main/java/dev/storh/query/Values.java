package dev.storh.query;

import dev.storh.json.CanonicalJson;
import dev.storh.json.JsonNumbers;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Value semantics of queries: strict identity for {@code eq}/{@code in} and the total order
 * {@code compare} for ranges and sorting.
 *
 * <ul>
 *   <li>numbers compare by the decimal value they denote ({@link JsonNumbers#decimalOf}): integers
 *       of any width exactly, a double as its canonical text, a {@code BigDecimal} exactly; so
 *       {@code -0.0 == 0.0 == 0}, {@code 19.99 == 19.990}, {@code 2^63 > Long.MAX_VALUE};</li>
 *   <li>strings by UTF-8 bytes; {@code false < true}; {@code null == null};</li>
 *   <li>anything else (mixed types, arrays, objects) compares the pretty JSON texts of
 *       {@code {"value": a}} and {@code {"value": b}} bytewise, which orders
 *       strings &lt; numbers &lt; lists &lt; false &lt; null &lt; true &lt; objects.</li>
 * </ul>
 *
 * {@code compare} is a consistent total order over every value of the JSON model (sorting with it
 * never fails). Identity is type-sensitive as PHP's {@code ===}: an integer ({@code Long},
 * {@code BigInteger}) is never identical to a fraction ({@code Double}, {@code BigDecimal}); two
 * fractions are identical when their decimal values are equal. Identical values always compare
 * equal. See {@code docs/json-model.md}. Stateless.
 */
public final class Values {

    private Values() {
    }

    /**
     * @param v any Java value
     * @return the JSON-model form, as the value would read back from a file: Integer/Short/Byte →
     *     Long, Float → Double, small BigInteger → Long, BigDecimal → {@link JsonNumbers#model};
     *     other values unchanged
     */
    public static Object normalise(Object v) {
        if (v == null || v instanceof Long || v instanceof String || v instanceof Double || v instanceof Boolean) {
            return v; // the model's own kinds, most values: no conversion to look for
        }
        if (v instanceof Integer || v instanceof Short || v instanceof Byte) {
            return ((Number) v).longValue();
        }
        if (v instanceof BigInteger b && b.bitLength() < 64) {
            return b.longValue();
        }
        if (v instanceof Float f) {
            return Double.parseDouble(Float.toString(f));
        }
        if (v instanceof BigDecimal d) {
            return JsonNumbers.model(d);
        }
        return v;
    }

    /**
     * @param v a value
     * @return whether it can be indexed: null, boolean, integer, fraction or string
     */
    public static boolean isScalar(Object v) {
        return v == null || v instanceof String || v instanceof Boolean || v instanceof Long || v instanceof Double
                || v instanceof BigInteger || v instanceof BigDecimal || v instanceof Integer;
    }

    /**
     * Strict identity, as PHP's {@code ===} on decoded JSON.
     *
     * @param a a value in the JSON model
     * @param b a value in the JSON model
     * @return whether both have the same kind and value (lists element-wise; objects with the same
     *     keys in the same order); fractions by decimal value ({@code -0.0 === 0.0})
     */
    public static boolean identical(Object a, Object b) {
        a = normalise(a);
        b = normalise(b);
        if (a == null || b == null) {
            return a == b;
        }
        if (isFraction(a) && isFraction(b)) {
            if (a instanceof Double x && b instanceof Double y) {
                return x.doubleValue() == y.doubleValue();
            }
            return compareNumbers((Number) a, (Number) b) == 0;
        }
        if (a instanceof List<?> la && b instanceof List<?> lb) {
            if (la.size() != lb.size()) {
                return false;
            }
            for (int i = 0; i < la.size(); i++) {
                if (!identical(la.get(i), lb.get(i))) {
                    return false;
                }
            }
            return true;
        }
        if (a instanceof Map<?, ?> ma && b instanceof Map<?, ?> mb) {
            if (ma.size() != mb.size()) {
                return false;
            }
            Iterator<? extends Map.Entry<?, ?>> ia = ma.entrySet().iterator();
            Iterator<? extends Map.Entry<?, ?>> ib = mb.entrySet().iterator();
            while (ia.hasNext()) {
                Map.Entry<?, ?> ea = ia.next();
                Map.Entry<?, ?> eb = ib.next();
                if (!ea.getKey().equals(eb.getKey()) || !identical(ea.getValue(), eb.getValue())) {
                    return false;
                }
            }
            return true;
        }
        return a.getClass() == b.getClass() && a.equals(b);
    }

    private static boolean isFraction(Object v) {
        return v instanceof Double || v instanceof BigDecimal;
    }

    /**
     * The total order of query values; only the sign matters.
     *
     * @param a a value in the JSON model
     * @param b a value in the JSON model
     * @return negative, zero or positive
     */
    public static int compare(Object a, Object b) {
        if (a instanceof Long x && b instanceof Long y) {
            return Long.compare(x, y); // the most common pair (range bounds on integers), as compareNumbers orders it
        }
        // A BigDecimal orders by its own value, which its model form shares: no need to convert it.
        a = a instanceof BigDecimal ? a : normalise(a);
        b = b instanceof BigDecimal ? b : normalise(b);
        if (a instanceof Number x && b instanceof Number y) {
            return compareNumbers(x, y);
        }
        if (a instanceof String x && b instanceof String y) {
            return compareUtf8(x, y);
        }
        if (a instanceof Boolean x && b instanceof Boolean y) {
            return Boolean.compare(x, y);
        }
        if (a == null && b == null) {
            return 0;
        }
        return compareUtf8(prettyWrapped(a), prettyWrapped(b));
    }

    /**
     * @param x a normalised number
     * @param y a normalised number
     * @return the order of their decimal values ({@link JsonNumbers#decimalOf})
     */
    static int compareNumbers(Number x, Number y) {
        if (x instanceof Long lx && y instanceof Long ly) {
            return Long.compare(lx, ly);
        }
        // Each number rounds to its nearest double, and rounding keeps the order: different doubles
        // decide (a double's canonical decimal lies inside its own rounding interval). Only numbers
        // with the same double need their exact values.
        double dx = JsonNumbers.originalDouble(x);
        double dy = JsonNumbers.originalDouble(y);
        if (dx < dy) {
            return -1;
        }
        if (dx > dy) {
            return 1;
        }
        if (x instanceof Double && y instanceof Double) {
            return 0; // equal doubles, -0.0 and 0.0 included
        }
        if (x instanceof Double && !Double.isFinite(dx) || y instanceof Double && !Double.isFinite(dy)) {
            return Double.compare(dx, dy); // never stored; only in query operands
        }
        return JsonNumbers.decimalOf(x).compareTo(JsonNumbers.decimalOf(y));
    }

    /**
     * @param x a string
     * @param y a string
     * @return the order of their UTF-8 bytes (code point order), not UTF-16 order
     */
    public static int compareUtf8(String x, String y) {
        int n = Math.min(x.length(), y.length());
        for (int k = 0; k < n; k++) {
            char a = x.charAt(k);
            char b = y.charAt(k);
            if (a != b) {
                // below the surrogates UTF-16 order is code point order, whatever came before
                return a < Character.MIN_SURROGATE || b < Character.MIN_SURROGATE ? Integer.compare(a, b) : byCodePoints(x, y);
            }
        }
        return Integer.compare(x.length(), y.length());
    }

    private static int byCodePoints(String x, String y) {
        int i = 0;
        int j = 0;
        while (i < x.length() && j < y.length()) {
            int cx = x.codePointAt(i);
            int cy = y.codePointAt(j);
            if (cx != cy) {
                return Integer.compare(cx, cy);
            }
            i += Character.charCount(cx);
            j += Character.charCount(cy);
        }
        return Integer.compare(x.length() - i, y.length() - j);
    }

    /**
     * @param prefix a string
     * @return whether the strings starting with {@code prefix} form one run in {@link #compare}
     *     order: true unless it ends with a lone high surrogate, which strings continue either as a
     *     supplementary code point (sorting after U+FFFF) or not
     */
    public static boolean prefixRunIsContiguous(String prefix) {
        return prefix.isEmpty() || !Character.isHighSurrogate(prefix.charAt(prefix.length() - 1));
    }

    private static String prettyWrapped(Object v) {
        Map<String, Object> wrapper = new LinkedHashMap<>();
        wrapper.put("value", v);
        try {
            return CanonicalJson.encodePretty(wrapper);
        } catch (RuntimeException notEncodable) {
            return "{\n    \"value\": \uffff" + v + "\n}\n";
        }
    }
}
