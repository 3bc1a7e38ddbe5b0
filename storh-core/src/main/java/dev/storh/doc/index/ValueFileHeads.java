package dev.storh.doc.index;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads the start of a value file written in the compact layout both implementations write
 * ({@link EqualityFiles}: {@code {"field":…,"key":"…","count":N,"value":…,"ids":["…",…]}}) straight
 * from its bytes, without a JSON parser: a count or the first ids of a file cost one small read and
 * a few byte comparisons. The {@code field} and {@code value} strings are skipped, escapes and
 * UTF-8 text included (a compound bucket's field holds a tab, {@code "a\tb"}); the key and the ids
 * are read only when they are plain printable ASCII. Anything else (another member order, an escape
 * in the key or an id, whitespace, a comment, or bytes that end before the answer) is left to the
 * JSON reader: {@link #scan} then answers {@code null}. Stateless.
 */
final class ValueFileHeads {

    /** Bytes read first for a count: the field name, the key and the count fit in them. */
    static final int COUNT_BYTES = 512;

    /** Bytes an id takes in the ids array: 36 characters, two quotes and a comma. */
    static final int ID_BYTES = 39;

    private ValueFileHeads() {
    }

    /**
     * @param limit how many ids the caller wants (0 for the count alone)
     * @return how many bytes to read first for that answer
     */
    static int bytesFor(int limit) {
        return (int) Math.min(1 << 20, COUNT_BYTES + (long) ID_BYTES * limit);
    }

    /**
     * @param b the first bytes of a value file
     * @param length how many of them were read
     * @param expectedKey the key the file must carry
     * @param limit how many ids to collect; 0 returns after {@code count}
     * @return what {@link EqualityFiles#headOfValueFile} answers for these bytes (count 0 and no ids
     *     when the file carries another key), or {@code null} when they are not in the compact
     *     layout or end before the answer
     */
    static EqualityFiles.Head scan(byte[] b, int length, String expectedKey, int limit) {
        int at = expect(b, length, 0, "{\"field\":");
        at = at < 0 ? -1 : skipEscapedString(b, length, at);
        at = at < 0 ? -1 : expect(b, length, at, ",\"key\":");
        if (at < 0 || at >= length || b[at] != '"') {
            return null;
        }
        int keyEnd = skipString(b, length, at);
        if (keyEnd < 0) {
            return null;
        }
        if (!expectedKey.equals(new String(b, at + 1, keyEnd - at - 2, StandardCharsets.ISO_8859_1))) {
            return new EqualityFiles.Head(0, List.of());
        }
        at = expect(b, length, keyEnd, ",\"count\":");
        if (at < 0) {
            return null;
        }
        long count = 0;
        int digits = at;
        while (digits < length && b[digits] >= '0' && b[digits] <= '9' && digits - at < 18) {
            count = count * 10 + (b[digits] - '0');
            digits++;
        }
        if (digits == at || digits >= length || b[digits] != ',') {
            return null; // a sign, a fraction, a long number or the end of the bytes: the JSON reader decides
        }
        if (limit == 0) {
            return new EqualityFiles.Head(count, List.of());
        }
        at = expect(b, length, digits, ",\"value\":");
        at = at < 0 ? -1 : skipScalar(b, length, at);
        at = at < 0 ? -1 : expect(b, length, at, ",\"ids\":[");
        if (at < 0) {
            return null;
        }
        List<String> ids = new ArrayList<>(Math.min(limit, 1024));
        if (at < length && b[at] == ']') {
            return new EqualityFiles.Head(count, ids);
        }
        while (ids.size() < limit) {
            if (at >= length || b[at] != '"') {
                return null;
            }
            int end = skipString(b, length, at);
            if (end < 0 || end >= length) {
                return null;
            }
            ids.add(new String(b, at + 1, end - at - 2, StandardCharsets.ISO_8859_1));
            if (b[end] == ']') {
                break;
            }
            if (b[end] != ',') {
                return null;
            }
            at = end + 1;
        }
        return new EqualityFiles.Head(count, ids);
    }

    /** @return the position after {@code token} (ASCII) at {@code at}, or -1 */
    private static int expect(byte[] b, int length, int at, String token) {
        if (at + token.length() > length) {
            return -1;
        }
        for (int i = 0; i < token.length(); i++) {
            if (b[at + i] != token.charAt(i)) {
                return -1;
            }
        }
        return at + token.length();
    }

    /**
     * @return the position after the string starting with the quote at {@code at}, or -1 when it
     *     holds an escape or a byte outside printable ASCII, or ends past the bytes read
     */
    private static int skipString(byte[] b, int length, int at) {
        return skipString(b, length, at, false);
    }

    /**
     * @return the position after the string starting with the quote at {@code at}, escapes and
     *     UTF-8 bytes included, or -1 when it holds a control byte (below 0x20: not JSON) or ends
     *     past the bytes read
     */
    private static int skipEscapedString(byte[] b, int length, int at) {
        return skipString(b, length, at, true);
    }

    /**
     * @param escapes whether escapes and bytes outside ASCII are skipped (else they end the scan with -1)
     * @return the position after the string starting with the quote at {@code at}, or -1
     */
    private static int skipString(byte[] b, int length, int at, boolean escapes) {
        if (at >= length || b[at] != '"') {
            return -1;
        }
        for (int i = at + 1; i < length; i++) {
            byte c = b[i];
            if (c == '"') {
                return i + 1;
            }
            if (c >= 0 && c < 0x20) {
                return -1;
            }
            if (c == '\\' || c < 0 || c == 0x7f) {
                if (!escapes) {
                    return -1;
                }
                if (c == '\\') {
                    i++; // the escaped byte: a quote or backslash there does not end the string
                }
            }
        }
        return -1;
    }

    /** @return the position after the scalar value at {@code at} (a string, a number, true, false, null), or -1 */
    private static int skipScalar(byte[] b, int length, int at) {
        if (at < length && b[at] == '"') {
            return skipEscapedString(b, length, at);
        }
        for (String word : WORDS) {
            int after = expect(b, length, at, word);
            if (after >= 0) {
                return after < length ? after : -1;
            }
        }
        int i = at;
        while (i < length && (b[i] >= '0' && b[i] <= '9' || b[i] == '-' || b[i] == '+' || b[i] == '.' || b[i] == 'e'
                || b[i] == 'E')) {
            i++;
        }
        return i == at || i >= length ? -1 : i; // the JSON reader checks the number when it is read
    }

    private static final String[] WORDS = {"null", "true", "false"};
}
