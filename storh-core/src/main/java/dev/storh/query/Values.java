package dev.storh.query;

import dev.storh.json.CanonicalJson;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Value semantics of queries: strict identity
 * for {@code eq}/{@code in} and the total order {@code compare} for ranges and sorting.
 *
 * <ul>
 *   <li>numbers compare numerically (an integer against a float as doubles); strings by UTF-8
 *       bytes; {@code false < true}; {@code null == null};</li>
 *   <li>anything else (mixed types, arrays, objects) compares the pretty JSON texts of
 *       {@code {"value": a}} and {@code {"value": b}} bytewise, which orders
 *       strings &lt; numbers &lt; lists &lt; false &lt; null &lt; true &lt; objects.</li>
 * </ul>
 *
 * Identity is type-sensitive: {@code 1} (Long) is not {@code 1.0} (Double). Stateless.
 */
public final class Values {

    private Values() {
    }

    /**
     * @param v any Java value
     * @return the JSON-model form: Integer/Short/Byte → Long, Float/BigDecimal → Double, small
     *     BigInteger → Long; other values unchanged
     */
    public static Object normalise(Object v) {
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
            return d.doubleValue();
        }
        return v;
    }

    /**
     * @param v a value
     * @return whether it can be indexed: null, boolean, integer, float or string
     */
    public static boolean isScalar(Object v) {
        return v == null || v instanceof String || v instanceof Boolean || v instanceof Long || v instanceof Double
                || v instanceof BigInteger;
    }

    /**
     * Strict identity, as PHP's {@code ===} on decoded JSON.
     *
     * @param a a value in the JSON model
     * @param b a value in the JSON model
     * @return whether both have the same type and value (lists element-wise; objects with the same
     *     keys in the same order)
     */
    public static boolean identical(Object a, Object b) {
        a = normalise(a);
        b = normalise(b);
        if (a == null || b == null) {
            return a == b;
        }
        if (a instanceof Double x && b instanceof Double y) {
            return x.doubleValue() == y.doubleValue();
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

    /**
     * The original's total order; only the sign matters.
     *
     * @param a a value in the JSON model
     * @param b a value in the JSON model
     * @return negative, zero or positive
     */
    public static int compare(Object a, Object b) {
        a = normalise(a);
        b = normalise(b);
        if (a instanceof Number x && b instanceof Number y) {
            if (x instanceof Long lx && y instanceof Long ly) {
                return Long.compare(lx, ly);
            }
            if (x instanceof BigInteger || y instanceof BigInteger) {
                if (!(x instanceof Double) && !(y instanceof Double)) {
                    return toBig(x).compareTo(toBig(y));
                }
            }
            return Double.compare(x.doubleValue() == 0.0 ? 0.0 : x.doubleValue(),
                    y.doubleValue() == 0.0 ? 0.0 : y.doubleValue());
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

    private static BigInteger toBig(Number n) {
        return n instanceof BigInteger b ? b : BigInteger.valueOf(n.longValue());
    }

    /**
     * @param x a string
     * @param y a string
     * @return the order of their UTF-8 bytes (code point order), not UTF-16 order
     */
    public static int compareUtf8(String x, String y) {
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
