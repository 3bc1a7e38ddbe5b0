package dev.storh.json;

import dev.storh.StorageException;
import java.util.Map;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Optional;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.core.ObjectReadContext;
import tools.jackson.core.StreamReadConstraints;
import tools.jackson.core.exc.StreamReadException;
import tools.jackson.core.json.JsonFactory;
import tools.jackson.core.json.JsonReadFeature;

/**
 * Reads JSON and JSONC documents into the JSON model: objects as {@code LinkedHashMap} (key order
 * kept, the last duplicate key wins), arrays as {@code List}, strings, booleans, {@code null}, and
 * numbers as follows (see {@link JsonNumbers} and {@code docs/json-model.md}):
 *
 * <ul>
 *   <li>integers: {@code Long}, or {@code BigInteger} beyond 64 bits;</li>
 *   <li>numbers with an exponent ({@code 1.0e+20}): {@code Double};</li>
 *   <li>plain decimals: {@code Double} when the literal is exactly the canonical text of that double
 *       ({@code 1.5}, {@code 1.0}, {@code -0.0}, {@code 0.30000000000000004}), otherwise an exact
 *       {@code BigDecimal} with the literal's scale ({@code 19.990}, {@code 0.10},
 *       {@code 12345678901234567890.123456789}). Canonical files therefore rewrite byte for byte, and a
 *       decimal written from a {@code BigDecimal} reads back equal, scale included.</li>
 * </ul>
 *
 * <p>Every document is parsed strictly first (the fast path for files storh wrote); only on a
 * syntax error is it parsed again with Jackson's {@code //} and {@code /* *}{@code /} comments and
 * trailing commas allowed; a {@code /*} that is never closed comments out the rest of the document.
 * {@code #} comments, single quotes and unquoted keys stay errors. At most
 * {@value #MAX_NESTING_DEPTH} nested containers are read. Thread-safe.
 */
public final class Jsonc {

    /** Deepest nesting of objects and arrays a document may have, as in the original. */
    public static final int MAX_NESTING_DEPTH = 511;

    static final String NOT_AN_OBJECT = "JSONC document must decode to an object.";

    private static final JsonFactory STRICT = factory(false);
    private static final JsonFactory LENIENT = factory(true);

    private static JsonFactory factory(boolean lenient) {
        var builder = JsonFactory.builder()
                .streamReadConstraints(StreamReadConstraints.builder().maxNestingDepth(MAX_NESTING_DEPTH).build());
        if (lenient) {
            builder.enable(JsonReadFeature.ALLOW_JAVA_COMMENTS).enable(JsonReadFeature.ALLOW_TRAILING_COMMA);
        }
        return builder.build();
    }

    private Jsonc() {
    }

    /**
     * Decodes a document that must be a JSON(C) object.
     *
     * @param utf8 the document bytes, UTF-8 without a byte order mark; surrounding whitespace is allowed
     * @return the object, mutable, keys in document order
     * @throws StorageException {@code "JSONC document must decode to an object."} when the document is
     *     an array, a scalar, starts with a BOM, or has a top-level key that looks like an integer
     *     ({@code "0"}, {@code "-1"}: the original cannot read those); {@link JsoncSyntaxException}
     *     on a syntax error
     */
    public static Map<String, Object> decodeObject(byte[] utf8) {
        int start = 0;
        int end = utf8.length;
        while (start < end && isSpace(utf8[start])) {
            start++;
        }
        while (end > start && isSpace(utf8[end - 1])) {
            end--;
        }
        if (end - start < 2) {
            throw new StorageException(NOT_AN_OBJECT);
        }
        Object value;
        if (utf8[start] == '{' && utf8[end - 1] == '}') {
            value = parse(utf8, start, end - start);
        } else {
            // Comments around the object are allowed; anything else is not an object.
            value = parseLenientOnly(utf8, start, end - start);
        }
        return asObject(value).orElseThrow(() -> new StorageException(NOT_AN_OBJECT));
    }

    /**
     * The original's test of a decoded document: an object counts only when none of its top-level
     * keys looks like an integer ({@link #isIntegerLike}).
     *
     * @param value a decoded value
     * @return the value itself as an object, or empty when it is no object or has an integer-like key
     */
    @SuppressWarnings("unchecked")
    public static Optional<Map<String, Object>> asObject(Object value) {
        if (!(value instanceof Map)) {
            return Optional.empty();
        }
        Map<String, Object> map = (Map<String, Object>) value;
        for (String key : map.keySet()) {
            if (isIntegerLike(key)) {
                return Optional.empty();
            }
        }
        return Optional.of(map);
    }

    /**
     * Decodes any JSON value strictly (no comments), e.g. one JSONL line.
     *
     * @param text the JSON text
     * @return the value in the JSON model
     * @throws JsoncSyntaxException on a syntax error
     */
    public static Object decodeStrict(String text) {
        try {
            try (JsonParser p = STRICT.createParser(ObjectReadContext.empty(), text)) {
                return readRoot(p);
            }
        } catch (JacksonException e) {
            throw new JsoncSyntaxException("Invalid JSON: " + e.getOriginalMessage(), e);
        }
    }

    /**
     * Decodes any JSON value strictly (no comments, no trailing commas) from UTF-8 bytes.
     *
     * @param utf8 the JSON bytes
     * @return the value in the JSON model
     * @throws JsoncSyntaxException on a syntax error
     */
    public static Object decodeStrict(byte[] utf8) {
        try {
            return read(STRICT, utf8, 0, utf8.length);
        } catch (JacksonException e) {
            throw new JsoncSyntaxException("Invalid JSON: " + e.getOriginalMessage(), e);
        }
    }

