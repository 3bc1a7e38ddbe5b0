package dev.storh.log;

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
        LineCursor c = new LineCursor(json, from + 1, to - 1);
        if (c.done()) {
            return new Object[0];
        }
        List<String> fields = new ArrayList<>(); // the top-level field names read, to tell a repeated one
        List<Object> keys = new ArrayList<>(); // field, counter key, field, counter key, ... of the counted values
        while (true) {
            String field = c.string(false);
            if (field == null || fields.contains(field) || !c.take(':')) {
                return null;
            }
            fields.add(field);
            Object value = value(c, 0);
            if (value == null) {
                return null;
            }
            if (value != SKIPPED && !LogLine.isIntegerLike(field)) {
                keys.add(field);
                keys.add(value);
            }
            if (c.done()) {
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

    /**
     * @return the value's counter key (String, Boolean, Long, {@link EqualityCounts#NULL_VALUE}), {@link #SKIPPED},
     *     or null when it is not read here
     */
    private static Object value(LineCursor c, int depth) {
        if (c.done()) {
            return null;
        }
        byte first = c.peek();
        if (first == '"') {
            return c.string(false);
        }
        if (first == '{' || first == '[') {
            return skipNested(c, depth + 1) ? SKIPPED : null;
        }
        if (first == '-' || (first >= '0' && first <= '9')) {
            return number(c);
        }
        if (c.literal("true")) {
            return Boolean.TRUE;
        }
        if (c.literal("false")) {
            return Boolean.FALSE;
        }
        return c.literal("null") ? EqualityCounts.NULL_VALUE : null;
    }

    private static Object number(LineCursor c) {
        int start = c.position();
        int n = c.integer();
        if (n == 0) {
            return null; // no digit, or a leading zero: the decoder refuses it
        }
        if (c.skipNumberTail()) {
            return validFraction(c.latin1(start)) ? SKIPPED : null;
        }
        if (n <= LineCursor.LONG_DIGITS) {
            return c.integerValue();
        }
        try {
            return Long.parseLong(c.latin1(start));
        } catch (NumberFormatException tooBig) {
            return SKIPPED; // a big integer: never identical to a counted value
        }
    }

    /** Whether {@code text} is a JSON fraction the decoder accepts. */
    private static boolean validFraction(String text) {
        return text.matches("-?(0|[1-9][0-9]*)(\\.[0-9]+)?([eE][+-]?[0-9]+)?");
    }

    /** Reads a list or an object through, checking its syntax; its values are not kept. */
    private static boolean skipNested(LineCursor c, int depth) {
        if (depth > MAX_DEPTH) {
            return false;
        }
        boolean object = c.peek() == '{';
        char close = object ? '}' : ']';
        c.skip();
        if (c.take(close)) {
            return true;
        }
        while (true) {
            if (object && (c.string(false) == null || !c.take(':'))) {
                return false;
            }
            if (value(c, depth) == null) {
                return false;
            }
            if (c.take(close)) {
                return true;
            }
            if (!c.take(',')) {
                return false;
            }
        }
    }
}
