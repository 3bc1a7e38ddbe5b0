package dev.storh.doc.index;

import static org.assertj.core.api.Assertions.assertThat;

import dev.storh.json.CanonicalJson;
import java.io.ByteArrayInputStream;
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
 * The byte scan of a value file's start answers exactly what the JSON reader answers, whenever it
 * answers at all: for random files in the compact layout (field names and values of every scalar
 * kind, with and without escapes and non-ASCII text, keys that match or not, any number of ids),
 * for every prefix of their bytes, for layouts it leaves to the reader (whitespace, another member
 * order, a negative count), and for every limit. Seeds: a fixed list, or {@code -Dstorh.seed=<n>}.
 */
class ValueFileHeadsTest {

    private static final long[] SEEDS = {3L, 20261202L};
    private static final Path FILE = Path.of("entries/eq/6b/s-61.jsonc");
    private static final List<Object> VALUES = Arrays.asList("page", "a\"b", "straße", "", 7L, -3L, 2.5, 1e300, true, false, null);
    private static final List<String> FIELDS = List.of("kind", "a/b", "quote\"d", "ä", "bucket\tkind", "x".repeat(300));

    @Test
    void theByteScanAnswersAsTheJsonReaderForEveryPrefixAndLimit() {
        for (long seed : ExternalIndexSortTest.seeds(SEEDS)) {
            System.out.println("ValueFileHeadsTest seed " + seed + " (rerun with -Dstorh.seed=" + seed + ")");
            Random random = new Random(seed);
            int scanned = 0;
            for (int n = 0; n < 300; n++) {
                String key = random.nextBoolean() ? "s-70616765" : "i-" + random.nextInt(3);
                List<String> ids = new ArrayList<>();
                for (int i = random.nextInt(4) == 0 ? 0 : random.nextInt(40); i > 0; i--) {
                    ids.add(String.format("018bcfe5-%04x-7000-8000-%012x", random.nextInt(1 << 16), (long) random.nextInt(1 << 30)));
                }
                Map<String, Object> doc = new LinkedHashMap<>();
                doc.put("field", FIELDS.get(random.nextInt(FIELDS.size())));
                doc.put("key", key);
                doc.put("count", random.nextInt(10) == 0 ? (Object) (-1L - random.nextInt(5)) : (Object) (long) ids.size());
                doc.put("value", VALUES.get(random.nextInt(VALUES.size())));
                doc.put("ids", ids);
                String text = new String(CanonicalJson.encodeCompact(doc), StandardCharsets.UTF_8);
                if (random.nextInt(6) == 0) {
                    text = text.replace(",\"count\":", ", \"count\": "); // whitespace: the reader's
                }
                byte[] bytes = (text + "\n").getBytes(StandardCharsets.UTF_8);
                String expected = random.nextInt(5) == 0 ? "s-other" : key;
                for (int limit : new int[] {0, 1, 3, 100}) {
                    EqualityFiles.Head reference = EqualityFiles.headByParser(new ByteArrayInputStream(bytes), FILE, expected, limit);
                    for (int length = 0; length <= bytes.length; length++) {
                        EqualityFiles.Head head = ValueFileHeads.scan(bytes, length, expected, limit);
                        if (head != null) {
                            scanned++;
                            assertThat(head).as("seed %d, %s, limit %d, first %d bytes", seed, text, limit, length).isEqualTo(reference);
                        }
                    }
                    if (!text.contains(", ") && !text.contains("\"count\":-")) {
                        // compact, with plain key and ids: escapes and UTF-8 in field and value are skipped
                        assertThat(ValueFileHeads.scan(bytes, bytes.length, expected, limit))
                                .as("seed %d, compact %s, limit %d", seed, text, limit).isEqualTo(reference);
                    }
                }
            }
            assertThat(scanned).as("answers from the byte scan").isGreaterThan(1000);
        }
    }

    @Test
    void aCompoundBucketWhoseFieldHoldsAnEscapedTabIsAnsweredByTheByteScan() {
        byte[] bytes = EqualityFiles.encode("bucket\tkind", "c-76963804b829bbaea3bb13d2551ee889", null,
                List.of("018bcfe5-0001-7000-8000-000000000001", "018bcfe5-0002-7000-8000-000000000002"));
        assertThat(new String(bytes, StandardCharsets.UTF_8)).startsWith("{\"field\":\"bucket\\tkind\",");
        assertThat(ValueFileHeads.scan(bytes, bytes.length, "c-76963804b829bbaea3bb13d2551ee889", 0))
                .isEqualTo(new EqualityFiles.Head(2, List.of()));
        assertThat(ValueFileHeads.scan(bytes, bytes.length, "c-76963804b829bbaea3bb13d2551ee889", 1))
                .isEqualTo(new EqualityFiles.Head(2, List.of("018bcfe5-0001-7000-8000-000000000001")));
        assertThat(ValueFileHeads.scan(bytes, bytes.length, "c-00000000000000000000000000000000", 0))
                .isEqualTo(new EqualityFiles.Head(0, List.of()));
        byte[] quoted = "{\"field\":\"a\\\"b\\\\\",\"key\":\"k\",\"count\":4,\"value\":\"x\\\"\",\"ids\":[\"i\"]}"
                .getBytes(StandardCharsets.UTF_8); // field a\"b\\ and value x\": an escaped quote does not end them
        assertThat(ValueFileHeads.scan(quoted, quoted.length, "k", 1)).isEqualTo(new EqualityFiles.Head(4, List.of("i")));
        byte[] control = "{\"field\":\"a\tb\",\"key\":\"k\",\"count\":4,".getBytes(StandardCharsets.UTF_8);
        assertThat(ValueFileHeads.scan(control, control.length, "k", 0)).as("a raw tab is not JSON: the reader decides").isNull();
    }

    @Test
    void aFileOfAnotherShapeIsLeftToTheJsonReader() {
        for (String text : List.of("", "[1]", "{\"key\":\"k\",\"count\":3}", "{\"field\" : \"f\",\"key\":\"k\",\"count\":3,\"ids\":[]}",
                "{\"field\":\"f\",\"key\":\"k\",\"count\":3.0,\"value\":1,\"ids\":[]}",
                "{\"field\":\"f\",\"key\":\"k\",\"count\":3,\"value\":nul,\"ids\":[]}",
                "{\"field\":\"f\",\"key\":\"k\",\"count\":3,\"value\":1,\"ids\":[1]}")) {
            byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
            assertThat(ValueFileHeads.scan(bytes, bytes.length, "k", 5)).as(text).isNull();
        }
        byte[] other = "{\"field\":\"f\",\"key\":\"other\",\"count\":3".getBytes(StandardCharsets.UTF_8);
        assertThat(ValueFileHeads.scan(other, other.length, "k", 0)).isEqualTo(new EqualityFiles.Head(0, List.of()));
    }
}
