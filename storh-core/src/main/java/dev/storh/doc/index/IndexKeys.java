package dev.storh.doc.index;

import com.dynatrace.hash4j.hashing.HashValue128;
import com.dynatrace.hash4j.hashing.Hasher128;
import com.dynatrace.hash4j.hashing.Hashing;
import dev.storh.json.JsonNumbers;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.MathContext;
import java.math.RoundingMode;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.List;

/**
 * The original's index key encodings, byte for byte:
 * field keys, value keys (equality files), range keys (range index lines) and compound keys.
 * XXH3-128 comes from hash4j. Stateless.
 */
public final class IndexKeys {

    private static final Hasher128 XXH128 = Hashing.xxh3_128();
    private static final int MAX_INLINE_STRING_BYTES = 96;
    private static final List<String> ZERO_KEYS = List.of("f-0", "f-m0");

    private IndexKeys() {
    }

    /**
     * @param s any text
     * @return lowercase hex of its UTF-8 bytes ({@code kind} → {@code 6b696e64})
     */
    public static String hex(String s) {
        return HexFormat.of().formatHex(s.getBytes(StandardCharsets.UTF_8));
    }

    /**
     * @param bytes any bytes
     * @return XXH3-128 as 32 lowercase hex digits, high 64 bits first (PHP {@code hash('xxh128')})
     */
    public static String xxh128(byte[] bytes) {
        HashValue128 h = XXH128.hashBytesTo128Bits(bytes);
        java.util.HexFormat hex = java.util.HexFormat.of(); // "%016x%016x", without the formatter's cost
        return hex.toHexDigits(h.getMostSignificantBits()) + hex.toHexDigits(h.getLeastSignificantBits());
    }

    /**
     * @param v a value in the JSON model
     * @return whether it can be indexed: null, boolean, integer, float or string
     */
    public static boolean isIndexable(Object v) {
        return v == null || v instanceof String || v instanceof Boolean || v instanceof Long || v instanceof Double
                || v instanceof BigInteger || v instanceof BigDecimal || v instanceof Integer;
    }

    /**
     * The value key of an equality file name: {@code i-42}, {@code i-m42}, {@code s-<hex>}
     * (strings over 96 bytes: {@code s-<xxh128>}), {@code b-1}, {@code f-1d5}, {@code n}.
     *
     * @param v an indexable value
     * @return its value key
     */
    public static String valueKey(Object v) {
        if (v == null) {
            return "n";
        }
        if (v instanceof Boolean b) {
            return b ? "b-1" : "b-0";
        }
        if (v instanceof Long || v instanceof Integer) {
            return "i-" + v.toString().replace('-', 'm');
        }
        if (v instanceof BigInteger || v instanceof Double || v instanceof BigDecimal) {
            // The original reads integers beyond 64 bits and every fraction as a double.
            return "f-" + floatG17(JsonNumbers.originalDouble((Number) v));
        }
        if (v instanceof String s) {
            byte[] bytes = s.getBytes(StandardCharsets.UTF_8);
            return "s-" + (bytes.length <= MAX_INLINE_STRING_BYTES ? HexFormat.of().formatHex(bytes) : xxh128(bytes));
        }
        // Lists and objects are never indexed; the key exists only so that every value has the original's.
        StringBuilder serialized = new StringBuilder();
        PhpSerialized.append(v, serialized);
        return "z-" + xxh128(serialized.toString().getBytes(StandardCharsets.UTF_8));
    }

    /**
     * Every value key under which a value identical to {@code v} may be filed. The original files
     * {@code 0.0} under {@code f-0} and {@code -0.0} under {@code f-m0} although they are identical;
     * every other identity class has one key.
     *
     * @param v an indexable value in the JSON model
     * @return {@code [f-0, f-m0]} for a zero fraction, else {@code [valueKey(v)]}
     */
    public static List<String> valueKeys(Object v) {
        if ((v instanceof Double || v instanceof BigDecimal) && JsonNumbers.originalDouble((Number) v) == 0) {
            return ZERO_KEYS;
        }
        return List.of(valueKey(v));
    }

