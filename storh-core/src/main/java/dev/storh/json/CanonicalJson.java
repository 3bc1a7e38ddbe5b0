package dev.storh.json;

import dev.storh.StorageException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.Collection;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import tools.jackson.core.io.NumberOutput;

/**
 * Writes the JSON model as canonical JSON, byte for byte as the original implementation does, so
 * that files written by either are identical (format: {@code docs/json-model.md}).
 *
 * <ul>
 *   <li>Compact: no whitespace; pretty: 4-space indent, {@code "key": value}, empty containers inline.
 *       Both end with exactly one {@code \n}.</li>
 *   <li>Strings: {@code "} and {@code \} escaped, {@code \b \f \n \r \t}, other controls as
 *       {@code &#92;u00XX} (lowercase hex), U+2028/U+2029 escaped; everything else raw UTF-8, including
 *       {@code /} and non-ASCII.</li>
 *   <li>Integers plain; doubles with the shortest round-trip digits, positional for decimal
 *       exponents −5 &lt; e &lt; 17 with a mandatory fraction ({@code 1.0}, {@code -0.0}), else
 *       {@code 1.0e+17} / {@code 1.5e-7}; a {@code BigDecimal} as its plain digits, scale kept
 *       ({@code 19.990}; see {@link JsonNumbers}).</li>
 * </ul>
 *
 * Values that cannot be encoded (NaN, infinities, unpaired surrogates, unsupported types, nesting
 * beyond the limit) throw {@link StorageException} naming the field path, before anything is
 * written anywhere. Thread-safe (stateless).
 */
public final class CanonicalJson {

    /** Deepest nesting accepted when encoding, counting the outermost object as 1. */
    public static final int MAX_ENCODE_DEPTH = 512;

    private static final char[] HEX = "0123456789abcdef".toCharArray();

    private CanonicalJson() {
    }

    /**
     * @param object a JSON object in the model
     * @return compact UTF-8 bytes plus {@code \n}; an empty map is {@code {}\n}
     * @throws StorageException when a value cannot be encoded
     */
    public static byte[] encodeCompact(Map<String, ?> object) {
        StringBuilder out = new StringBuilder(128);
        new Writer(out, false, MAX_ENCODE_DEPTH, false).value(object, 1, "");
        return out.append('\n').toString().getBytes(StandardCharsets.UTF_8);
    }

    /**
     * @param value any value of the JSON model (object, list, string, number, boolean, {@code null})
     * @return its compact canonical text, without a trailing newline; an empty map is {@code {}}
     * @throws StorageException when a value cannot be encoded
     */
    public static String compactText(Object value) {
        StringBuilder out = new StringBuilder(128);
        new Writer(out, false, MAX_ENCODE_DEPTH, false).value(value, 1, "");
        return out.toString();
    }

    /**
     * {@link #compactText(Object)} as the original sees its arrays: an empty object, and an object
     * whose keys are exactly {@code "0".."n-1"} in that order (how a list-shaped record is held),
     * are written as JSON arrays of their values, at any depth.
     *
     * @param value any value of the JSON model
     * @return its compact canonical text in that view, without a trailing newline
     * @throws StorageException when a value cannot be encoded
     */
    public static String compactPhpText(Object value) {
        StringBuilder out = new StringBuilder(128);
        new Writer(out, false, MAX_ENCODE_DEPTH, true).value(value, 1, "");
        return out.toString();
    }

    /**
     * @param object a JSON object in the model
     * @return pretty-printed text plus {@code \n}, as used for manifests and metadata
     * @throws StorageException when a value cannot be encoded
     */
    public static String encodePretty(Map<String, ?> object) {
        StringBuilder out = new StringBuilder(256);
        new Writer(out, true, MAX_ENCODE_DEPTH, false).value(object, 1, "");
        return out.append('\n').toString();
    }

