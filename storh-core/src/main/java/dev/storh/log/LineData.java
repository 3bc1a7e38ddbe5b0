package dev.storh.log;

import dev.storh.json.JsonNumbers;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The data of a canonical put line decoded straight from its bytes into the JSON model, without a
 * JSON parser and without decoding the line to a {@code String} first: the same values the strict
 * decoder ({@link dev.storh.json.Jsonc#decodeStrict(String)} of the UTF-8 text) gives, for the shape
 * the log writes, at a fraction of the cost (a stream or a point read decodes one record per line).
 *
 * <p>Read here: an object (or {@code []} for no data) without white space, holding objects, lists,
 * strings, integers, plain decimals (no exponent), {@code true}, {@code false} and {@code null}, at most
 * {@value #MAX_DEPTH} containers deep. Strings are ASCII with the escapes {@code \" \\ \/ \b \f \n \r \t}
 * and {@code \\u} plus four hex digits (not a surrogate half), or escape-free well-formed UTF-8. Objects are
 * {@code LinkedHashMap}s (a repeated key keeps its first place and its last value, as the decoder's
 * {@code put} does), lists {@code ArrayList}s, integers {@code Long} or {@code BigInteger} beyond 64 bits,
 * decimals as {@link JsonNumbers} says. Anything else (white space, an exponent, an escaped surrogate, a
 * malformed or replaced UTF-8 sequence, a control byte, a syntax error, data longer than
 * {@value #MAX_BYTES} bytes) answers {@code null}, and the caller decodes the bytes with the strict decoder,
 * so the answer, or the error, is always the decoder's. Stateless and thread-safe.
 */
final class LineData {

    /** Deeper nesting is left to the decoder (and its own limit). */
    static final int MAX_DEPTH = 64;
    /** Longer data is left to the decoder, so its limits on names, strings and numbers apply. */
    static final int MAX_BYTES = 50_000;

    private LineData() {
    }

    /**
     * @param json the bytes holding the data
     * @param from where the data starts
     * @param to where it ends (exclusive)
     * @return the data as the strict decoder reads it (before integer-like keys are dropped): an object, or
     *     an empty {@code LinkedHashMap} for {@code []}; {@code null} when the bytes are not of the shape
     *     read here (the caller decodes them with the strict decoder instead)
     */
    static Map<String, Object> decode(byte[] json, int from, int to) {
        int n = to - from;
        if (n == 2 && json[from] == '[' && json[from + 1] == ']') {
            return new LinkedHashMap<>();
        }
        if (n < 2 || n > MAX_BYTES || json[from] != '{') {
            return null;
        }
        LineCursor c = new LineCursor(json, from, to);
        Map<String, Object> data = object(c, 1);
        return data != null && c.done() ? data : null;
    }

    /** An object at the cursor ('{'), or null. */
    private static Map<String, Object> object(LineCursor c, int depth) {
        if (depth > MAX_DEPTH) {
            return null;
        }
        c.skip();
        Map<String, Object> map = new LinkedHashMap<>();
        if (c.take('}')) {
            return map;
        }
        while (true) {
            String key = c.string(true);
            if (key == null || !c.take(':')) {
                return null;
            }
            Object value = value(c, depth);
            if (value == null) {
                return null;
            }
            map.put(key, value == NULL ? null : value);
            if (c.take('}')) {
                return map;
            }
            if (!c.take(',')) {
                return null;
            }
        }
    }

    /** A list at the cursor ('['), or null. */
    private static List<Object> list(LineCursor c, int depth) {
        if (depth > MAX_DEPTH) {
            return null;
        }
        c.skip();
        List<Object> list = new ArrayList<>();
        if (c.take(']')) {
            return list;
        }
        while (true) {
            Object value = value(c, depth);
            if (value == null) {
                return null;
            }
            list.add(value == NULL ? null : value);
            if (c.take(']')) {
                return list;
            }
            if (!c.take(',')) {
                return null;
            }
        }
    }

    /** Stands for a JSON {@code null} while reading (a Java {@code null} means "not read here"). */
    private static final Object NULL = new Object();

    /** A value at the cursor, {@link #NULL} for JSON null, or null when not read here. */
    private static Object value(LineCursor c, int depth) {
        if (c.done()) {
            return null;
        }
        byte first = c.peek();
        switch (first) {
            case '"':
                return c.string(true);
            case '{':
                return object(c, depth + 1);
            case '[':
                return list(c, depth + 1);
            case 't':
                return c.literal("true") ? Boolean.TRUE : null;
            case 'f':
                return c.literal("false") ? Boolean.FALSE : null;
            case 'n':
                return c.literal("null") ? NULL : null;
            default:
                return first == '-' || (first >= '0' && first <= '9') ? number(c) : null;
        }
    }

    /** An integer or a plain decimal: {@code -?(0|[1-9][0-9]*)(\.[0-9]+)?}; null for anything else. */
    private static Object number(LineCursor c) {
        int start = c.position();
        int n = c.integer();
        if (n == 0 || c.position() - start > JsonNumbers.MAX_NUMBER_LENGTH) {
            return null;
        }
        if (c.atExponent()) {
            return null; // an exponent: the decoder's double parsing
        }
        if (c.take('.')) {
            if (c.skipDigits() == 0 || c.position() - start > JsonNumbers.MAX_NUMBER_LENGTH || c.atExponent()) {
                return null;
            }
            return decimal(c.latin1(start));
        }
        if (n <= LineCursor.LONG_DIGITS) {
            return c.integerValue();
        }
        return JsonNumbers.integer(new BigInteger(c.latin1(start)));
    }

    /** A plain decimal literal, as the decoder reads it: {@code -0.0} stays a negative zero double. */
    private static Object decimal(String text) {
        if (text.charAt(0) == '-') {
            double parsed = Double.parseDouble(text);
            if (parsed == 0) {
                return parsed;
            }
        }
        return JsonNumbers.model(new BigDecimal(text));
    }
}
