package dev.storh.json;

import java.math.BigDecimal;
import java.math.BigInteger;

/**
 * The number model of stored JSON (described in full in {@code docs/json-model.md}).
 *
 * <ul>
 *   <li>An integer literal is a {@code Long}, or a {@code BigInteger} outside the signed 64-bit range.</li>
 *   <li>A literal with an exponent ({@code 1.0e+20}, {@code 5e-324}) is a {@code Double}.</li>
 *   <li>A plain decimal literal ({@code 1.5}, {@code -0.0}, {@code 19.990}) is a {@code Double} when the
 *       canonical writer would print that double as exactly the same text, and otherwise an exact
 *       {@code BigDecimal} of the literal, scale included ({@code 19.990}, {@code 0.10},
 *       {@code 12345678901234567890.123456789}). Files the original writes always hold the canonical
 *       text, so they read as doubles and rewrite byte for byte.</li>
 *   <li>A {@code BigDecimal} is written as its plain digits ({@link BigDecimal#toPlainString()}), a JSON
 *       number any JSON reader accepts; one without a fraction ({@code scale <= 0}) is therefore read
 *       back as an integer.</li>
 * </ul>
 *
 * Every number denotes a decimal value ({@link #decimalOf}): integers and {@code BigDecimal}s their
 * exact value, a double the decimal its canonical text shows ({@code 0.1} means 0.1). Stateless and
 * thread-safe.
 */
public final class JsonNumbers {

    /** Longest number text, in characters, that is written (and that the reader accepts). */
    public static final int MAX_NUMBER_LENGTH = 1000;

    private static final BigInteger LONG_MIN = BigInteger.valueOf(Long.MIN_VALUE);
    private static final BigInteger LONG_MAX = BigInteger.valueOf(Long.MAX_VALUE);

    private JsonNumbers() {
    }

    /**
     * The value of a plain decimal literal (digits, one dot, no exponent), by the rule above.
     *
     * @param text the literal as it appears in the document, e.g. {@code -12.50}
     * @param parsed the literal parsed as a double (correctly rounded)
     * @return a {@code Double} or a {@code BigDecimal}
     */
    static Object fromPlainDecimal(String text, double parsed) {
        if (parsed == 0 && text.charAt(0) == '-') {
            return parsed; // -0.00: keep the sign the original sees; the decimal value is 0 anyway
        }
        if (Double.isFinite(parsed) && !hasExtraTrailingZero(text)
                && (isShortPlainDecimal(text) || CanonicalJson.formatDouble(parsed).equals(text))) {
            return parsed;
        }
        return new BigDecimal(text);
    }

    /** The most significant digits a decimal can have and still come back from a double unchanged. */
    private static final int DOUBLE_DIGITS = 15;

    /**
     * Whether a plain decimal is canonical without formatting its double: a decimal of at most 15
     * significant digits comes back unchanged from the double nearest to it, so the shortest digits
     * that identify that double are its own, and the canonical writer prints them as written when
     * there is no leading zero in the integer part, no zero after the last fraction digit but a lone
     * {@code .0}, and the value lies between {@code 0.0001} and {@code 10^15}, where it writes no
     * exponent. {@code false} leaves the answer to the writer's text.
     *
     * @param text digits, one dot, digits, an optional leading minus; no extra trailing zero
     */
    private static boolean isShortPlainDecimal(String text) {
        int n = text.length();
        int at = text.charAt(0) == '-' ? 1 : 0;
        int dot = text.indexOf('.', at);
        if (dot <= at || dot == n - 1 || n - at - 1 > DOUBLE_DIGITS + 4) {
            return false;
        }
        for (int i = at; i < n; i++) {
            char c = text.charAt(i);
            if ((c < '0' || c > '9') && i != dot) {
                return false;
            }
        }
        if (dot - at > 1) { // an integer part of two digits or more: no leading zero, digits counted from it
            return text.charAt(at) != '0' && n - at - 1 <= DOUBLE_DIGITS;
        }
        if (text.charAt(at) != '0') { // one integer digit, 1 to 9
            return n - at - 1 <= DOUBLE_DIGITS;
        }
        int zeros = 0; // 0.xxx: zeros after the dot before the first significant digit
        while (dot + 1 + zeros < n && text.charAt(dot + 1 + zeros) == '0') {
            zeros++;
        }
        if (dot + 1 + zeros == n) {
            return n - dot - 1 == 1; // 0.0 alone (0.00 has an extra trailing zero)
        }
        return zeros <= 3 && n - dot - 1 - zeros <= DOUBLE_DIGITS;
    }

    /** {@code 1.50} can never be canonical ({@code 1.0} can): skips the formatting for the common money case. */
    private static boolean hasExtraTrailingZero(String text) {
        int n = text.length();
        return n >= 2 && text.charAt(n - 1) == '0' && text.charAt(n - 2) != '.';
    }

    /**
     * What a {@code BigDecimal} becomes once written and read back: a {@code Long} or {@code BigInteger}
     * when it has no fraction digits, a {@code Double} when its plain text is a canonical double, else
     * the {@code BigDecimal} itself.
     *
     * @param d a decimal
     * @return its value in the JSON model
     */
    public static Object model(BigDecimal d) {
        if (d.scale() <= 0) {
            return integer(d.toBigInteger());
        }
        String plain = d.toPlainString();
        return fromPlainDecimal(plain, Double.parseDouble(plain));
    }

    /**
     * @param b an integer
     * @return a {@code Long} when it fits in 64 bits, else the {@code BigInteger}
     */
    public static Object integer(BigInteger b) {
        return b.compareTo(LONG_MIN) >= 0 && b.compareTo(LONG_MAX) <= 0 ? (Object) b.longValue() : b;
    }

    /**
     * The exact decimal a number of the JSON model denotes.
     *
     * @param n a {@code Long}, {@code Integer}, {@code BigInteger}, {@code BigDecimal} or finite {@code Double}
     * @return its value; a double's is the decimal of its canonical text ({@code 0.1} → {@code 0.1},
     *     {@code -0.0} → {@code 0.0}), so {@code 19.99} and {@code 19.990} have equal values
     * @throws NumberFormatException for a NaN or infinite double
     */
    public static BigDecimal decimalOf(Number n) {
        if (n instanceof BigDecimal d) {
            return d;
        }
        if (n instanceof BigInteger b) {
            return new BigDecimal(b);
        }
        if (n instanceof Double || n instanceof Float) {
            double d = n.doubleValue();
            return d == 0 ? BigDecimal.ZERO : new BigDecimal(CanonicalJson.formatDouble(d));
        }
        return BigDecimal.valueOf(n.longValue());
    }

    /**
     * The double the original implementation sees for a stored number: it reads every literal with a
     * fraction, an exponent, or beyond 64 bits as a double. Index keys are computed from it.
     *
     * @param n a number of the JSON model
     * @return the nearest double (a {@code -0.0} stays negative)
     */
    public static double originalDouble(Number n) {
        return n.doubleValue(); // correctly rounded for BigDecimal and BigInteger too
    }
}
