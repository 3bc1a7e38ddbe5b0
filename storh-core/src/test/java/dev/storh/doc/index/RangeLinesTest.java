package dev.storh.doc.index;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The fast reader of range lines decodes every line it accepts exactly as the full decoder does, and
 * accepts the plain lines (integers, ASCII strings, booleans, null) that make up nearly every range file.
 */
class RangeLinesTest {

    private static final String ID = "018bcfe5-6800-7000-8000-2d5dba6274da";

    @Test
    void everyLineItAcceptsDecodesAsTheFullDecoderDoes() {
        for (Object v : IndexVsScanRandomTest.VALUES) {
            if (!IndexKeys.isIndexable(v)) {
                continue;
            }
            for (byte[] line : List.of(RangeFiles.encodeLine(IndexKeys.rangeKey(v), v, 1, List.of(ID), List.of()),
                    RangeFiles.encodeLine(IndexKeys.rangeKey(v), v, -1, List.of(), List.of(ID)),
                    RangeFiles.encodeLine(IndexKeys.rangeKey(v), v, 2, List.of(ID, ID.replace('a', 'b')), List.of()))) {
                assertThat(line[line.length - 1]).isEqualTo((byte) '\n');
                RangeFiles.Line fast = RangeLines.decode(line, 0, line.length - 1); // as the reader splits lines
                RangeFiles.Line full = RangeFiles.decodeLine(line, 0, line.length - 1);
                String text = new String(line, StandardCharsets.UTF_8);
                if (fast != null) {
                    assertThat(fast).as(text).isEqualTo(full);
                    assertThat(fast.value() == null ? "null" : fast.value().getClass().getSimpleName()).as(text)
                            .isEqualTo(full.value() == null ? "null" : full.value().getClass().getSimpleName());
                }
                boolean plain = v == null || v instanceof Boolean
                        || v instanceof Long n && String.valueOf(n).replace("-", "").length() <= 18
                        || v instanceof String s && s.chars().allMatch(ch -> ch >= 0x20 && ch < 0x7f && ch != '"' && ch != '\\');
                assertThat(fast != null).as("plain line read fast: " + text).isEqualTo(plain);
            }
        }
    }

    @Test
    void linesInAnyOtherFormAreLeftToTheFullDecoder() {
        for (String line : List.of("{\"key\": \"n-1\",\"value\":1,\"count\":1,\"ids\":[],\"remove\":[]}",
                "{\"key\":\"n-1\",\"value\":01,\"count\":1,\"ids\":[],\"remove\":[]}",
                "{\"key\":\"n-1\",\"value\":1.5,\"count\":1,\"ids\":[],\"remove\":[]}",
                "{\"key\":\"n-1\",\"value\":1e3,\"count\":1,\"ids\":[],\"remove\":[]}",
                "{\"key\":\"s-5c\",\"value\":\"a\\\"b\",\"count\":1,\"ids\":[],\"remove\":[]}",
                "{\"key\":\"n-1\",\"value\":1,\"count\":1,\"ids\":[\"x\",],\"remove\":[]}",
                "{\"key\":\"n-1\",\"value\":1,\"count\":1,\"ids\":[],\"remove\":[]} ",
                "{\"key\":\"n-1\",\"value\":1,\"count\":1,\"ids\":[],\"remove\":[],\"more\":1}",
                "{\"key\":\"n-1\",\"value\":1234567890123456789,\"count\":1,\"ids\":[],\"remove\":[]}",
                "{\"key\":\"n-1\",\"value\":1,\"count\":1,\"ids\":[\"x\"]}")) {
            byte[] bytes = line.getBytes(StandardCharsets.UTF_8);
            assertThat(RangeLines.decode(bytes, 0, bytes.length)).as(line).isNull();
        }
        byte[] framed = "xx{\"key\":\"n-1\",\"value\":-7,\"count\":1,\"ids\":[\"a\"],\"remove\":[]}yy".getBytes(StandardCharsets.UTF_8);
        assertThat(RangeLines.decode(framed, 2, framed.length - 4))
                .isEqualTo(new RangeFiles.Line("n-1", -7L, 1, List.of("a"), List.of()));
    }
}
