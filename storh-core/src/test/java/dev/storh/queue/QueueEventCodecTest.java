package dev.storh.queue;

import static dev.storh.queue.QueueTestSupport.framed;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The event line format ({@code spec/log-queue.md} §3.2) and decoding rules (§1.1, §3.2, statement 34). */
class QueueEventCodecTest {

    private static final String ID1 = "01890a5d-ac00-7000-8000-000000000001";
    private static final String ID2 = "01890a5d-ac01-7000-8000-000000000002";
    private static final String ID3 = "01890a5d-ac02-7000-8000-000000000003";
    private static final long TS = 1795997943L;

    private static String line(QueueEvent e) {
        return new String(QueueEventCodec.encodeLine(e), StandardCharsets.UTF_8);
    }

    @Test
    void writesTheOriginalsBytesForEveryOp() {
        Map<String, Object> payload = new LinkedHashMap<>();
        payload.put("to", "a@example.test");
        payload.put("n", 1.0);
        assertThat(line(QueueEvent.enqueue(ID1, payload, TS))).isEqualTo("118\t796ab64c\t{\"op\":\"enqueue\",\"id\":\"" + ID1
                + "\",\"payload\":{\"to\":\"a@example.test\",\"n\":1.0},\"ts\":1795997943}\n");
        assertThat(line(QueueEvent.enqueue(ID3, Map.of(), TS)))
                .isEqualTo("89\t5e8be2f4\t{\"op\":\"enqueue\",\"id\":\"" + ID3 + "\",\"payload\":[],\"ts\":1795997943}\n");
        assertThat(line(QueueEvent.claim(ID1, TS)))
                .isEqualTo("74\t9d6bd05f\t{\"op\":\"claim\",\"id\":\"" + ID1 + "\",\"ts\":1795997943}\n");
        assertThat(line(QueueEvent.complete(ID1, true, TS)))
                .isEqualTo("89\tda06c6f3\t{\"op\":\"complete\",\"id\":\"" + ID1 + "\",\"done\":true,\"ts\":1795997943}\n");
        assertThat(line(QueueEvent.complete(ID2, false, TS)))
                .isEqualTo("90\t135fe4df\t{\"op\":\"complete\",\"id\":\"" + ID2 + "\",\"done\":false,\"ts\":1795997943}\n");
        assertThat(line(QueueEvent.requeue(ID3, TS)))
                .isEqualTo("76\t9fe983b5\t{\"op\":\"requeue\",\"id\":\"" + ID3 + "\",\"ts\":1795997943}\n");
        assertThat(line(QueueEvent.purge(ID1, TS)))
                .isEqualTo("74\t5a8d9d48\t{\"op\":\"purge\",\"id\":\"" + ID1 + "\",\"ts\":1795997943}\n");
    }