    /**
     * The canonical bytes of a record file and of a JSONL export line:
     * {@code {"id":"<id>","data":<compact data>}\n}. Empty data is written {@code []}, as the original
     * does. The data may nest at most {@code Jsonc.MAX_NESTING_DEPTH - 1} levels, so that the file
     * can always be read back (the original writes deeper data it can never read).
     *
     * @param id a valid id (not escaped)
     * @param data the record data
     * @return the file bytes
     * @throws StorageException when a value cannot be encoded or nests too deeply
     */
    public static byte[] recordBytes(String id, Map<String, ?> data) {
        StringBuilder out = new StringBuilder(96 + data.size() * 24);
        out.append("{\"id\":\"").append(id).append("\",\"data\":");
        if (data.isEmpty()) {
            out.append("[]");
        } else {
            new Writer(out, false, Jsonc.MAX_NESTING_DEPTH, false).value(data, 2, "");
        }
        return out.append("}\n").toString().getBytes(StandardCharsets.UTF_8);
    }

    /**
     * Formats a double the way the original does.
     *
     * @param d a finite double
     * @return e.g. {@code 1.0}, {@code -0.0}, {@code 0.0001}, {@code 1.0e-5}, {@code 1.0e+21}
     */
    public static String formatDouble(double d) {
        String java = NumberOutput.toString(d, true); // shortest round-trip digits (Schubfach)
        // Written without an exponent (10^-3 <= |d| < 10^7) this is already the original's text: the same
        // shortest digits, in the plain form the original uses for decimal exponents from -4 to 16
        return java.indexOf('E') < 0 ? java : fromDigits(java, d);
    }

    /**
     * {@link #formatDouble} built from the digits and exponent of Java's text for every double, also
     * those whose Java text is already the original's (for tests of that shortcut).
     *
     * @param d a finite double
     * @return the original's text of {@code d}
     */
    static String formatDoubleFromDigits(double d) {
        return fromDigits(NumberOutput.toString(d, true), d);
    }

    /**
     * @param javaText Java's shortest text of {@code d}
     * @param d a finite double
     * @return the original's text of {@code d}: its shortest digits, plain for decimal exponents
     *     from -4 to 16, else {@code d.ddde±x}
     */
    private static String fromDigits(String javaText, double d) {
        String java = javaText;
        boolean negative = java.charAt(0) == '-';
        if (negative) {
            java = java.substring(1);
        }
        int e = java.indexOf('E');
        int exp = e < 0 ? 0 : Integer.parseInt(java.substring(e + 1));
        String mantissa = e < 0 ? java : java.substring(0, e);
        int dot = mantissa.indexOf('.');
        String intPart = dot < 0 ? mantissa : mantissa.substring(0, dot);
        String fracPart = dot < 0 ? "" : mantissa.substring(dot + 1);
        String digits = intPart + fracPart;
        int exponent = exp + intPart.length() - 1; // value = d1.d2d3... x 10^exponent
        int lead = 0;
        while (lead < digits.length() - 1 && digits.charAt(lead) == '0') {
            lead++;
        }
        digits = digits.substring(lead);
        exponent -= lead;
        int trail = digits.length();
        while (trail > 1 && digits.charAt(trail - 1) == '0') {
            trail--;
        }
        digits = digits.substring(0, trail);
        if (digits.length() == 2) {
            // Java prints at least two digits and, for wide subnormal intervals, picks a closer
            // two-digit value (4.9E-324); the original prints the shortest (5.0e-324).
            int floor = digits.charAt(0) - '0';
            boolean roundUp = digits.charAt(1) >= '5';
            for (int candidate : new int[] {roundUp ? floor + 1 : floor, roundUp ? floor : floor + 1}) {
                int d1 = candidate;
                int e1 = exponent;
                if (d1 == 10) {
                    d1 = 1;
                    e1++;
                }
                if (d1 > 0 && Double.parseDouble(d1 + "e" + e1) == Math.abs(d)) {
                    digits = Integer.toString(d1);
                    exponent = e1;
                    break;
                }
            }
        }
        StringBuilder out = new StringBuilder(24);
        if (negative) {
            out.append('-');
        }
        if (digits.equals("0")) {
            return out.append("0.0").toString();
        }
        if (exponent > -5 && exponent < 17) {
            if (exponent >= 0) {
                if (digits.length() <= exponent + 1) {
                    out.append(digits);
                    out.append("0".repeat(exponent + 1 - digits.length()));
                    out.append(".0");
                } else {
                    out.append(digits, 0, exponent + 1).append('.').append(digits, exponent + 1, digits.length());
                }
            } else {
                out.append("0.").append("0".repeat(-exponent - 1)).append(digits);
            }
        } else {
            out.append(digits.charAt(0)).append('.');
            out.append(digits.length() > 1 ? digits.substring(1) : "0");
            out.append('e').append(exponent < 0 ? '-' : '+').append(Math.abs(exponent));
        }
        return out.toString();
    }