    private static Object parse(byte[] utf8, int offset, int length) {
        try {
            return read(STRICT, utf8, offset, length);
        } catch (StreamReadException | JsoncSyntaxException strictFailure) {
            return parseLenientOnly(utf8, offset, length);
        } catch (JacksonException e) {
            throw new JsoncSyntaxException("Invalid JSONC document: " + e.getOriginalMessage(), e);
        }
    }

    private static Object parseLenientOnly(byte[] utf8, int offset, int length) {
        int cut = unterminatedComment(utf8, offset, offset + length);
        if (cut >= 0) {
            // An unterminated /* comments out the rest of the document, as in the original.
            length = cut - offset;
            while (length > 0 && isSpace(utf8[offset + length - 1])) {
                length--;
            }
            if (length < 2) {
                throw new StorageException(NOT_AN_OBJECT);
            }
        }
        if (utf8[offset] != '{' && utf8[offset] != '/') {
            throw new StorageException(NOT_AN_OBJECT);
        }
        try {
            return read(LENIENT, utf8, offset, length);
        } catch (JacksonException e) {
            throw new JsoncSyntaxException("Invalid JSONC document: " + e.getOriginalMessage(), e);
        }
    }

    private static Object read(JsonFactory factory, byte[] utf8, int offset, int length) {
        try (JsonParser p = factory.createParser(ObjectReadContext.empty(), utf8, offset, length)) {
            return readRoot(p);
        }
    }

    private static Object readRoot(JsonParser p) {
        JsonToken first = p.nextToken();
        if (first == null) {
            throw new StorageException(NOT_AN_OBJECT);
        }
        Object value = readValue(p, first);
        JsonToken trailing = p.nextToken();
        if (trailing != null) {
            throw new JsoncSyntaxException("Invalid JSON: unexpected " + trailing + " after the document at "
                    + p.currentLocation(), null);
        }
        return value;
    }

    /** Builds the JSON model: LinkedHashMap, ArrayList, String, Long, BigInteger, Double, Boolean, null. */
    private static Object readValue(JsonParser p, JsonToken token) {
        switch (token) {
            case START_OBJECT: {
                Map<String, Object> map = new LinkedHashMap<>();
                for (JsonToken t = p.nextToken(); t != JsonToken.END_OBJECT; t = p.nextToken()) {
                    String key = p.currentName();
                    map.put(key, readValue(p, p.nextToken()));
                }
                return map;
            }
            case START_ARRAY: {
                List<Object> list = new ArrayList<>();
                for (JsonToken t = p.nextToken(); t != JsonToken.END_ARRAY; t = p.nextToken()) {
                    list.add(readValue(p, t));
                }
                return list;
            }
            case VALUE_STRING:
                return p.getString();
            case VALUE_NUMBER_INT:
                return p.getNumberType() == JsonParser.NumberType.BIG_INTEGER ? p.getBigIntegerValue() : p.getLongValue();
            case VALUE_NUMBER_FLOAT:
                return floatLiteral(p);
            case VALUE_TRUE:
                return Boolean.TRUE;
            case VALUE_FALSE:
                return Boolean.FALSE;
            case VALUE_NULL:
                return null;
            default:
                throw new JsoncSyntaxException("Invalid JSON: unexpected token " + token + " at " + p.currentLocation(), null);
        }
    }

    /**
     * @return the offset of a {@code /*} (outside strings and other comments) that is never closed, or -1
     */
    private static int unterminatedComment(byte[] utf8, int from, int to) {
        int i = from;
        while (i < to) {
            byte b = utf8[i];
            if (b == '"') {
                i++;
                while (i < to && utf8[i] != '"') {
                    i += utf8[i] == '\\' ? 2 : 1;
                }
                i++;
            } else if (b == '/' && i + 1 < to && utf8[i + 1] == '/') {
                while (i < to && utf8[i] != '\n' && utf8[i] != '\r') {
                    i++;
                }
            } else if (b == '/' && i + 1 < to && utf8[i + 1] == '*') {
                int close = -1;
                for (int j = i + 2; j + 1 < to; j++) {
                    if (utf8[j] == '*' && utf8[j + 1] == '/') {
                        close = j;
                        break;
                    }
                }
                if (close < 0) {
                    return i;
                }
                i = close + 2;
            } else {
                i++;
            }
        }
        return -1;
    }

    /** An exponent form is a double; a plain decimal is a double only when that is its canonical text. */
    private static Object floatLiteral(JsonParser p) {
        String text = p.getString();
        double parsed = p.getDoubleValue();
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == 'e' || c == 'E') {
                return parsed;
            }
        }
        return JsonNumbers.fromPlainDecimal(text, parsed);
    }

    /**
     * A key PHP turns into an integer array key:
     * canonical decimal in signed 64 bits, {@code "0"}, {@code "-1"}, but not {@code "01"} or {@code "-0"}.
     *
     * @param key an object key
     * @return whether the original would treat it as an integer
     */
    public static boolean isIntegerLike(String key) {
        int n = key.length();
        if (n == 0 || n > 20) {
            return false;
        }
        int i = key.charAt(0) == '-' ? 1 : 0;
        if (i == n) {
            return false;
        }
        if (key.charAt(i) == '0') {
            return n == 1; // "0" yes; "01", "-0" no
        }
        for (int j = i; j < n; j++) {
            char c = key.charAt(j);
            if (c < '0' || c > '9') {
                return false;
            }
        }
        try {
            Long.parseLong(key);
            return true;
        } catch (NumberFormatException tooBig) {
            return false;
        }
    }

    private static boolean isSpace(byte b) {
        return b == ' ' || b == '\t' || b == '\n' || b == '\r' || b == 0 || b == 0x0B;
    }
}
