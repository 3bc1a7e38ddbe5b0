package dev.storh.log;

import static org.assertj.core.api.Assertions.assertThat;

import dev.storh.json.CanonicalJson;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The counted values read from a canonical put line's bytes are those of its decoded data, for random
 * records of every value kind (fixed seeds, {@code -Dstorh.seed=} for one more; the seed is in every
 * message), and a line the fast path cannot read is decoded instead.
 */
class LineValuesTest {

    private static final long[] SEEDS = {3L, 0xC0FFEEL, 20_261_201L};
    private static final String[] STRINGS = {"", "a", "published", "with \"quotes\"", "back\\slash", "a/b", "tab\there",
        "line\nfeed", "\u0001ctl", "caf\u00e9", "\u65e5\u672c", "emoji \ud83d\ude00", "\u2028", "12", "-1", "0", "01", "-0"};

    private static long[] seeds() {
        String one = System.getProperty("storh.seed");
        return one == null ? SEEDS : new long[] {Long.decode(one)};
    }

    private static Object value(Random random, int depth) {
        switch (random.nextInt(depth > 1 ? 9 : 12)) {
            case 0:
                return STRINGS[random.nextInt(STRINGS.length)];
            case 1:
                return random.nextBoolean();
            case 2:
                return null;
            case 3:
                return random.nextInt(5) == 0 ? Long.MIN_VALUE + random.nextInt(3) : (long) random.nextInt(2001) - 1000;
            case 4:
                return random.nextBoolean() ? Long.MAX_VALUE : 0L;
            case 5:
                return new BigInteger("123456789012345678901234567890").negate().pow(1 + random.nextInt(2));
            case 6:
                return random.nextBoolean() ? 1.5 : 2.0;
            case 7:
                return new BigDecimal(random.nextBoolean() ? "2.50" : "1E+3");
            case 8:
                return "s" + random.nextInt(10);
            case 9:
                return Arrays.asList(value(random, depth + 1), value(random, depth + 1));
            case 10:
                return new ArrayList<>();
            default:
                Map<String, Object> m = new LinkedHashMap<>();
                m.put("in", value(random, depth + 1));
                m.put("x\"y", value(random, depth + 1));
                return m;
        }
    }

    private static Map<String, Object> record(Random random) {
        Map<String, Object> data = new LinkedHashMap<>();
        for (int i = random.nextInt(7); i > 0; i--) {
            String key = random.nextInt(6) == 0 ? STRINGS[random.nextInt(STRINGS.length)] : "f" + random.nextInt(5);
            data.put(key, value(random, 0));
        }
        return data;
    }

    @Test
    void countedValuesFromTheBytesAreThoseOfTheDecodedData() {
        Path where = Path.of("(test)");
        for (long seed : seeds()) {
            Random random = new Random(seed);
            int fast = 0;
            for (int i = 0; i < 3000; i++) {
                Map<String, Object> data = record(random);
                byte[] line = LogLine.encodePut(LogTestSupport.id(i), data);
                LogLine.Envelope lazy = LogLine.decode(line, where, 0, false);
                Object[] expected = EqualityCounts.keysOf(LogLine.decode(line, where, 0, true).data(where, 0));
                Object[] fromBytes = lazy.countedValues();
                if (fromBytes != null) {
                    fast++;
                    assertThat(Arrays.asList(fromBytes)).as("seed %d record %d: %s", seed, i, data)
                            .containsExactlyElementsOf(Arrays.asList(expected));
                }
                assertThat(Arrays.asList(LogCounts.keysOf(lazy, where, 0))).as("seed %d record %d: %s", seed, i, data)
                        .containsExactlyElementsOf(Arrays.asList(expected));
            }
            assertThat(fast).as("seed %d: most records are read from their bytes", seed).isGreaterThan(1000);
        }
    }

    @Test
    void bytesOutsideThePlainShapeAreLeftToTheDecoder() {
        for (String data : List.of("{\"a\":01}", "{\"a\":1,\"a\":2}", "{\"a\":tru}", "{\"a\":1.}", "{\"a\" :1}",
                "{\"a\":[1,,2]}", "{\"a\":\"caf\u00e9\"}", "{\"a\":\"\\ud83d\\ude00\"}", "{\"a\":\"x\\q\"}", "{\"a\":1",
                "[1]", "\"x\"", "{\"a\":{\"b\":1}", "{\"a\":-}")) {
            byte[] json = ("{\"op\":\"put\",\"id\":\"" + LogTestSupport.id(1) + "\",\"data\":" + data + "}")
                    .getBytes(StandardCharsets.UTF_8);
            assertThat(LineValues.keysOf(json, json.length - 1 - data.getBytes(StandardCharsets.UTF_8).length,
                    json.length - 1)).as(data).isNull();
        }
    }

    @Test
    void plainShapesAreReadWithTheirEscapes() {
        Map<String, Object> data = new LinkedHashMap<>();
        data.put("s", "a/b \"q\" \\ \t\n\u0001");
        data.put("n", -0L);
        data.put("big", new BigInteger("99999999999999999999"));
        data.put("f", 2.5);
        data.put("nested", Map.of("k", List.of(1L, "x", Map.of())));
        data.put("7", "dropped: integer-like key");
        data.put("nil", null);
        byte[] json = CanonicalJson.compactText(data).getBytes(StandardCharsets.UTF_8);
        assertThat(LineValues.keysOf(json, 0, json.length)).containsExactly("s", "a/b \"q\" \\ \t\n\u0001", "n", 0L, "nil",
                EqualityCounts.NULL_VALUE);
    }
}