    /**
     * @param v an indexable value in the JSON model
     * @return whether every value filed under its value key is identical to it: false for numbers the
     *     original reads as doubles ({@code 2^63} and {@code 9.223372036854775808E18} share a file, as
     *     do {@code 0.1} and {@code 0.1000000000000000000001}) and for strings whose key is a hash
     */
    public static boolean keyIsExact(Object v) {
        if (v instanceof String s) {
            return s.length() * 3 <= MAX_INLINE_STRING_BYTES || s.getBytes(StandardCharsets.UTF_8).length <= MAX_INLINE_STRING_BYTES;
        }
        return v == null || v instanceof Boolean || v instanceof Long || v instanceof Integer;
    }

    /**
     * The range key of a range index line.
     *
     * @param v a value
     * @return e.g. {@code n-00000000000000010d000000}, {@code n-m0000000000000003d000000},
     *     {@code s-616263}, {@code b-1}, {@code z-n}
     */
    public static String rangeKey(Object v) {
        if (v == null) {
            return "z-n";
        }
        if (v instanceof Boolean b) {
            return b ? "b-1" : "b-0";
        }
        if (v instanceof String s) {
            return "s-" + hex(s);
        }
        if ((v instanceof Long || v instanceof Integer) && ((Number) v).longValue() >= 0) {
            String digits = Long.toString(((Number) v).longValue()); // "%017d", without the formatter's cost
            return "n-" + "0".repeat(Math.max(0, 17 - digits.length())) + digits + "d000000";
        }
        if (v instanceof Number n) {
            return "n-" + fixed6(JsonNumbers.originalDouble(n));
        }
        return "z-" + valueKey(v);
    }

    /**
     * @param left value of the field whose name sorts first
     * @param right value of the other field
     * @return {@code c-} + xxh128(valueKey(left) + NUL + valueKey(right))
     */
    public static String compoundKey(Object left, Object right) {
        return "c-" + xxh128((valueKey(left) + "\0" + valueKey(right)).getBytes(StandardCharsets.UTF_8));
    }

    /**
     * C's {@code %024.6F} of the exact double (rounded half-even), with {@code -}→{@code m},
     * {@code .}→{@code d}. The sign is written for values below zero only: {@code -0.0} has the key of
     * {@code 0}, while {@code -1e-7} rounds to {@code m…0d000000}, as in the original.
     */
    static String fixed6(double d) {
        boolean negative = d < 0;
        String digits = new BigDecimal(Math.abs(d)).setScale(6, RoundingMode.HALF_EVEN).toPlainString();
        int width = 24 - (negative ? 1 : 0);
        StringBuilder out = new StringBuilder(26);
        if (negative) {
            out.append('m');
        }
        for (int i = digits.length(); i < width; i++) {
            out.append('0');
        }
        return out.append(digits.replace('.', 'd')).toString();
    }

    /** PHP's {@code %.17G} of a double, with {@code -}→{@code m}, {@code .}→{@code d}, {@code +}→{@code p}. */
    static String floatG17(double d) {
        String text;
        if (d == 0) {
            text = (1 / d < 0) ? "-0" : "0";
        } else {
            BigDecimal rounded = new BigDecimal(d).round(new MathContext(17, RoundingMode.HALF_EVEN)).stripTrailingZeros();
            int exponent = rounded.precision() - rounded.scale() - 1;
            if (exponent < -4 || exponent >= 17) {
                String unscaled = rounded.unscaledValue().abs().toString();
                String fraction = unscaled.length() > 1 ? unscaled.substring(1) : "0";
                text = (rounded.signum() < 0 ? "-" : "") + unscaled.charAt(0) + "." + fraction + "E"
                        + (exponent < 0 ? "-" : "+") + Math.abs(exponent);
            } else {
                text = rounded.toPlainString();
            }
        }
        return text.replace('-', 'm').replace('.', 'd').replace('+', 'p');
    }
}
