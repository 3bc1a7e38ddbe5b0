package dev.storh.mirror;

import static dev.storh.mirror.MirrorFlowsContract.map;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

/** Canonical data text and row hashes, against vectors captured from the PHP original. */
class RowCodecTest {

    @ParameterizedTest
    @CsvSource(delimiter = '|', quoteCharacter = '\'', value = {
        "''|99aa06d3014798d86001c324468d497f",
        "[]|39347ff402b6c53d831154110e30ac6a",
        "[\"a\",\"b\"]|e9001d79b6cdf901d60bc1f2579ab402",
        "{\"slug\":\"a\",\"views\":2}|4922cf88a0f02ecca0fd28c579358ef9",
        "{\"b\":1,\"a\":2}|3980bd5e76ff020ec8248614ea84bc5c",
        "{\"slug\":\"a\",\"views\":1,\"score\":2,\"live\":true,\"tags\":[\"x\",\"y\"]}|85efd699e7bd373ccba74c9fb4e193a3",
        "{\"slug\":\"b\",\"views\":\"7\",\"score\":0.30000000000000004,\"live\":1}|2c6673f1acd62ae25dde2487af04979d",
        "{\"slug\":7,\"views\":2.0,\"score\":1.0e+100}|70ea9e8f8afba15714cfb9672fcd84e4",
    })
    void hashIsXxh3OfTheTextAsLowercaseHex(String text, String hash) {
        assertThat(RowCodec.hash(text)).isEqualTo(hash);
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "1.0|1.0", "100.0|100.0", "0.1|0.1", "0.30000000000000004|0.30000000000000004",
        "0.3333333333333333|0.3333333333333333", "-0.0|-0.0", "1e15|1000000000000000.0",
        "1e16|10000000000000000.0", "1e17|1.0e+17", "1.2345678901234568e17|1.2345678901234568e+17",
        "1e20|1.0e+20", "1e100|1.0e+100", "0.0001|0.0001", "0.00001|1.0e-5", "2.5e-5|2.5e-5",
        "1.5e-7|1.5e-7", "5e-324|5.0e-324", "1.7976931348623157e308|1.7976931348623157e+308",
    })
    void floatsAreWrittenAsTheOriginalDoes(double value, String text) {
        assertThat(RowCodec.dataText(map("f", value))).isEqualTo("{\"f\":" + text + "}");
    }

    @Test
    void wholeRecordKeepsMemberOrderWithoutWhitespace() {
        Map<String, Object> data = map("kind", "page", "status", "draft", "bucket", 0L, "slug", "item-0",
                "publishedAt", 1700000000000L);
        assertThat(RowCodec.dataText(data))
                .isEqualTo("{\"kind\":\"page\",\"status\":\"draft\",\"bucket\":0,\"slug\":\"item-0\",\"publishedAt\":1700000000000}");
    }

    @Test
    void stringsEscapeOnlyWhatTheOriginalEscapes() {
        String s = "a/b \"q\" \\ \n\t\r\b\f \u0001 \u001f \u007f é ✅ 🚀 \u2028\u2029 <>&'";
        assertThat(RowCodec.dataText(map("s", s))).isEqualTo(
                "{\"s\":\"a/b \\\"q\\\" \\\\ \\n\\t\\r\\b\\f \\u0001 \\u001f \u007f é ✅ 🚀 \\u2028\\u2029 <>&'\"}");
    }

    @Test
    void emptyAndListShapedDataAreArrays() {
        assertThat(RowCodec.dataText(Map.of())).isEqualTo("[]");
        assertThat(RowCodec.dataText(map("0", "a", "1", "b"))).isEqualTo("[\"a\",\"b\"]");
        assertThat(RowCodec.hash(RowCodec.dataText(map("0", "a", "1", "b")))).isEqualTo("e9001d79b6cdf901d60bc1f2579ab402");
        assertThat(RowCodec.dataText(map("1", "a", "0", "b"))).isEqualTo("{\"1\":\"a\",\"0\":\"b\"}");
        assertThat(RowCodec.dataText(map("o", new LinkedHashMap<>(), "l", List.of(map("0", 1L))))).isEqualTo("{\"o\":[],\"l\":[[1]]}");
        assertThat(RowCodec.recordData(List.of("a", "b"))).isEqualTo(map("0", "a", "1", "b"));
    }
}
