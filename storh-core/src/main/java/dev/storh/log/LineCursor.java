package dev.storh.log;

import java.nio.charset.StandardCharsets;

/**
 * A read position in the data bytes of a canonical put line, with the reads that the decoders of those
 * bytes share ({@link LineData}, which builds the data, and {@link LineValues}, which reads the counted
 * values): single bytes, literals, integers and strings of the shape the log writes. Every read answers
 * whether (or what) it read, and a read that fails leaves the line to the strict decoder, so the position
 * after a failed read does not matter. One cursor reads one line, on one thread.
 */
final class LineCursor {

    /** Longest integer read as a {@code long} digit by digit: 18 digits never overflow. */
    static final int LONG_DIGITS = 18;

    private final byte[] b;
    private final int end;
    private int at;
    /** The value of the integer last read by {@link #integer()}, when it had at most {@value #LONG_DIGITS} digits. */
    private long integer;

    /**
     * @param bytes the bytes holding the data
     * @param from where the cursor starts
     * @param to where the data ends (exclusive)
     */
    LineCursor(byte[] bytes, int from, int to) {
        b = bytes;
        at = from;
        end = to;
    }

    /** @return whether the cursor is at the end of the data */
    boolean done() {
        return at >= end;
    }

    /** @return the byte at the cursor, which is not {@link #done()} */
    byte peek() {
        return b[at];
    }

    /** Moves past the byte at the cursor, which is not {@link #done()}. */
    void skip() {
        at++;
    }

    /** @return where the cursor is in the bytes */
    int position() {
        return at;
    }

    /**
     * @param c an ASCII character
     * @return whether it is at the cursor, which then moves past it
     */
    boolean take(char c) {
        if (at < end && b[at] == c) {
            at++;
            return true;
        }
        return false;
    }

    /**
     * @param word an ASCII word ({@code true}, {@code false}, {@code null})
     * @return whether it is at the cursor, which then moves past it
     */
    boolean literal(String word) {
        int n = word.length();
        if (end - at < n) {
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

    /**
     * Reads an integer {@code -?(0|[1-9][0-9]*)} at the cursor, which is on a {@code -} or a digit.
     *
     * @return how many digits it has (its value is then {@link #integerValue()} up to {@value #LONG_DIGITS}
     *     digits), or 0 when it has none or a leading zero, which the decoder refuses
     */
    int integer() {
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
        if (n == 0 || (b[digits] == '0' && n > 1)) {
            return 0;
        }
        integer = negative ? -value : value;
        return n;
    }

    /** @return the value of the integer last read by {@link #integer()}, when it had at most {@value #LONG_DIGITS} digits */
    long integerValue() {
        return integer;
    }

    /** @return how many digits the cursor moved past */
    int skipDigits() {
        int from = at;
        while (at < end && b[at] >= '0' && b[at] <= '9') {
            at++;
        }
        return at - from;
    }

    /** @return whether the cursor is on an exponent's {@code e} or {@code E} */
    boolean atExponent() {
        return at < end && (b[at] == 'e' || b[at] == 'E');
    }

    /** @return whether the cursor moved past any bytes that may go on a number ({@code . e E + -} and digits) */
    boolean skipNumberTail() {
        int from = at;
        while (at < end && (b[at] == '.' || b[at] == 'e' || b[at] == 'E' || b[at] == '+' || b[at] == '-'
                || (b[at] >= '0' && b[at] <= '9'))) {
            at++;
        }
        return at > from;
    }

    /**
     * @param from where the text starts
     * @return the bytes from {@code from} to the cursor, one character each (for ASCII text)
     */
    String latin1(int from) {
        return new String(b, from, at - from, StandardCharsets.ISO_8859_1);
    }

    /**
     * Reads a string: ASCII with the escapes {@code \" \\ \/ \b \f \n \r \t} and {@code \\u} plus four hex
     * digits (not a surrogate half), or, when {@code utf8}, also escape-free well-formed UTF-8.
     *
     * @param utf8 whether an escape-free string may hold non-ASCII bytes
     * @return the string at the cursor, escapes resolved, or null when there is none or it is not of that shape
     */
    String string(boolean utf8) {
        if (!take('"')) {
            return null;
        }
        int start = at;
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
            if (c < 0) {
                if (!utf8) {
                    return null; // a non-ASCII byte: the caller decodes the line instead
                }
                ascii = false;
            } else if (c < 0x20) {
                return null; // a control byte: the decoder refuses it
            }
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
