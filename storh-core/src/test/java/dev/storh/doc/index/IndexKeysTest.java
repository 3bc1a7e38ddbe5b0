package dev.storh.doc.index;

import static org.assertj.core.api.Assertions.assertThat;

import dev.storh.json.Jsonc;
import dev.storh.query.Values;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class IndexKeysTest {

    /**
     * Keys the original storh 0.5.0 computes for values it decoded itself, produced by
     * {@code vectors/generate-original-index-keys.php}: range, value and compound keys must match byte
     * for byte for every value the JSON model holds.
     */
    @Test
    void everyKeyIsTheOriginalsForEveryValueKind() throws Exception {
        List<String> lines;
        try (var in = IndexKeysTest.class.getResourceAsStream("/vectors/original-index-keys.jsonl")) {
            lines = new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().toList();
        }
        assertThat(lines).hasSizeGreaterThan(100);
        List<String> wrong = new ArrayList<>();
        for (String line : lines) {
            Map<String, Object> vector = Jsonc.decodeObject(line.getBytes(StandardCharsets.UTF_8));
            String literal = (String) vector.get("literal");
            Object value = Values.normalise(Jsonc.decodeObject(("{\"v\":" + literal + "}").getBytes(StandardCharsets.UTF_8)).get("v"));
            check(wrong, literal, "indexable", vector.get("indexable"), IndexKeys.isIndexable(value));
            check(wrong, literal, "rangeKey", vector.get("rangeKey"), IndexKeys.rangeKey(value));
            check(wrong, literal, "valueKey", vector.get("valueKey"), IndexKeys.valueKey(value));
            check(wrong, literal, "compoundKey", vector.get("compoundKey"), IndexKeys.compoundKey(value, "page"));
        }
        assertThat(wrong).isEmpty();
    }

    private static void check(List<String> wrong, String literal, String what, Object expected, Object actual) {
        if (!expected.equals(actual)) {
            wrong.add(literal + " " + what + ": original " + expected + ", ours " + actual);
        }
    }

    @Test
    void xxh128MatchesPhpHash() {
        assertThat(IndexKeys.xxh128(new byte[0])).isEqualTo("99aa06d3014798d86001c324468d497f");
        assertThat(IndexKeys.xxh128("abc".getBytes(StandardCharsets.UTF_8))).isEqualTo("06b05ab6733a618578af5f94892f3950");
    }

    @Test
    void valueKeys() {
        Map<Object, String> cases = new LinkedHashMap<>();
        cases.put(0L, "i-0");
        cases.put(-42L, "i-m42");
        cases.put("", "s-");
        cases.put("page", "s-70616765");
        cases.put("Ä", "s-c384");
        cases.put("x".repeat(97), "s-2193aa369fdf88a0b64bd1e431ca39d8");
        cases.put(true, "b-1");
        cases.put(false, "b-0");
        cases.put(1.0, "f-1");
        cases.put(1.5, "f-1d5");
        cases.put(-2.5, "f-m2d5");
        cases.put(0.1, "f-0d10000000000000001");
        cases.put(2.0000001, "f-2d0000000999999998");
        cases.put(1e20, "f-1d0Ep20");
        cases.put(1e-7, "f-9d9999999999999995Em8");
        cases.put(1e-5, "f-1d0000000000000001Em5");
        cases.put(0.0, "f-0");
        cases.put(-0.0, "f-m0");
        cases.forEach((v, key) -> assertThat(IndexKeys.valueKey(v)).as("%s", v).isEqualTo(key));
        assertThat(IndexKeys.valueKey(null)).isEqualTo("n");
    }

    @Test
    void rangeKeys() {
        Map<Object, String> cases = new LinkedHashMap<>();
        cases.put(0L, "n-00000000000000000d000000");
        cases.put(10L, "n-00000000000000010d000000");
        cases.put(2.25, "n-00000000000000002d250000");
        cases.put(1.0, "n-00000000000000001d000000");
        cases.put(-3L, "n-m0000000000000003d000000");
        cases.put(-2.5, "n-m0000000000000002d500000");
        cases.put(1e-7, "n-00000000000000000d000000");
        cases.put(1e20, "n-100000000000000000000d000000");
        cases.put(123456789012345678L, "n-123456789012345678d000000");
        cases.put("abc", "s-616263");
        cases.put(true, "b-1");
        cases.forEach((v, key) -> assertThat(IndexKeys.rangeKey(v)).as("%s", v).isEqualTo(key));
        assertThat(IndexKeys.rangeKey(null)).isEqualTo("z-n");
        assertThat(IndexKeys.rangeKey(java.util.List.of(1L))).startsWith("z-");
    }

    @Test
    void compoundAndFieldKeys() {
        assertThat(IndexKeys.compoundKey("page", "pub")).isEqualTo("c-8cf204f68c11cac026d30f4c8b8bbdd9");
        assertThat(IndexKeys.hex("kind")).isEqualTo("6b696e64");
        assertThat(IndexKeys.hex("a/b")).isEqualTo("612f62");
    }
}