    /**
     * One encoding: the text it appends to, compact or pretty, the deepest nesting it accepts and
     * whether empty and list-shaped objects are written as arrays ({@link #compactPhpText}).
     */
    private record Writer(StringBuilder out, boolean pretty, int maxDepth, boolean phpArrays) {

        void value(Object v, int depth, String path) {
            if (v == null) {
                out.append("null");
            } else if (v instanceof String s) {
                string(s, path);
            } else if (v instanceof Boolean b) {
                out.append(b.booleanValue() ? "true" : "false");
            } else if (v instanceof Long l) {
                out.append(l.longValue());
            } else if (v instanceof Integer || v instanceof Short || v instanceof Byte
                    || v instanceof BigInteger || v instanceof AtomicLong || v instanceof AtomicInteger) {
                out.append(v);
            } else if (v instanceof Double d) {
                number(d, path);
            } else if (v instanceof Float f) {
                number(Double.parseDouble(Float.toString(f)), path);
            } else if (v instanceof BigDecimal bd) {
                decimal(bd, path);
            } else if (v instanceof Map<?, ?> m) {
                object(m, depth, path);
            } else if (v instanceof Collection<?> c) {
                array(c, depth, path);
            } else if (v instanceof Object[] a) {
                array(java.util.Arrays.asList(a), depth, path);
            } else if (v instanceof Character c) {
                string(c.toString(), path);
            } else {
                throw new StorageException("Cannot encode value of type " + v.getClass().getName()
                        + " as JSON at field: " + label(path));
            }
        }

        private void number(double d, String path) {
            if (Double.isNaN(d) || Double.isInfinite(d)) {
                throw new StorageException("Inf and NaN cannot be JSON encoded, at field: " + label(path));
            }
            out.append(formatDouble(d));
        }

        private void decimal(BigDecimal d, String path) {
            if (d.precision() - d.scale() > JsonNumbers.MAX_NUMBER_LENGTH || d.scale() > JsonNumbers.MAX_NUMBER_LENGTH) {
                throw new StorageException("Decimal " + d + " has more than " + JsonNumbers.MAX_NUMBER_LENGTH
                        + " digits and cannot be stored, at field: " + label(path));
            }
            out.append(d.toPlainString());
        }

        private void checkDepth(int depth, String path) {
            if (depth > maxDepth) {
                throw new StorageException("JSON nesting deeper than " + maxDepth
                        + " levels cannot be stored, at field: " + label(path));
            }
        }

        private void object(Map<?, ?> m, int depth, String path) {
            checkDepth(depth, path);
            if (phpArrays && listShaped(m)) {
                array(m.values(), depth, path);
                return;
            }
            if (m.isEmpty()) {
                out.append("{}");
                return;
            }
            out.append('{');
            boolean first = true;
            for (Map.Entry<?, ?> entry : m.entrySet()) {
                if (!(entry.getKey() instanceof String key)) {
                    throw new StorageException("JSON object keys must be strings, got "
                            + entry.getKey() + " at field: " + label(path));
                }
                if (!first) {
                    out.append(',');
                }
                first = false;
                newline(depth);
                String child = path.isEmpty() ? key : path + "." + key;
                string(key, child);
                out.append(pretty ? ": " : ":");
                value(entry.getValue(), depth + 1, child);
            }
            newline(depth - 1);
            out.append('}');
        }

