package dev.storh.log;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.storh.StorageException;
import dev.storh.StorageRecord;
import dev.storh.json.CanonicalJson;
import dev.storh.json.Jsonc;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The data of a put line read straight from its bytes ({@link LineData}) is what the strict decoder
 * reads from the UTF-8 text, value for value and type for type, for every shape the log writes
 * (random records with fixed seeds, {@code -Dstorh.seed=} for one more; the seed is in every message);
 * bytes of another shape are left to the decoder, which then answers (or refuses) as before.
 */
class LineDataTest {

    private static final long[] SEEDS = {5L, 0xBADC0DEL, 20_261_207L};

    /** @return the data bytes of a canonical record line, as the log writes them */
    private static byte[] dataBytes(Map<String, Object> data) {
        byte[] record = CanonicalJson.recordBytes("01890a5d-ac01-7000-8000-000000000001", data); // {"id":..,"data":<d>}\n
        int from = "{\"id\":\"01890a5d-ac01-7000-8000-000000000001\",\"data\":".length();
        return Arrays.copyOfRange(record, from, record.length - 2);
    }

    private static Object decoder(byte[] bytes) {
        return Jsonc.decodeStrict(new String(bytes, StandardCharsets.UTF_8));
    }

    private static Map<String, Object> fast(String json) {
        byte[] b = json.getBytes(StandardCharsets.UTF_8);
        return LineData.decode(b, 0, b.length);
    }

    /**
     * Equal values of equal classes, all the way down (a Long 1 is not a Double 1.0, a 2.50 not a 2.5);
     * objects and lists by their interfaces.
     */
    private static void assertSameModel(Object actual, Object expected, String where) {
        if (expected == null) {
            assertThat(actual).as(where).isNull();
            return;
        }
        assertThat(actual).as(where).isNotNull();
        if (expected instanceof Map<?, ?> e) {
            assertThat(actual).as(where).isInstanceOf(Map.class);
            Map<?, ?> a = (Map<?, ?>) actual;
            assertThat(new ArrayList<>(a.keySet())).as(where).isEqualTo(new ArrayList<>(e.keySet()));
            for (Object k : e.keySet()) {
                assertSameModel(a.get(k), e.get(k), where + "." + k);
            }
        } else if (expected instanceof List<?> e) {
            assertThat(actual).as(where).isInstanceOf(List.class);
            List<?> a = (List<?>) actual;
            assertThat(a).as(where).hasSize(e.size());
            for (int i = 0; i < e.size(); i++) {
                assertSameModel(a.get(i), e.get(i), where + "[" + i + "]");
            }
        } else if (!actual.getClass().equals(expected.getClass())) {
            assertThat(actual.getClass()).as(where).isEqualTo(expected.getClass());
        } else if (expected instanceof Double d) {
            assertThat(Double.doubleToRawLongBits((Double) actual)).as(where).isEqualTo(Double.doubleToRawLongBits(d));
        } else {
            assertThat(actual).as(where).isEqualTo(expected);
        }
    }

    @Test
    void randomRecordsReadFromTheirBytesAsTheDecoderReadsThem() {
        for (long seed : RandomLineData.seeds(SEEDS)) {
            Random random = new Random(seed);
            int fast = 0;
            for (int i = 0; i < 3000; i++) {
                Map<String, Object> data = RandomLineData.record(random);
                byte[] bytes = dataBytes(data);
                Map<String, Object> read = LineData.decode(bytes, 0, bytes.length);
                Object expected = decoder(bytes);
                String where = "seed " + seed + " record " + i + " " + new String(bytes, StandardCharsets.UTF_8);
                if (read != null) {
                    fast++;
                    assertThat(read).as(where).isExactlyInstanceOf(LinkedHashMap.class);
                    assertSameModel(read, expected instanceof Map ? expected : new LinkedHashMap<>(), where);
                }
            }
            // exponents, strings with both escapes and non-ASCII, and U+FFFD go to the decoder: the rest is read here
            assertThat(fast).as("seed " + seed + ": records read from their bytes").isGreaterThan(1500);
        }
    }

    @Test
    void everyPlainShapeIsReadFromTheBytes() {
        assertSameModel(fast("{\"a\":1,\"b\":-0,\"c\":-9223372036854775808,\"d\":9223372036854775808,\"e\":123456789012345678}"),
                decoder("{\"a\":1,\"b\":-0,\"c\":-9223372036854775808,\"d\":9223372036854775808,\"e\":123456789012345678}"
                        .getBytes(StandardCharsets.UTF_8)), "integers");
        Map<String, Object> numbers = fast("{\"d\":1.0,\"e\":19.990,\"f\":-0.0,\"g\":0.30000000000000004,\"h\":-0.10}");
        assertThat(numbers.get("d")).isEqualTo(1.0);
        assertThat(numbers.get("e")).isEqualTo(new BigDecimal("19.990"));
        assertThat(Double.doubleToRawLongBits((Double) numbers.get("f"))).isEqualTo(Double.doubleToRawLongBits(-0.0));
        assertThat(numbers.get("g")).isEqualTo(0.30000000000000004);
        assertThat(numbers.get("h")).isEqualTo(new BigDecimal("-0.10"));
        Map<String, Object> strings = fast("{\"s\":\"a\\\"b\\\\c\\/d\\b\\f\\n\\r\\t\\u00e9\\u2028\",\"u\":\"caf\u00e9 \u65e5\","
                + "\"k\\u0041\":true,\"n\":null,\"l\":[[],{},[1,\"x\"]],\"o\":{\"p\":{\"q\":false}}}");
        assertThat(strings.get("s")).isEqualTo("a\"b\\c/d\b\f\n\r\t\u00e9\u2028");
        assertThat(strings.get("u")).isEqualTo("caf\u00e9 \u65e5");
        assertThat(strings).containsEntry("kA", true).containsEntry("n", null).containsKey("n");
        assertThat(strings.get("l")).isEqualTo(List.of(List.of(), Map.of(), List.of(1L, "x")));
        assertThat(strings.get("o")).isEqualTo(Map.of("p", Map.of("q", false)));
        assertThat(fast("[]")).isEmpty();
        assertThat(fast("{}")).isEmpty();
        Map<String, Object> repeated = fast("{\"a\":1,\"b\":2,\"a\":3}");
        assertThat(new ArrayList<>(repeated.keySet())).containsExactly("a", "b");
        assertThat(repeated.get("a")).isEqualTo(3L);
    }

