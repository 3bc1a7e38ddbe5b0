package dev.storh.log;

import dev.storh.json.JsonNumbers;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
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
    /** Longest integer read as a {@code long} digit by digit: 18 digits never overflow. */
    private static final int LONG_DIGITS = 18;

    private final byte[] b;
    private final int end;
    private int at;

    private LineData(byte[] bytes, int from, int to) {
        b = bytes;
        at = from;
        end = to;
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
        LineData d = new LineData(json, from, to);
        Map<String, Object> data = d.object(1);
        return data != null && d.at == d.end ? data : null;
    }

    /** An object at {@code at} ('{'), or null. */
    private Map<String, Object> object(int depth) {
        if (depth > MAX_DEPTH) {
            return null;
        }
        at++;
        Map<String, Object> map = new LinkedHashMap<>();
        if (take('}')) {
            return map;
        }
        while (true) {
            String key = at < end && b[at] == '"' ? string() : null;
            if (key == null || !take(':')) {
                return null;
            }
            Object value = value(depth);
            if (value == null) {
                return null;
            }
            map.put(key, value == NULL ? null : value);
            if (take('}')) {
                return map;
            }
            if (!take(',')) {
                return null;
            }
        }
    }

    /** A list at {@code at} ('['), or null. */
    private List<Object> list(int depth) {
        if (depth > MAX_DEPTH) {
            return null;
        }
        at++;
        List<Object> list = new ArrayList<>();
        if (take(']')) {
            return list;
        }
        while (true) {
            Object value = value(depth);
            if (value == null) {
                return null;
            }
            list.add(value == NULL ? null : value);
            if (take(']')) {
                return list;
            }
            if (!take(',')) {
                return null;
            }
        }
    }

    /** Stands for a JSON {@code null} while reading (a Java {@code null} means "not read here"). */
    private static final Object NULL = new Object();

    /** A value at {@code at}, {@link #NULL} for JSON null, or null when not read here. */
    private Object value(int depth) {
        if (at >= end) {
            return null;
        }
        byte c = b[at];
        switch (c) {
            case '"':
                return string();
            case '{':
                return object(depth + 1);
            case '[':
                return list(depth + 1);
            case 't':
                return word("true") ? Boolean.TRUE : null;
            case 'f':
                return word("false") ? Boolean.FALSE : null;
            case 'n':
                return word("null") ? NULL : null;
            default:
                return c == '-' || (c >= '0' && c <= '9') ? number() : null;
        }
    }

    private boolean take(char c) {
        if (at < end && b[at] == c) {
            at++;
            return true;
        }
        return false;
    }

    private boolean word(String w) {
        int n = w.length();
        if (end - at < n) {
            return false;
        }
        for (int i = 0; i < n; i++) {
            if (b[at + i] != w.charAt(i)) {
                return false;
            }
        }
        at += n;
        return true;
    }

    /** An integer or a plain decimal: {@code -?(0|[1-9][0-9]*)(\.[0-9]+)?}; null for anything else. */
    private Object number() {
        int start = at;
        boolean negative = b[at] == '-';
        if (negative) {
            at++;
        }
        int digits = at;
        long value = 0;
        while (at < end && b[at] >= '0' && b[at] <= '9') {
            value = value * 10 + (b[at] - '0'); // wraps past 18 digits: then unused
            at++;
        }
        int n = at - digits;
        if (n == 0 || (b[digits] == '0' && n > 1) || at - start > JsonNumbers.MAX_NUMBER_LENGTH) {
            return null;
        }
        if (at < end && (b[at] == 'e' || b[at] == 'E')) {
            return null; // an exponent: the decoder's double parsing
        }
        if (at < end && b[at] == '.') {
            at++;
            int fraction = at;
            while (at < end && b[at] >= '0' && b[at] <= '9') {
                at++;
            }
            if (at == fraction || at - start > JsonNumbers.MAX_NUMBER_LENGTH || (at < end && (b[at] == 'e' || b[at] == 'E'))) {
                return null;
            }
            return decimal(new String(b, start, at - start, StandardCharsets.ISO_8859_1));
        }
        if (n <= LONG_DIGITS) {
            return negative ? -value : value;
        }
        return JsonNumbers.integer(new BigInteger(new String(b, start, at - start, StandardCharsets.ISO_8859_1)));
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

    /** A string at {@code at} ('"'), escapes resolved, or null when it is not of the shape read here. */
    private String string() {
        int start = ++at;
        boolean ascii = true;
        while (at < end) {
            byte c = b[at];
            if (c == '"') {
                at++;
                return ascii ? new String(b, start, at - 1 - start, StandardCharsets.ISO_8859_1) : utf8(start, at - 1);
            }
            if (c == '\\') {
                return ascii ? escaped(start) : null;
            }
            if (c >= 0 && c < 0x20) {
                return null; // a control byte: the decoder refuses it
            }
            ascii &= c >= 0;
            at++;
        }
        return null;
    }

    /** Escape-free UTF-8 from {@code from} to {@code to}; null when a sequence was malformed (it would read replaced). */
    private String utf8(int from, int to) {
        String s = new String(b, from, to - from, StandardCharsets.UTF_8);
        return s.indexOf('\uFFFD') < 0 ? s : null;
    }

    /** An ASCII string with escapes, from its first character at {@code start}; {@code at} is on a backslash. */
    private String escaped(int start) {
        StringBuilder out = new StringBuilder(at - start + 16);
        for (int i = start; i < at; i++) {
            out.append((char) b[i]);
        }
        while (at < end) {
            byte c = b[at];
            if (c == '"') {
                at++;
                return out.toString();
            }
            if (c < 0x20) {
                return null; // a control byte or a non-ASCII one
            }
            if (c != '\\') {
                out.append((char) c);
                at++;
            } else if (!escape(out)) {
                return null;
            }
        }
        return null;
    }

    private boolean escape(StringBuilder out) {
        if (end - at < 2) {
            return false;
        }
        byte e = b[at + 1];
        at += 2;
        switch (e) {
            case '"', '\\', '/' -> out.append((char) e);
            case 'b' -> out.append('\b');
            case 'f' -> out.append('\f');
            case 'n' -> out.append('\n');
            case 'r' -> out.append('\r');
            case 't' -> out.append('\t');
            case 'u' -> {
                if (end - at < 4) {
                    return false;
                }
                int v = 0;
                for (int i = 0; i < 4; i++) {
                    int d = Character.digit(b[at + i], 16);
                    if (d < 0) {
                        return false;
                    }
                    v = v * 16 + d;
                }
                if (Character.isSurrogate((char) v)) {
                    return false; // pairs and lone halves: left to the decoder
                }
                out.append((char) v);
                at += 4;
            }
            default -> {
                return false;
            }
        }
        return true;
    }
}
