package dev.storh.log;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Random;

/**
 * Random record data of every value kind the log writes, for the tests of the readers of a put line's
 * bytes ({@link LineData}, {@link LineValues}): strings with escapes, control characters and non-ASCII text,
 * integers up to and past 64 bits, doubles, scaled decimals, nested lists and objects.
 */
final class RandomLineData {

    static final String[] STRINGS = {"", "a", "published", "with \"quotes\"", "back\\slash", "a/b", "tab\there",
        "line\nfeed", "\u0001ctl", "\u007fdel", "caf\u00e9", "\u65e5\u672c", "emoji \ud83d\ude00", "\u2028", "\ufffd",
        "12", "-1", "0", "01", "-0", "caf\u00e9 \"quoted\""};

    private RandomLineData() {
    }

    /**
     * @param fixed the seeds a test runs with
     * @return those, or the one given by {@code -Dstorh.seed=} instead
     */
    static long[] seeds(long... fixed) {
        String one = System.getProperty("storh.seed");
        return one == null ? fixed : new long[] {Long.decode(one)};
    }

    /**
     * @param random the source
     * @return up to seven fields, with names such as {@code f3} and from {@link #STRINGS}
     */
    static Map<String, Object> record(Random random) {
        Map<String, Object> data = new LinkedHashMap<>();
        for (int i = random.nextInt(8); i > 0; i--) {
            String key = random.nextInt(5) == 0 ? STRINGS[random.nextInt(STRINGS.length)] : "f" + random.nextInt(6);
            data.put(key, value(random, 0));
        }
        return data;
    }

    private static Object value(Random random, int depth) {
        switch (random.nextInt(depth > 2 ? 10 : 13)) {
            case 0:
                return STRINGS[random.nextInt(STRINGS.length)];
            case 1:
                return random.nextBoolean();
            case 2:
                return null;
            case 3:
                return random.nextInt(5) == 0 ? Long.MIN_VALUE + random.nextInt(3) : (long) random.nextInt(2001) - 1000;
            case 4:
                return random.nextBoolean() ? Long.MAX_VALUE : 999_999_999_999_999_999L + random.nextInt(3);
            case 5:
                return new BigInteger("123456789012345678901234567890").negate().pow(1 + random.nextInt(2));
            case 6:
                return new double[] {1.5, 2.0, -0.0, 0.1, -3.25, 1e20, 1.0e-7, 123456.789}[random.nextInt(8)];
            case 7:
                String[] decimals = {"2.50", "19.990", "-0.10", "0.000", "1E+3", "12345678901234567890.5"};
                return new BigDecimal(decimals[random.nextInt(decimals.length)]);
            case 8:
                return "s" + random.nextInt(10);
            case 9:
                return (long) random.nextInt(10);
            case 10:
                return Arrays.asList(value(random, depth + 1), value(random, depth + 1));
            case 11:
                return new ArrayList<>();
            default:
                Map<String, Object> m = new LinkedHashMap<>();
                m.put("in", value(random, depth + 1));
                m.put(STRINGS[random.nextInt(STRINGS.length)], value(random, depth + 1));
                return m;
        }
    }
}