    /**
     * A flat payload of plain values is written directly as the very bytes the general encoder
     * gives it; anything else (escapes, non-ASCII text, fractions, nesting) is left to that encoder.
     */
    @Test
    void plainPayloadsAreWrittenAsTheGeneralEncoderWritesThem() {
        Object[] values = {0L, 7L, -1L, 9L, 10L, 99L, 100L, 2_147_483_647L, 2_147_483_648L, -2_147_483_648L,
            1_700_000_000_123L, 999_999_999_999_999_999L, 1_000_000_000_000_000_000L, Long.MAX_VALUE, Long.MIN_VALUE,
            Long.MIN_VALUE + 1, 42, -42, Integer.MIN_VALUE, (short) -7, (byte) 12, true, false, null, "", "item-12",
            "a/b ~\u007f", "q\"", "back\\slash", "tab\t", "\u0001", "caf\u00e9", "\ud83d\ude00", 1.5, 2.0,
            java.util.List.of(1L), Map.of("k", 1L), new java.math.BigDecimal("1.10")};
        java.util.Random random = new java.util.Random(20_261_207L);
        QueuePayloadJson.Scratch scratch = new QueuePayloadJson.Scratch(16); // reused: grows past its first size
        int plain = 0;
        for (int i = 0; i < 5_000; i++) {
            Map<String, Object> payload = new LinkedHashMap<>();
            for (int k = 1 + random.nextInt(6); k > 0; k--) {
                String key = random.nextInt(10) == 0 ? (random.nextBoolean() ? "k\"" : "cl\u00e9") : "k" + random.nextInt(9);
                payload.put(key, values[random.nextInt(values.length)]);
            }
            byte[] expected = dev.storh.json.CanonicalJson.compactText(payload).getBytes(StandardCharsets.UTF_8);
            byte[] direct = QueuePayloadJson.plainJson(payload);
            if (direct != null) {
                plain++;
                assertThat(new String(direct, StandardCharsets.UTF_8)).as("payload %d: %s", i, payload)
                        .isEqualTo(new String(expected, StandardCharsets.UTF_8));
            } else {
                assertThat(payload.values().stream().allMatch(v -> v == null || v instanceof Boolean || v instanceof Long
                        || v instanceof Integer || v instanceof Short || v instanceof Byte
                        || v instanceof String t && t.chars().allMatch(c -> c >= 0x20 && c <= 0x7f && c != '"' && c != '\\'))
                        && payload.keySet().stream().allMatch(t -> t.chars().allMatch(c -> c >= 0x20 && c <= 0x7f
                        && c != '"' && c != '\\'))).as("payload %d: %s", i, payload).isFalse();
            }
            assertThat(QueuePayloadJson.encodePayload(payload)).as("payload %d: %s", i, payload).isEqualTo(expected);
            assertThat(QueuePayloadJson.encodePayload(payload, scratch)).as("payload %d: %s", i, payload).isEqualTo(expected);
        }
        assertThat(plain).isGreaterThan(500);
        Map<String, Object> wide = new LinkedHashMap<>();
        for (int k = 0; k < 40; k++) {
            wide.put("key-" + k + "-".repeat(k), "v".repeat(3 * k));
        }
        assertThat(QueuePayloadJson.plainJson(wide))
                .isEqualTo(dev.storh.json.CanonicalJson.compactText(wide).getBytes(StandardCharsets.UTF_8));
        Map<String, Object> huge = Map.of("text", "x".repeat(100_000)); // past the largest buffer kept
        assertThat(QueuePayloadJson.encodePayload(huge, scratch))
                .isEqualTo(dev.storh.json.CanonicalJson.compactText(huge).getBytes(StandardCharsets.UTF_8));
        assertThat(QueuePayloadJson.encodePayload(Map.of("n", 1L), scratch)).isEqualTo("{\"n\":1}".getBytes(StandardCharsets.UTF_8));
    }

    /** The claim and complete lines a batch writes without event objects are the bytes of the events' lines. */
    @Test
    void claimAndCompleteLinesWrittenDirectlyAreTheEventsBytes() {
        QueueEventCodec.Lines lines = new QueueEventCodec.Lines(16);
        lines.reserve(10);
        lines.addClaim(ID1, TS);
        lines.addComplete(ID1, true, TS);
        lines.addComplete(ID2, false, 7L);
        lines.addClaim(ID3, 1_795_997_944L);
        assertThat(new String(lines.bytes(), 0, lines.length(), StandardCharsets.UTF_8)).isEqualTo(
                "74\t9d6bd05f\t{\"op\":\"claim\",\"id\":\"" + ID1 + "\",\"ts\":1795997943}\n"
                + "89\tda06c6f3\t{\"op\":\"complete\",\"id\":\"" + ID1 + "\",\"done\":true,\"ts\":1795997943}\n"
                + line(QueueEvent.complete(ID2, false, 7L)) + line(QueueEvent.claim(ID3, 1_795_997_944L)));
    }