        private void array(Collection<?> c, int depth, String path) {
            checkDepth(depth, path);
            if (c.isEmpty()) {
                out.append("[]");
                return;
            }
            out.append('[');
            int i = 0;
            for (Object item : c) {
                if (i > 0) {
                    out.append(',');
                }
                newline(depth);
                value(item, depth + 1, path + "[" + i + "]");
                i++;
            }
            newline(depth - 1);
            out.append(']');
        }

        private void newline(int indentLevels) {
            if (pretty) {
                out.append('\n');
                out.append("    ".repeat(Math.max(0, indentLevels)));
            }
        }

        private void string(String s, String path) {
            out.append('"');
            int n = s.length();
            int plain = plainPrefix(s, n);
            if (plain == n) {
                out.append(s).append('"');
                return;
            }
            out.append(s, 0, plain);
            for (int i = plain; i < n; i++) {
                char c = s.charAt(i);
                switch (c) {
                    case '"' -> out.append("\\\"");
                    case '\\' -> out.append("\\\\");
                    case '\b' -> out.append("\\b");
                    case '\f' -> out.append("\\f");
                    case '\n' -> out.append("\\n");
                    case '\r' -> out.append("\\r");
                    case '\t' -> out.append("\\t");
                    case '\u2028' -> out.append("\\u2028");
                    case '\u2029' -> out.append("\\u2029");
                    default -> {
                        if (c < 0x20) {
                            out.append("\\u00").append(HEX[c >> 4]).append(HEX[c & 0xf]);
                        } else if (Character.isHighSurrogate(c) && i + 1 < n && Character.isLowSurrogate(s.charAt(i + 1))) {
                            out.append(c).append(s.charAt(++i));
                        } else if (Character.isSurrogate(c)) {
                            throw new StorageException("Malformed UTF-8 characters, possibly incorrectly encoded"
                                    + " (unpaired surrogate) at field: " + label(path));
                        } else {
                            out.append(c);
                        }
                    }
                }
            }
            out.append('"');
        }

        /**
         * @return how many leading chars of {@code s} are written as they are: no control char, no
         *     {@code "} or backslash, no surrogate, no U+2028/U+2029 (those go through the escaping loop)
         */
        private static int plainPrefix(String s, int n) {
            for (int i = 0; i < n; i++) {
                char c = s.charAt(i);
                if (c < 0x20 || c == '"' || c == '\\' || c >= '\u2028' && (c <= '\u2029' || c >= '\ud800' && c <= '\udfff')) {
                    return i;
                }
            }
            return n;
        }

        /** @return whether the keys are exactly {@code "0".."n-1"} in order (true when empty) */
        private static boolean listShaped(Map<?, ?> m) {
            int index = 0;
            for (Object key : m.keySet()) {
                if (!(key instanceof String k) || !isIndex(k, index++)) {
                    return false;
                }
            }
            return true;
        }

        /** @return whether {@code key} is {@code Integer.toString(index)}: digits, no sign, no leading zero */
        private static boolean isIndex(String key, int index) {
            int n = key.length();
            if (n == 0 || n > 10 || n > 1 && key.charAt(0) == '0') {
                return false;
            }
            long value = 0;
            for (int k = 0; k < n; k++) {
                char c = key.charAt(k);
                if (c < '0' || c > '9') {
                    return false;
                }
                value = value * 10 + (c - '0');
            }
            return value == index;
        }

        private static String label(String path) {
            return path.isEmpty() ? "(top level)" : path;
        }
    }
}
