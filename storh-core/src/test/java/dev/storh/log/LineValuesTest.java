package dev.storh.log;

import static org.assertj.core.api.Assertions.assertThat;

import dev.storh.json.CanonicalJson;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
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

    @Test
    void countedValuesFromTheBytesAreThoseOfTheDecodedData() {
        Path where = Path.of("(test)");
        for (long seed : RandomLineData.seeds(SEEDS)) {
            Random random = new Random(seed);
            int fast = 0;
            for (int i = 0; i < 3000; i++) {
                Map<String, Object> data = RandomLineData.record(random);
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
                "{\"a\":[1,,2]}", "{\"a\":\"caf\u00e9\"}", "{\"a\":\"x\\q\"}", "{\"a\":1",
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
