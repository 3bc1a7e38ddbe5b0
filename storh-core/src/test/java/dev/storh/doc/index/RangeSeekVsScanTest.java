package dev.storh.doc.index;

import static org.assertj.core.api.Assertions.assertThat;

import dev.storh.StorageRecord;
import dev.storh.doc.DocStore;
import dev.storh.fs.LocalFiles;
import dev.storh.query.Direction;
import dev.storh.query.QueryBuilder;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Range queries served stride by stride from the main file (numbers from 0 below 2^53 on {@code n},
 * strings on {@code s}: the key orders a seek may trust) equal a scan of the same records: with
 * ties, values whose keys round alike, a delta of later writes and deletes, bounds of every kind,
 * orderBy both ways with and without limits, counts with limits, and after the files stop being
 * provably ordered (a negative number) or stop matching their checkpoints. Seeds: a fixed list, or
 * {@code -Dstorh.seed=<n>}.
 */
class RangeSeekVsScanTest {

    /** Values of {@code n}: ties, a fraction whose key is 1's, fractions, big integers below 2^53. */
    private static final List<Object> NUMBERS = List.of(0L, 1L, 1L, 2L, 3L, 10L, 11L, 250L, 1.0000001, 1.00000001, 2.25,
            -0.0, 0.0, new BigDecimal("3.50"), 9007199254740991L, 4503599627370497L, 1_700_000_000_000L);
    private static final List<String> STRINGS = List.of("", "a", "ab", "abc", "b", "ba", "Ä", "z", "zz", "🙂", "\uFFFF");
    private static final List<Object> BOUNDS = Arrays.asList(-1L, 0L, 1L, 1.0, 1.00000005, 2L, 3.5, 10L, 251L, -0.5,
            9007199254740992L, 1e300, "a", "b", "", "zz", true, null, 4503599627370497L, new BigDecimal("4503599627370496.6"));

    @TempDir
    Path root;

    @Test
    void seeksEqualAScan() throws Exception {
        for (long seed : IndexVsScanRandomTest.seeds()) {
            runSeed(seed);
        }
    }

    private void runSeed(long seed) throws Exception {
        Random random = new Random(seed);
        Path dir = root.resolve("seed-" + seed);
        DocStore store = DocStore.open(dir, "q");
        try {
            store.indexes().field("n").range().field("s").range().sync();
            List<Map<String, Object>> rows = new ArrayList<>();
            for (int i = 0; i < 700; i++) {
                rows.add(row(random));
            }
            store.putStream(rows);
            store.reindex(); // everything in the main files, several strides each
            List<String> ids;
            try (java.util.stream.Stream<String> all = store.ids()) {
                ids = new ArrayList<>(all.toList());
            }
            store.close();
            store = DocStore.open(dir, "q");
            Path entries = dir.resolve("q/.storh/indexes/entries");
            LocalFiles files = LocalFiles.at(dir.resolve("q"));
            assertThat(RangeSeek.open(files, new RangeFiles(files, entries, "n"))).as("seed %d: numbers are seekable", seed).isNotNull();
            assertThat(RangeSeek.open(files, new RangeFiles(files, entries, "s"))).as("seed %d: strings are seekable", seed).isNotNull();
            compare(store, random, seed, "main only");
            for (int i = 0; i < 40; i++) { // a delta: new records, changed values, deletes
                if (random.nextInt(4) == 0) {
                    store.delete(ids.get(random.nextInt(ids.size())));
                } else {
                    String id = random.nextBoolean() ? ids.get(random.nextInt(ids.size())) : null;
                    ids.add(store.put(row(random), id).id());
                }
            }
            assertThat(Files.size(entries.resolve("range/" + IndexKeys.hex("n") + ".delta.jsonl"))).isPositive();
            compare(store, random, seed, "with a delta");
            store.close();
            store = DocStore.open(dir, "q");
            compare(store, random, seed, "reopened with a delta");
            Path points = entries.resolve("range/" + IndexKeys.hex("n") + ".idx.jsonc");
            java.util.regex.Matcher second = java.util.regex.Pattern.compile("\"offset\":([1-9][0-9]*)").matcher(Files.readString(points));
            assertThat(second.find()).isTrue();
            String shifted = second.replaceFirst("\"offset\":" + (Long.parseLong(second.group(1)) + 3));
            Files.writeString(points, shifted, StandardCharsets.UTF_8); // a checkpoint off its line: found when read
            store.close();
            store = DocStore.open(dir, "q");
            compare(store, random, seed, "checkpoints off");
            store.put(Map.of("n", -5L, "s", 7L)); // no longer provably in order: the whole file is read
            compare(store, random, seed, "a negative number");
        } finally {
            store.close();
        }
    }

    private static Map<String, Object> row(Random random) {
        Map<String, Object> data = new LinkedHashMap<>();
        if (random.nextInt(10) > 0) {
            data.put("n", random.nextInt(3) == 0 ? NUMBERS.get(random.nextInt(NUMBERS.size())) : (long) random.nextInt(300));
        }
        if (random.nextInt(10) > 0) {
            data.put("s", random.nextInt(2) == 0 ? STRINGS.get(random.nextInt(STRINGS.size())) : "k" + random.nextInt(200));
        }
        if (random.nextInt(40) == 0) {
            data.put("n", List.of(1L)); // a list: in neither main file, listed apart
        }
        return data;
    }

    private static void compare(DocStore store, Random random, long seed, String stage) {
        QueryBuilder scan = QueryBuilder.on(IndexVsScanRandomTest.scanReference(store));
        for (int i = 0; i < 80; i++) {
            String field = random.nextBoolean() ? "n" : "s";
            Object a = BOUNDS.get(random.nextInt(BOUNDS.size()));
            Object b = BOUNDS.get(random.nextInt(BOUNDS.size()));
            QueryBuilder q = switch (random.nextInt(8)) {
                case 0 -> store.query().where(field).gt(a);
                case 1 -> store.query().where(field).gte(a);
                case 2 -> store.query().where(field).lt(a);
                case 3 -> store.query().where(field).lte(a);
                case 4 -> store.query().where(field).between(a, b);
                case 5 -> store.query().where(field).eq(a);
                case 6 -> store.query().where(field).prefix(a instanceof String s ? s : "k1");
                default -> store.query();
            };
            Direction direction = random.nextBoolean() ? Direction.ASC : Direction.DESC;
            switch (random.nextInt(4)) {
                case 0 -> q = q.orderBy(field, direction).limit(1 + random.nextInt(300));
                case 1 -> q = q.orderBy(field, direction);
                case 2 -> q = q.limit(1 + random.nextInt(50));
                default -> { }
            }
            QueryBuilder s = q.hasConditions() ? IndexVsScanRandomTest.replay(q, scan) : scan;
            if (!q.hasConditions() && q.orderPath() != null) {
                s = s.orderBy(q.orderPath(), q.direction());
            }
            if (!q.hasConditions() && q.limit() > 0) {
                s = s.limit(q.limit());
            }
            String label = "seed " + seed + " " + stage + ": " + q;
            assertThat(ids(q.get())).as(label).isEqualTo(ids(s.get()));
            assertThat(q.count()).as("count " + label).isEqualTo(s.count());
        }
    }

    private static List<String> ids(List<StorageRecord> records) {
        return records.stream().map(StorageRecord::id).toList();
    }
}
