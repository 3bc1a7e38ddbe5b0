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

    /**
     * The file reader splits lines across its read blocks as a plain split on newlines does: lines
     * longer than a block, lines cut by a block's end, empty lines, malformed lines (handed on as
     * {@code null} and reported) and a last line without its newline.
     */
    @Test
    void aFileIsReadLineByLineAcrossItsReadBlocks(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) throws Exception {
        long seed = System.nanoTime();
        java.util.Random random = new java.util.Random(seed);
        dev.storh.fs.StoreFiles files = dev.storh.fs.LocalFiles.at(dir);
        RangeFiles range = new RangeFiles(files, dir.resolve("entries"), "at");
        java.nio.file.Files.createDirectories(range.main().getParent());
        for (int round = 0; round < 6; round++) {
            java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
            int lines = 1 + random.nextInt(3_000);
            for (int i = 0; i < lines; i++) {
                int kind = random.nextInt(20);
                if (kind == 0) {
                    out.write('\n'); // an empty line
                } else if (kind == 1) {
                    out.writeBytes("{\"key\":".getBytes(StandardCharsets.UTF_8)); // cut short
                    out.write('\n');
                } else {
                    long v = random.nextLong();
                    List<String> ids = new java.util.ArrayList<>();
                    int n = kind == 2 && random.nextInt(8) == 0 ? 3_000 : 1; // about 120 KB: longer than a read block
                    for (int k = 0; k < n; k++) {
                        ids.add(ID.substring(0, 24) + String.format("%012x", random.nextLong() & 0xffffffffffffL));
                    }
                    out.writeBytes(RangeFiles.encodeLine(IndexKeys.rangeKey(v), v, n, ids, List.of()));
                }
            }
            byte[] bytes = out.toByteArray();
            if (round % 2 == 1 && bytes.length > 1 && bytes[bytes.length - 1] == '\n') {
                bytes = java.util.Arrays.copyOf(bytes, bytes.length - 1); // no newline after the last line
            }
            java.nio.file.Files.write(range.main(), bytes);

            List<RangeFiles.Line> expected = new java.util.ArrayList<>();
            int expectedErrors = 0;
            int start = 0;
            for (int i = 0; i <= bytes.length; i++) {
                if (i == bytes.length || bytes[i] == '\n') {
                    if (i > start) {
                        RangeFiles.Line line = RangeFiles.lineAt(bytes, start, i - start);
                        expected.add(line);
                        expectedErrors += line == null ? 1 : 0;
                    }
                    start = i + 1;
                }
            }
            List<RangeFiles.Line> read = new java.util.ArrayList<>();
            List<String> errors = new java.util.ArrayList<>();
            range.forEachLine(range.main(), read::add, errors);
            assertThat(read).as("seed %d, round %d", seed, round).isEqualTo(expected);
            assertThat(errors).as("seed %d, round %d", seed, round).hasSize(expectedErrors);
        }
    }
}
