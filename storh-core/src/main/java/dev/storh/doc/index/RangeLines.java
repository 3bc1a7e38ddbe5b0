package dev.storh.doc.index;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * A fast reader of range index lines in the exact compact form both implementations write,
 * {@code {"key":"…","value":…,"count":…,"ids":[…],"remove":[…]}} with no white space: keys, ids and
 * string values in plain ASCII without escapes, integer values and counts as literals. A line in any
 * other form (white space, escapes, other members, non-ASCII text, fractions) is left to the full JSON
 * decoder ({@link RangeFiles#decodeLine}), which gives the same answer: this class only spares the
 * decoder's per-line set-up on the lines that make up nearly every range file. Stateless.
 */
final class RangeLines {

    private static final byte[] KEY = ascii("{\"key\":");
    private static final byte[] VALUE = ascii(",\"value\":");
    private static final byte[] COUNT = ascii(",\"count\":");
    private static final byte[] IDS = ascii(",\"ids\":");
    private static final byte[] REMOVE = ascii(",\"remove\":");
    private static final byte[] TRUE = ascii("true");
    private static final byte[] FALSE = ascii("false");
    private static final byte[] NULL = ascii("null");

    private RangeLines() {
    }

    /**
     * @param bytes a buffer
     * @param off where the line starts
     * @param len its length, without the newline
     * @return the decoded line, or {@code null} when it is not in the plain form (decode it fully)
     */
    static RangeFiles.Line decode(byte[] bytes, int off, int len) {
        Cursor c = new Cursor(bytes, off, off + len);
        if (!c.expect(KEY)) {
            return null;
        }
        String key = c.string();
        if (key == null || !c.expect(VALUE)) {
            return null;
        }
        Object[] value = new Object[1];
        if (!c.value(value) || !c.expect(COUNT)) {
            return null;
        }
        Long count = c.integer();
        if (count == null || !c.expect(IDS)) {
            return null;
        }
        List<String> ids = c.strings();
        if (ids == null || !c.expect(REMOVE)) {
            return null;
        }
        List<String> remove = c.strings();
        if (remove == null || !c.expectLast('}')) {
            return null;
        }
        return new RangeFiles.Line(key, value[0], count, ids, remove);
    }

    private static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }

    /** A position in one line. */
    private static final class Cursor {
        private final byte[] b;
        private final int end;
        private int at;

        Cursor(byte[] b, int at, int end) {
            this.b = b;
            this.at = at;
            this.end = end;
        }

        boolean expect(byte[] literal) {
            if (end - at < literal.length) {
                return false;
            }
            for (int i = 0; i < literal.length; i++) {
                if (b[at + i] != literal[i]) {
                    return false;
                }
            }
            at += literal.length;
            return true;
        }

        boolean expectLast(char ch) {
            return at == end - 1 && b[at] == ch;
        }

        /** A string of printable ASCII without escapes; {@code null} otherwise. */
        String string() {
            if (at >= end || b[at] != '"') {
                return null;
            }
            int start = at + 1;
            for (int i = start; i < end; i++) {
                byte x = b[i];
                if (x == '"') {
                    at = i + 1;
                    return new String(b, start, i - start, StandardCharsets.ISO_8859_1);
                }
                if (x < 0x20 || x == '\\') { // negative: not ASCII
                    return null;
                }
            }
            return null;
        }

        /** {@code -?(0|[1-9][0-9]*)} of at most 18 digits; {@code null} otherwise. */
        Long integer() {
            int i = at;
            boolean negative = i < end && b[i] == '-';
            if (negative) {
                i++;
            }
            int first = i;
            long n = 0;
            while (i < end && b[i] >= '0' && b[i] <= '9') {
                n = n * 10 + (b[i] - '0');
                i++;
            }
            int digits = i - first;
            if (digits == 0 || digits > 18 || (digits > 1 && b[first] == '0')
                    || (i < end && (b[i] == '.' || b[i] == 'e' || b[i] == 'E'))) {
                return null;
            }
            at = i;
            return negative ? -n : n;
        }

        /** A string, an integer, {@code true}, {@code false} or {@code null} into {@code out[0]}. */
        boolean value(Object[] out) {
            if (at >= end) {
                return false;
            }
            byte x = b[at];
            if (x == '"') {
                out[0] = string();
                return out[0] != null;
            }
            if (x == '-' || (x >= '0' && x <= '9')) {
                out[0] = integer();
                return out[0] != null;
            }
            if (expect(TRUE)) {
                out[0] = Boolean.TRUE;
            } else if (expect(FALSE)) {
                out[0] = Boolean.FALSE;
            } else if (expect(NULL)) {
                out[0] = null;
            } else {
                return false;
            }
            return true;
        }

        /** {@code []} or {@code ["…","…"]} of plain strings; {@code null} otherwise. */
        List<String> strings() {
            if (at >= end || b[at] != '[') {
                return null;
            }
            at++;
            List<String> out = new ArrayList<>();
            if (at < end && b[at] == ']') {
                at++;
                return out;
            }
            while (true) {
                String s = string();
                if (s == null || at >= end) {
                    return null;
                }
                out.add(s);
                if (b[at] == ']') {
                    at++;
                    return out;
                }
                if (b[at] != ',') {
                    return null;
                }
                at++;
            }
        }
    }
}
