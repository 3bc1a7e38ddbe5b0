package dev.storh.json;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.storh.StorageException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

class CanonicalJsonTest {

    private static String compact(Map<String, ?> m) {
        return new String(CanonicalJson.encodeCompact(m), StandardCharsets.UTF_8);
    }

    @Test
    void doublesUseTheOriginalsShortestForm() {
        Map<Double, String> cases = new LinkedHashMap<>();
        cases.put(1.0, "1.0");
        cases.put(100.0, "100.0");
        cases.put(-0.0, "-0.0");
        cases.put(0.0, "0.0");
        cases.put(1e16, "10000000000000000.0");
        cases.put(9.9e16, "99000000000000000.0");
        cases.put(0.0001, "0.0001");
        cases.put(0.0003, "0.0003");
        cases.put(0.1 + 0.2, "0.30000000000000004");
        cases.put(1000000000000000.5, "1000000000000000.5");
        cases.put(1e17, "1.0e+17");
        cases.put(1.2345678901234568e17, "1.2345678901234568e+17");
        cases.put(1e-5, "1.0e-5");
        cases.put(1.23e-5, "1.23e-5");
        cases.put(2.5e-10, "2.5e-10");
        cases.put(5e-324, "5.0e-324");
        cases.put(Double.MAX_VALUE, "1.7976931348623157e+308");
        cases.put(9.223372036854776e18, "9.223372036854776e+18");
        cases.put(1.5e-7, "1.5e-7");
        cases.put(1e21, "1.0e+21");
        cases.put(2.5, "2.5");
        cases.put(-42.125, "-42.125");
        cases.put(2.0E-3, "0.002");
        cases.forEach((d, expected) -> assertThat(CanonicalJson.formatDouble(d)).as("%s", d).isEqualTo(expected));
    }

    /**
     * Java's plain text of a double (from 10^-3 to below 10^7) is taken as it is: for seeded random
     * doubles of every kind (any bits, short decimals, the plain range's edges) the text equals the one
     * rebuilt from the digits and exponent, which every other double goes through.
     */
    @Test
    void plainJavaTextIsTheTextRebuiltFromTheDigits() {
        long seed = System.nanoTime();
        Random random = new Random(seed);
        List<Double> values = new ArrayList<>(List.of(1e-3, Math.nextDown(1e-3), Math.nextUp(1e-3), 1e7, Math.nextDown(1e7),
                Math.nextUp(1e7), 0.0, -0.0, 1.0, 12.0, 0.5, 2.5, 1.5, 9_999_999.999, 0.0015, 4.9e-324, Double.MIN_NORMAL));
        for (int i = 0; i < 300_000; i++) {
            double d = switch (i % 4) {
                case 0 -> Double.longBitsToDouble(random.nextLong()); // any double
                case 1 -> random.nextInt(2_000_000) / Math.pow(10, random.nextInt(9)); // a short decimal
                case 2 -> (random.nextDouble() - 0.5) * Math.pow(10, random.nextInt(14) - 4); // around the plain range
                default -> Math.round(random.nextDouble() * 1e6) / 1e4 * (random.nextBoolean() ? 1 : -1); // prices, degrees
            };
            values.add(d);
        }
        for (double d : values) {
            if (Double.isFinite(d)) {
                assertThat(CanonicalJson.formatDouble(d)).as("%s (seed %d)", d, seed).isEqualTo(CanonicalJson.formatDoubleFromDigits(d));
            }
        }
    }