    @Test
    void linesOfABatchAreTheSameBytesAsEachEventsLineOneAfterTheOther() {
        Map<String, Object> payload = new LinkedHashMap<>();
        payload.put("to", "a@example.test");
        payload.put("n", 1.0);
        Map<String, Object> big = new LinkedHashMap<>();
        big.put("text", "é€😀".repeat(400)); // past the scratch buffer and the first line buffer
        java.util.List<QueueEvent> events = java.util.List.of(QueueEvent.enqueue(ID1, payload, TS),
                QueueEvent.claim(ID1, TS), QueueEvent.complete(ID1, true, TS), QueueEvent.complete(ID2, false, TS),
                QueueEvent.enqueue(ID3, big, TS, 3, 1_795_997_943_123L), QueueEvent.requeue(ID3, TS, 2, 7),
                QueueEvent.purge(ID1, TS), QueueEvent.enqueue(ID2, Map.of(), TS));
        QueueEventCodec.Lines lines = new QueueEventCodec.Lines(16);
        StringBuilder expected = new StringBuilder();
        for (QueueEvent e : events) {
            lines.add(e, null);
            expected.append(line(e));
        }
        lines.add(QueueEvent.enqueue(ID2, payload, TS), QueuePayloadJson.encodePayload(payload));
        expected.append(line(QueueEvent.enqueue(ID2, payload, TS)));
        assertThat(new String(lines.bytes(), 0, lines.length(), StandardCharsets.UTF_8)).isEqualTo(expected.toString());
        assertThat(expected.toString()).startsWith("118\t796ab64c\t{\"op\":\"enqueue\",\"id\":\"" + ID1
                + "\",\"payload\":{\"to\":\"a@example.test\",\"n\":1.0},\"ts\":1795997943}\n74\t9d6bd05f\t");
    }

    @Test
    void numbersAndStorhsExtraKeysAreWrittenAsTheirDecimalText() {
        for (long ts : new long[] {0, 7, 9, 10, 99, 100, TS, Long.MAX_VALUE, -1, -10, Long.MIN_VALUE}) {
            String t = Long.toString(ts);
            assertThat(line(QueueEvent.claim(ID1, ts))).isEqualTo(frame("{\"op\":\"claim\",\"id\":\"" + ID1 + "\",\"ts\":" + t + "}"));
            assertThat(line(QueueEvent.complete(ID2, false, ts)))
                    .isEqualTo(frame("{\"op\":\"complete\",\"id\":\"" + ID2 + "\",\"done\":false,\"ts\":" + t + "}"));
            assertThat(line(QueueEvent.requeue(ID3, ts, 12, 1_795_997_943_123L))).isEqualTo(frame("{\"op\":\"requeue\",\"id\":\""
                    + ID3 + "\",\"ts\":" + t + ",\"attempts\":12,\"retryAt\":1795997943123}"));
            assertThat(line(QueueEvent.requeue(ID3, ts, 0, 0)))
                    .isEqualTo(frame("{\"op\":\"requeue\",\"id\":\"" + ID3 + "\",\"ts\":" + t + ",\"attempts\":0}"));
            assertThat(line(QueueEvent.requeue(ID3, ts, -1, 5)))
                    .isEqualTo(frame("{\"op\":\"requeue\",\"id\":\"" + ID3 + "\",\"ts\":" + t + ",\"retryAt\":5}"));
            Map<String, Object> payload = new LinkedHashMap<>();
            payload.put("big", "x".repeat(300)); // past the first buffer
            payload.put("n", ts);
            assertThat(line(QueueEvent.enqueue(ID1, payload, ts))).isEqualTo(frame("{\"op\":\"enqueue\",\"id\":\"" + ID1
                    + "\",\"payload\":{\"big\":\"" + "x".repeat(300) + "\",\"n\":" + t + "},\"ts\":" + t + "}"));
        }
    }

    private static String frame(String json) {
        return new String(dev.storh.fs.FramedLine.encode(json.getBytes(StandardCharsets.US_ASCII)), StandardCharsets.UTF_8);
    }

