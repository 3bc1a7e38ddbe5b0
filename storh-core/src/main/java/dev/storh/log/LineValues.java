package dev.storh.log;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The counted values of a record read straight from the data bytes of a canonical put line, without
 * building the record: what {@link EqualityCounts#keysOf} gives for the decoded data, at a fraction of
 * the cost, so that the scan of every segment at open can build the equality counts as it goes.
 *
 * <p>Only the shape the log writes is read here: an object (or {@code []} for no data) without white
 * space, keys and string values of ASCII bytes with the escapes {@code \" \\ \/ \b \f \n \r \t} and
 * {@code \\u} followed by four hex digits, integers without leading zeros, and nested lists and objects, which
 * are skipped. Anything else (a non-ASCII byte in a counted place, a repeated key, a number or literal the
 * strict decoder would refuse, a syntax error) answers {@code null}, and the caller decodes the line as
 * before, so the answer is always the decoder's. Stateless and thread-safe.
 */
final class LineValues {

    private LineValues() {
    }

    /**
     * @param json a canonical put line's JSON
     * @param from where its data starts
     * @param to where its data ends (exclusive)
     * @return the counted values as {@link EqualityCounts#keysOf} gives them for the decoded data, or
     *     {@code null} when the bytes are not of the plain shape read here
     */
    static Object[] keysOf(byte[] json, int from, int to) {
        if (to - from == 2 && json[from] == '[' && json[from + 1] == ']') {
            return new Object[0];
        }
        if (to - from < 2 || json[from] != '{' || json[to - 1] != '}') {
            return null;
        }
        Cursor c = new Cursor(json, from + 1, to - 1);
        List<String> fields = c.fields;
        List<Object> keys = c.keys;
        if (c.at == c.end) {
            return new Object[0];
        }
        while (true) {
            String field = c.string();
            if (field == null || fields.contains(field) || !c.take(':')) {
                return null;
            }
            fields.add(field);
            Object value = c.value();
            if (value == null) {
                return null;
            }
            if (value != SKIPPED && !LogLine.isIntegerLike(field)) {
                keys.add(field);
                keys.add(value);
            }
            if (c.at == c.end) {
                return keys.toArray();
            }
            if (!c.take(',')) {
                return null;
            }
        }
    }

    /** A value that is read but not counted (a fraction, a big integer, a list, an object). */
    static final Object SKIPPED = new Object();
    /** Deeper nesting is left to the decoder (and its own limit). */
    private static final int MAX_DEPTH = 64;

    /** A read position in the data bytes, and what was read at the top level so far. */
    private static final class Cursor {
        /** The top-level field names read, to tell a repeated one. */
        final List<String> fields = new ArrayList<>();
        /** Field, counter key, field, counter key, ... of the counted top-level values. */
        final List<Object> keys = new ArrayList<>();
        private final byte[] b;
        private final int end;
        private int at;

        Cursor(byte[] data, int from, int to) {
            b = data;
            at = from;
            end = to;
        }

        boolean take(char c) {
            if (at < end && b[at] == c) {
                at++;
                return true;
            }
            return false;
        }

        /** @return the value's counter key (String, Boolean, Long, {@link EqualityCounts#NULL_VALUE}), {@link #SKIPPED}, or null */
        Object value() {
            return nested(0);
        }

        private Object nested(int depth) {
            if (at >= end) {
                return null;
            }
            byte first = b[at];
            if (first == '"') {
                return string();
            }
            if (first == '{' || first == '[') {
                return skipNested(depth + 1) ? SKIPPED : null;
            }
            if (first == '-' || (first >= '0' && first <= '9')) {
                return number();
            }
            if (literal("true")) {
                return Boolean.TRUE;
            }
            if (literal("false")) {
                return Boolean.FALSE;
            }
            return literal("null") ? EqualityCounts.NULL_VALUE : null;
        }

        private boolean literal(String word) {
            int n = word.length();
            if (at + n > end) {
                return false;
            }
            for (int i = 0; i < n; i++) {
                if (b[at + i] != word.charAt(i)) {
                    return false;
                }
            }
            at += n;
            return true;
        }

        private Object number() {
            int start = at;
            if (b[at] == '-') {
                at++;
            }
            int digits = at;
            while (at < end && b[at] >= '0' && b[at] <= '9') {
                at++;
            }
            if (at == digits || (b[digits] == '0' && at - digits > 1)) {
                return null; // no digit, or a leading zero: the decoder refuses it
            }
            boolean fraction = false;
            while (at < end && (b[at] == '.' || b[at] == 'e' || b[at] == 'E' || b[at] == '+' || b[at] == '-'
                    || (b[at] >= '0' && b[at] <= '9'))) {
                fraction = true;
                at++;
            }
            if (fraction) {
                return validFraction(start) ? SKIPPED : null;
            }
            try {
                return Long.parseLong(new String(b, start, at - start, StandardCharsets.ISO_8859_1));
            } catch (NumberFormatException tooBig) {
                return SKIPPED; // a big integer: never identical to a counted value
            }
        }

        /** Whether the number from {@code start} to here is a JSON fraction the decoder accepts. */
        private boolean validFraction(int start) {
            String text = new String(b, start, at - start, StandardCharsets.ISO_8859_1);
            return text.matches("-?(0|[1-9][0-9]*)(\\.[0-9]+)?([eE][+-]?[0-9]+)?");
        }

        /** @return the string at the cursor, escapes resolved, or null when it is not plain ASCII JSON */
        String string() {
            if (!take('"')) {
                return null;
            }
            StringBuilder out = null;
            int start = at;
            while (at < end) {
                byte c = b[at];
                if (c == '"') {
                    String s = out == null ? new String(b, start, at - start, StandardCharsets.ISO_8859_1) : out.toString();
                    at++;
                    return s;
                }
                if (c < 0x20) {
                    return null; // a control byte, or a non-ASCII byte (negative): decode the line instead
                }
                if (c != '\\') {
                    if (out != null) {
                        out.append((char) c);
                    }
                    at++;
                    continue;
                }
                if (out == null) {
                    out = new StringBuilder().append(new String(b, start, at - start, StandardCharsets.ISO_8859_1));
                }
                if (!escape(out)) {
                    return null;
                }
            }
            return null;
        }

        private boolean escape(StringBuilder out) {
            if (at + 1 >= end) {
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
                    if (at + 4 > end) {
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
                        return false; // pairs and lone halves: leave them to the decoder
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

        /** Reads a list or an object through, checking its syntax; its values are not kept. */
        private boolean skipNested(int depth) {
            if (depth > MAX_DEPTH) {
                return false;
            }
            boolean object = b[at] == '{';
            byte close = (byte) (object ? '}' : ']');
            at++;
            if (take((char) close)) {
                return true;
            }
            while (true) {
                if (object && (string() == null || !take(':'))) {
                    return false;
                }
                if (nested(depth) == null) {
                    return false;
                }
                if (take((char) close)) {
                    return true;
                }
                if (!take(',')) {
                    return false;
                }
            }
        }
    }
}