    @Test
    void otherShapesAreLeftToTheDecoder() {
        for (String other : List.of("{\"a\": 1}", " {\"a\":1}", "{\"a\":1e3}", "{\"a\":1.5E-3}", "{\"a\":01}", "{\"a\":1.}",
                "{\"a\":.5}", "{\"a\":-}", "{\"a\":\"\\x\"}",
                "{\"a\":\"tab\there\"}", "{\"a\":\"caf\u00e9 \\n\"}", "{\"a\":\"\ufffd\"}", "{\"a\":tru}", "{\"a\":1,}",
                "{\"a\":1", "{\"a\":1}}", "{a:1}", "\"s\"", "[1]", "{\"a\":[1,]}", "{\"a\":1 }")) {
            assertThat(fast(other)).as(other).isNull();
        }
        byte[] badUtf8 = {'{', '"', 'a', '"', ':', '"', (byte) 0xe2, (byte) 0x82, '"', '}'};
        assertThat(LineData.decode(badUtf8, 0, badUtf8.length)).isNull();
        StringBuilder deep = new StringBuilder("{\"a\":");
        deep.append("[".repeat(LineData.MAX_DEPTH)).append("]".repeat(LineData.MAX_DEPTH)).append('}');
        assertThat(fast(deep.toString())).isNull();
        assertThat(fast("{\"a\":" + "[".repeat(LineData.MAX_DEPTH - 1) + "]".repeat(LineData.MAX_DEPTH - 1) + "}")).isNotNull();
        assertThat(fast("{\"a\":\"" + "x".repeat(LineData.MAX_BYTES) + "\"}")).isNull();
    }

    @Test
    void linesOfEveryShapeReadBackThroughTheLogAsWritten(@TempDir Path root) throws Exception {
        Map<String, Object> plain = new LinkedHashMap<>();
        plain.put("name", "Z\u00fcrich \"old\" town\n");
        plain.put("price", new BigDecimal("19.990"));
        plain.put("ratio", 1.0);
        plain.put("big", new BigInteger("123456789012345678901234567890"));
        plain.put("tags", List.of("a", "\u65e5\u672c", 3L));
        plain.put("nested", Map.of("deep", Map.of("ok", true)));
        plain.put("none", null);
        Map<String, Object> exponent = new LinkedHashMap<>();
        exponent.put("far", 1e20);
        exponent.put("emoji", "\ud83d\ude00");
        String first = LogTestSupport.id(1);
        String second = LogTestSupport.id(2);
        try (SegmentedLog log = SegmentedLog.open(root, "events", LogTestSupport.opts(16_384, 64))) {
            log.put(plain, first);
            log.put(exponent, second);
        }
        try (SegmentedLog log = SegmentedLog.open(root, "events", LogTestSupport.opts(16_384, 64))) {
            Map<String, Object> got = log.get(first).orElseThrow().data();
            assertSameModel(got, plain, "get");
            assertThat(got.get("price")).isEqualTo(new BigDecimal("19.990")); // the scale kept, not 19.99
            assertSameModel(log.get(second).orElseThrow().data(), exponent, "get exponent");
            List<StorageRecord> all;
            try (Stream<StorageRecord> s = log.stream()) {
                all = s.toList();
            }
            assertThat(all).extracting(StorageRecord::id).containsExactly(first, second);
            assertSameModel(all.get(0).data(), plain, "stream");
            assertSameModel(all.get(1).data(), exponent, "stream exponent");
        }
    }

    @Test
    void checksummedDataThatIsNotJsonIsStillRefusedNamingTheLine(@TempDir Path root) throws Exception {
        String id = LogTestSupport.id(1);
        try (SegmentedLog log = SegmentedLog.open(root, "events", LogTestSupport.opts(16_384, 64))) {
            log.put(Map.of("a", 1L), id);
        }
        Path segment = root.resolve("events/segments/seg-000001.ndjson");
        byte[] json = ("{\"op\":\"put\",\"id\":\"" + id + "\",\"data\":{\"a\":01}}").getBytes(StandardCharsets.UTF_8);
        Files.write(segment, dev.storh.fs.FramedLine.encode(json));
        try (SegmentedLog log = SegmentedLog.open(root, "events", LogTestSupport.opts(16_384, 64))) {
            assertThatThrownBy(() -> log.get(id)).isInstanceOf(StorageException.class)
                    .hasMessageContaining("not valid JSON").hasMessageContaining("seg-000001.ndjson:0");
        }
    }
}