    @Test
    void stringsEscapeOnlyWhatTheOriginalEscapes() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("s", "a\"b\\c/d<>&'\u007f\u0085é€🙂\b\f\n\r\t\u0001\u001f\u2028\u2029");
        assertThat(compact(m)).isEqualTo(
                "{\"s\":\"a\\\"b\\\\c/d<>&'\u007f\u0085é€🙂\\b\\f\\n\\r\\t\\u0001\\u001f\\u2028\\u2029\"}\n");
    }

    @Test
    void everyEscapedCharIsEscapedWhereverItStandsInAString() {
        String[] special = {"\"", "\\", "\b", "\f", "\n", "\r", "\t", "\u0000", "\u001f", "\u2028", "\u2029", "\ud83d\ude42"};
        String[] escaped = {"\\\"", "\\\\", "\\b", "\\f", "\\n", "\\r", "\\t", "\\u0000", "\\u001f", "\\u2028", "\\u2029",
            "\ud83d\ude42"};
        for (int k = 0; k < special.length; k++) {
            for (String[] around : new String[][] {{"", ""}, {"plain", ""}, {"", "tail"}, {"ab/é", "cd€"}}) {
                String s = around[0] + special[k] + around[1];
                assertThat(CanonicalJson.compactText(s)).as("%s", s).isEqualTo("\"" + around[0] + escaped[k] + around[1] + "\"");
            }
        }
        assertThat(CanonicalJson.compactText("plain only, é€ \u2027\u202a\uffff")).isEqualTo("\"plain only, é€ \u2027\u202a\uffff\"");
        assertThat(CanonicalJson.compactText(List.of(7L, -3L, Long.MIN_VALUE, 5, (short) 2))).isEqualTo("[7,-3,-9223372036854775808,5,2]");
        assertThatThrownBy(() -> CanonicalJson.compactText(Map.of("x", "plain\ud800")))
                .isInstanceOf(StorageException.class).hasMessageContaining("Malformed UTF-8").hasMessageContaining("x");
        assertThatThrownBy(() -> CanonicalJson.compactText(Map.of("x", "\udc00plain")))
                .isInstanceOf(StorageException.class).hasMessageContaining("Malformed UTF-8");
    }

    @Test
    void phpTextWritesEmptyAndListShapedObjectsAsArraysAtAnyDepth() {
        Map<String, Object> listShaped = new LinkedHashMap<>();
        listShaped.put("0", "a");
        listShaped.put("1", new LinkedHashMap<>());
        Map<String, Object> notInOrder = new LinkedHashMap<>();
        notInOrder.put("1", "a");
        notInOrder.put("0", "b");
        Map<String, Object> leadingZero = new LinkedHashMap<>();
        leadingZero.put("00", 1L);
        Map<String, Object> doc = new LinkedHashMap<>();
        doc.put("l", listShaped);
        doc.put("o", notInOrder);
        doc.put("z", leadingZero);
        doc.put("e", new LinkedHashMap<>());
        doc.put("n", List.of(Map.of("0", 1L), Map.of(), "x \" é"));
        assertThat(CanonicalJson.compactPhpText(doc)).isEqualTo(
                "{\"l\":[\"a\",[]],\"o\":{\"1\":\"a\",\"0\":\"b\"},\"z\":{\"00\":1},\"e\":[],\"n\":[[1],[],\"x \\\" é\"]}");
        assertThat(CanonicalJson.compactText(doc)).isEqualTo(
                "{\"l\":{\"0\":\"a\",\"1\":{}},\"o\":{\"1\":\"a\",\"0\":\"b\"},\"z\":{\"00\":1},\"e\":{},"
                        + "\"n\":[{\"0\":1},{},\"x \\\" é\"]}");
        assertThat(CanonicalJson.compactPhpText(Map.of())).isEqualTo("[]");
        assertThat(CanonicalJson.compactPhpText(Map.of("0", Map.of("0", Map.of("a", 1.5))))).isEqualTo("[[{\"a\":1.5}]]");
        assertThatThrownBy(() -> CanonicalJson.compactPhpText(Map.of("0", List.of(Map.of("0", Double.NaN)))))
                .isInstanceOf(StorageException.class).hasMessageContaining("NaN").hasMessageContaining("[0][0][0]");
        assertThatThrownBy(() -> CanonicalJson.compactPhpText(Map.of(1, "x")))
                .isInstanceOf(StorageException.class).hasMessageContaining("keys must be strings");
    }

    @Test
    void compactAndPrettyShapes() {
        assertThat(compact(Map.of("alpha", 1L))).isEqualTo("{\"alpha\":1}\n");
        assertThat(CanonicalJson.encodePretty(Map.of("alpha", 1L))).isEqualTo("{\n    \"alpha\": 1\n}\n");
        assertThat(compact(Map.of())).isEqualTo("{}\n");
        assertThat(CanonicalJson.encodePretty(Map.of())).isEqualTo("{}\n");
        Map<String, Object> nested = new LinkedHashMap<>();
        nested.put("list", List.of(1L, "x"));
        nested.put("empty", List.of());
        nested.put("obj", Map.of());
        assertThat(CanonicalJson.encodePretty(nested)).isEqualTo(
                "{\n    \"list\": [\n        1,\n        \"x\"\n    ],\n    \"empty\": [],\n    \"obj\": {}\n}\n");
    }

    @Test
    void recordBytesMatchTheOriginalsFiles() {
        Map<String, Object> data = new LinkedHashMap<>();
        data.put("slug", "a/b");
        data.put("kind", "page");
        data.put("title", "Slash / and \"quotes\" and \\ backslash");
        data.put("weight", 2.5);
        assertThat(new String(CanonicalJson.recordBytes("01a229d2-b64d-728d-a476-ed40c91002a2", data),
                StandardCharsets.UTF_8)).isEqualTo("{\"id\":\"01a229d2-b64d-728d-a476-ed40c91002a2\",\"data\":"
                + "{\"slug\":\"a/b\",\"kind\":\"page\",\"title\":\"Slash / and \\\"quotes\\\" and \\\\ backslash\","
                + "\"weight\":2.5}}\n");
        assertThat(new String(CanonicalJson.recordBytes("018bcfe5-6800-726c-a753-80d71a17e586", Map.of()),
                StandardCharsets.UTF_8)).isEqualTo("{\"id\":\"018bcfe5-6800-726c-a753-80d71a17e586\",\"data\":[]}\n");
    }

    @Test
    void unencodableValuesFailNamingTheField() {
        assertThatThrownBy(() -> CanonicalJson.encodeCompact(Map.of("x", Map.of("y", Double.NaN))))
                .isInstanceOf(StorageException.class).hasMessageContaining("NaN").hasMessageContaining("x.y");
        assertThatThrownBy(() -> CanonicalJson.encodeCompact(Map.of("inf", Double.POSITIVE_INFINITY)))
                .isInstanceOf(StorageException.class).hasMessageContaining("inf");
        assertThatThrownBy(() -> CanonicalJson.encodeCompact(Map.of("s", "bad \uD800 half")))
                .isInstanceOf(StorageException.class).hasMessageContaining("Malformed UTF-8");
        assertThatThrownBy(() -> CanonicalJson.encodeCompact(Map.of("t", new Object())))
                .isInstanceOf(StorageException.class).hasMessageContaining("java.lang.Object");
    }

    @Test
    void recordDataTooDeepToReadBackIsRefusedAtWriteTime() {
        Map<String, Object> deep = new LinkedHashMap<>();
        Map<String, Object> cursor = deep;
        for (int i = 0; i < 509; i++) {
            Map<String, Object> child = new LinkedHashMap<>();
            cursor.put("a", child);
            cursor = child;
        }
        byte[] ok = CanonicalJson.recordBytes("018bcfe5-6800-726c-a753-80d71a17e586", deep);
        assertThat(Jsonc.decodeObject(ok)).containsKey("data");
        cursor.put("a", new LinkedHashMap<>(Map.of("b", 1L)));
        assertThatThrownBy(() -> CanonicalJson.recordBytes("018bcfe5-6800-726c-a753-80d71a17e586", deep))
                .isInstanceOf(StorageException.class).hasMessageContaining("nesting");
    }

    @Test
    void randomNestedDocumentsRoundTripExactly() {
        long seed = System.nanoTime();
        System.out.println("CanonicalJsonTest seed " + seed);
        Random random = new Random(seed);
        for (int i = 0; i < 200; i++) {
            Map<String, Object> doc = randomObject(random, 0);
            assertThat(Jsonc.decodeObject(CanonicalJson.encodeCompact(doc))).as("seed %d", seed).isEqualTo(doc);
            assertThat(Jsonc.decodeObject(CanonicalJson.encodePretty(doc).getBytes(StandardCharsets.UTF_8)))
                    .as("seed %d", seed).isEqualTo(doc);
        }
    }

    private static Map<String, Object> randomObject(Random r, int depth) {
        Map<String, Object> m = new LinkedHashMap<>();
        int n = r.nextInt(5);
        for (int i = 0; i < n; i++) {
            m.put("k" + i + (r.nextBoolean() ? "é/\"" : ""), randomValue(r, depth + 1));
        }
        return m;
    }

    private static Object randomValue(Random r, int depth) {
        switch (depth > 4 ? r.nextInt(5) : r.nextInt(7)) {
            case 0: return r.nextLong();
            case 1: return r.nextBoolean() ? r.nextDouble() * Math.pow(10, r.nextInt(40) - 20) : 12.5;
            case 2: return r.nextBoolean();
            case 3: return null;
            case 4: return "s \" // \\ \n " + r.nextInt();
            case 5: {
                List<Object> list = new ArrayList<>();
                for (int i = r.nextInt(4); i > 0; i--) {
                    list.add(randomValue(r, depth + 1));
                }
                return list;
            }
            default: return randomObject(r, depth);
        }
    }
}
