package dev.storh.json;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.storh.StorageException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The number model: exact decimals where a double would change the text, doubles where it would not. */
class JsonNumbersTest {

    private static Map<String, Object> decode(String json) {
        return Jsonc.decodeObject(json.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void plainDecimalsThatAreNotCanonicalDoublesReadAsExactBigDecimals() {
        Map<String, Object> m = decode("{\"price\":19.990,\"big\":12345678901234567890.123456789,\"dime\":0.10,"
                + "\"tiny\":0.00001,\"long\":0.1000000000000000055511151231257827}");
        assertThat(m.get("price")).isEqualTo(new BigDecimal("19.990"));
        assertThat(((BigDecimal) m.get("price")).scale()).isEqualTo(3);
        assertThat(m.get("big")).isEqualTo(new BigDecimal("12345678901234567890.123456789"));
        assertThat(m.get("dime")).isEqualTo(new BigDecimal("0.10"));
        assertThat(m.get("tiny")).isEqualTo(new BigDecimal("0.00001"));
        assertThat(m.get("long")).isEqualTo(new BigDecimal("0.1000000000000000055511151231257827"));
    }

    @Test
    void canonicalDoublesAndExponentFormsStayDoubles() {
        Map<String, Object> m = decode("{\"a\":1.0,\"b\":-0.0,\"c\":1.5,\"d\":1.0e+20,\"e\":5.0e-324,\"f\":1.5e-7,"
                + "\"g\":0.30000000000000004,\"h\":100.0,\"i\":1E2,\"j\":-0.00,\"k\":19.99}");
        assertThat(m.values()).allSatisfy(v -> assertThat(v).isInstanceOf(Double.class));
        assertThat((Double) m.get("b")).isEqualTo(-0.0);
        assertThat(1 / (Double) m.get("j")).isNegative(); // -0.00 keeps the sign the original sees
        assertThat(m.get("i")).isEqualTo(100.0);
    }

    @Test
    void bigDecimalsAreWrittenAsPlainDigitsAndReadBackEqualScaleIncluded() {
        Map<String, Object> data = new LinkedHashMap<>();
        data.put("price", new BigDecimal("19.990"));
        data.put("big", new BigDecimal("12345678901234567890.123456789"));
        data.put("small", new BigDecimal("1E-10"));
        data.put("whole", new BigDecimal("1E+3"));
        data.put("plain", new BigDecimal("19.99"));
        byte[] bytes = CanonicalJson.recordBytes("018bcfe5-6800-726c-a753-80d71a17e586", data);
        assertThat(new String(bytes, StandardCharsets.UTF_8)).isEqualTo("{\"id\":\"018bcfe5-6800-726c-a753-80d71a17e586\","
                + "\"data\":{\"price\":19.990,\"big\":12345678901234567890.123456789,\"small\":0.0000000001,"
                + "\"whole\":1000,\"plain\":19.99}}\n");
        @SuppressWarnings("unchecked")
        Map<String, Object> back = (Map<String, Object>) Jsonc.decodeObject(bytes).get("data");
        assertThat(back.get("price")).isEqualTo(new BigDecimal("19.990"));
        assertThat(back.get("big")).isEqualTo(new BigDecimal("12345678901234567890.123456789"));
        assertThat(back.get("small")).isEqualTo(new BigDecimal("1E-10"));
        assertThat(back.get("whole")).isEqualTo(1000L);
        assertThat(back.get("plain")).isEqualTo(19.99);
        for (String key : data.keySet()) {
            assertThat(back.get(key)).as(key).isEqualTo(JsonNumbers.model((BigDecimal) data.get(key)));
        }
        assertThat(CanonicalJson.recordBytes("018bcfe5-6800-726c-a753-80d71a17e586", back)).isEqualTo(bytes);
    }

    @Test
    void decimalValuesOfEveryNumberKind() {
        assertThat(JsonNumbers.decimalOf(0.1)).isEqualTo(new BigDecimal("0.1"));
        assertThat(JsonNumbers.decimalOf(-0.0)).isEqualTo(BigDecimal.ZERO);
        assertThat(JsonNumbers.decimalOf(1e20)).isEqualByComparingTo("100000000000000000000");
        assertThat(JsonNumbers.decimalOf(new BigInteger("18446744073709551616"))).isEqualByComparingTo("18446744073709551616");
        assertThat(JsonNumbers.decimalOf(7L)).isEqualTo(BigDecimal.valueOf(7));
        assertThat(JsonNumbers.originalDouble(new BigDecimal("19.990"))).isEqualTo(19.99);
    }

    @Test
    void decimalsTooLongToReadBackAreRefusedNamingTheField() {
        Map<String, Object> data = new LinkedHashMap<>();
        data.put("huge", new BigDecimal("1E+5000"));
        assertThatThrownBy(() -> CanonicalJson.encodeCompact(data)).isInstanceOf(StorageException.class)
                .hasMessageContaining("huge");
    }

    /** What a plain decimal reads as, by the writer's text alone (the rule the reader's shortcut must agree with). */
    private static Object byWritersText(String text) {
        double parsed = Double.parseDouble(text);
        if (parsed == 0 && text.charAt(0) == '-') {
            return parsed;
        }
        return Double.isFinite(parsed) && CanonicalJson.formatDouble(parsed).equals(text) ? (Object) parsed : new BigDecimal(text);
    }

    @Test
    void plainDecimalsReadAsTheWritersTextSaysForRandomLiterals() {
        long seed = System.nanoTime();
        java.util.Random random = new java.util.Random(seed);
        int doubles = 0;
        for (int i = 0; i < 200_000; i++) {
            String text;
            if (random.nextInt(3) == 0) { // a double's own canonical text, when it has no exponent
                double d = switch (random.nextInt(3)) {
                    case 0 -> random.nextDouble() * Math.pow(10, random.nextInt(36) - 18);
                    case 1 -> Double.longBitsToDouble(random.nextLong());
                    default -> Math.round(random.nextDouble() * 1_000_000) / Math.pow(10, random.nextInt(8));
                };
                text = Double.isFinite(d) ? CanonicalJson.formatDouble(d) : "1.5";
                if (text.contains("e")) {
                    continue;
                }
            } else {
                StringBuilder b = new StringBuilder();
                if (random.nextBoolean()) {
                    b.append('-');
                }
                int intDigits = random.nextInt(4) == 0 ? 1 + random.nextInt(20) : 1 + random.nextInt(3);
                for (int k = 0; k < intDigits; k++) {
                    b.append((char) ('0' + (k == 0 && random.nextInt(4) != 0 ? random.nextInt(10) : random.nextInt(10))));
                }
                b.append('.');
                int zeros = random.nextInt(3) == 0 ? random.nextInt(7) : 0;
                b.append("0".repeat(zeros));
                int fracDigits = 1 + random.nextInt(random.nextInt(4) == 0 ? 22 : 6);
                for (int k = 0; k < fracDigits; k++) {
                    b.append((char) ('0' + random.nextInt(10)));
                }
                text = b.toString();
            }
            boolean json = !text.matches("-?0[0-9].*"); // JSON has no leading zero: the reader's rule is asked directly then
            Object read = json ? decode("{\"v\":" + text + "}").get("v") : JsonNumbers.fromPlainDecimal(text, Double.parseDouble(text));
            Object expected = byWritersText(text);
            assertThat(read).as("seed %d literal %s", seed, text).isEqualTo(expected);
            if (expected instanceof BigDecimal e) {
                assertThat(((BigDecimal) read).scale()).as("seed %d literal %s", seed, text).isEqualTo(e.scale());
            } else {
                doubles++;
            }
        }
        assertThat(doubles).as("seed %d: literals that read as doubles", seed).isGreaterThan(50_000);
    }
}