    @Test
    void readsBackWhatItWrites() {
        QueueEvent e = QueueEventCodec.decodeLine(QueueEventCodec.encodeLine(QueueEvent.complete(ID2, true, TS)), 0);
        assertThat(e).isEqualTo(QueueEvent.complete(ID2, true, TS));
        QueueEvent crlf = QueueEventCodec.decodeLine(
                "74\t9d6bd05f\t{\"op\":\"claim\",\"id\":\"01890a5d-ac00-7000-8000-000000000001\",\"ts\":1795997943}\r\n"
                        .getBytes(StandardCharsets.UTF_8), 0);
        assertThat(crlf.op()).isEqualTo(QueueEvent.Op.CLAIM);
    }

    private static void rejects(String raw, String message) {
        assertThatThrownBy(() -> QueueEventCodec.decodeLine(raw.getBytes(StandardCharsets.UTF_8), 0))
                .isInstanceOf(QueueEventCodec.QueueLineException.class).hasMessage(message);
    }

    private static void rejectsJson(String json, String message) {
        assertThatThrownBy(() -> QueueEventCodec.decodeLine(framed(json), 0))
                .isInstanceOf(QueueEventCodec.QueueLineException.class).hasMessage(message);
    }

    @Test // 34
    void badLinesFailWithTheOriginalsMessages() {
        rejects("2\tdeadbeef\t{}\n", "Corrupt log queue line.");
        rejects("broken\n", "Malformed log queue line.");
        rejects("x2\t18473489\t{}\n", "Malformed log queue line.");
        rejects("2\t18473489\t{}", "Torn log queue line.");
        rejectsJson("[1]", "Log queue event must be an object.");
        rejectsJson("{\"0\":\"zero\",\"name\":\"value\"}", "Log queue event must be an object.");
        rejectsJson("{\"op\":\"claim\",\"id\":\"nope\",\"ts\":1}", "Invalid log queue event.");
        rejectsJson("{\"op\":\"\",\"id\":\"" + ID1 + "\"}", "Invalid log queue event.");
        rejectsJson("{\"op\":\"pause\",\"id\":\"" + ID1 + "\"}", "Unsupported log queue event: pause");
        rejectsJson("{\"op\":\"claim\",/*c*/\"id\":\"" + ID1 + "\"}", "Syntax error");
        rejectsJson("{\"op\":", "Syntax error");
    }

    @Test
    void missingTimestampsUseTheReadersClockAndExtraKeysAreIgnored() {
        QueueEvent e = QueueEventCodec.decodeLine(framed("{\"op\":\"claim\",\"id\":\"" + ID1 + "\",\"ts\":\"x\",\"extra\":1}"), 42);
        assertThat(e.ts()).isEqualTo(42);
        QueueEvent done = QueueEventCodec.decodeLine(framed("{\"op\":\"complete\",\"id\":\"" + ID1 + "\",\"done\":1,\"ts\":5}"), 0);
        assertThat(done.done()).as("only the literal true keeps a job done").isFalse();
    }

    @Test
    void payloadsAreNormalisedAsTheOriginalReadsThem() {
        QueueEvent list = QueueEventCodec.decodeLine(framed("{\"op\":\"enqueue\",\"id\":\"" + ID1 + "\",\"payload\":[1,2],\"ts\":1}"), 0);
        assertThat(list.payload()).isEmpty();
        QueueEvent keys = QueueEventCodec.decodeLine(framed("{\"op\":\"enqueue\",\"id\":\"" + ID1
                + "\",\"payload\":{\"-1\":1,\"01\":2,\"-0\":3,\"k\":{\"0\":4}},\"ts\":1}"), 0);
        assertThat(keys.payload()).containsOnlyKeys("01", "-0", "k");
        assertThat(keys.payload().get("k")).isEqualTo(Map.of("0", 4L));
    }
}
