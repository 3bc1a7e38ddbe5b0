package dev.storh.doc.index;

import dev.storh.json.JsonNumbers;

/**
 * The classes of range keys whose byte order is the query order of their values
 * ({@code Values.compare}), so that a window of values is a window of keys:
 * <ul>
 * <li>{@link #NUMBERS}: keys {@code n-0…d……} of numbers from 0 up to 2^53 (exclusive). Their
 * keys are the doubles rounded to six decimals, zero-padded to one width: a rounding that keeps the
 * order (a key below another's means a smaller value, equal keys may still hold different values).
 * Every key sorting between two keys of the class is in the class (negative numbers sort after,
 * numbers from 1e16 on have a first digit other than 0, other kinds another letter).</li>
 * <li>{@link #STRINGS}: keys {@code s-<hex of UTF-8>}: hex keeps the byte order of UTF-8, which is
 * the code point order strings compare in; equal keys hold equal strings.</li>
 * </ul>
 * Stateless.
 */
enum RangeKeyOrder {
    NUMBERS,
    STRINGS;

    /** 2^53: below it every integer is a double, so integer keys and double keys round alike. */
    private static final double LIMIT = 9007199254740992.0;
    private static final String LIMIT_KEY = IndexKeys.rangeKey(9007199254740992L);
    private static final int NUMBER_KEY_LENGTH = LIMIT_KEY.length();
    private static final int POINT = NUMBER_KEY_LENGTH - 7;

    /**
     * @param key a range key
     * @return its class, or {@code null} when none
     */
    static RangeKeyOrder of(String key) {
        if (NUMBERS.holds(key)) {
            return NUMBERS;
        }
        return STRINGS.holds(key) ? STRINGS : null;
    }

    /**
     * @param key a range key
     * @return whether it is of this class
     */
    boolean holds(String key) {
        if (this == STRINGS) {
            return key.startsWith("s-");
        }
        return key.length() == NUMBER_KEY_LENGTH && key.startsWith("n-0") && key.charAt(POINT) == 'd'
                && key.compareTo(LIMIT_KEY) < 0;
    }

    /**
     * @param key the key a line carries
     * @param value the line's value
     * @return whether the key is of this class and is the value's range key
     */
    boolean matches(String key, Object value) {
        if (!holds(key)) {
            return false;
        }
        if (this == STRINGS) {
            return value instanceof String s && key.equals(IndexKeys.rangeKey(s));
        }
        if (value instanceof Long l) {
            return l >= 0 && key.regionMatches(POINT, "d000000", 0, 7) && Long.parseLong(key, 2, POINT, 10) == l;
        }
        return value instanceof Number && !(value instanceof Long) && key.equals(IndexKeys.rangeKey(value));
    }

    /**
     * The key of a bound: every line with a smaller key holds a smaller value, every line with a
     * greater key a greater value.
     *
     * @param bound a normalised bound
     * @return its key ({@code ""} when below every key of the class, {@code "~"} when above), or
     *     {@code null} when the bound is not of this class's kind (read the whole file)
     */
    String boundKey(Object bound) {
        if (this == STRINGS) {
            return bound instanceof String s ? IndexKeys.rangeKey(s) : null;
        }
        Double d = finite(bound);
        if (d == null) {
            return null;
        }
        return d < 0 ? "" : d >= LIMIT ? "~" : IndexKeys.rangeKey(bound);
    }

    private static Double finite(Object bound) {
        if (!(bound instanceof Number n)) {
            return null;
        }
        double d = JsonNumbers.originalDouble(n);
        return Double.isFinite(d) ? d : null;
    }
}
