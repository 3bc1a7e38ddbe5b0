package dev.storh.doc.index;

import static org.assertj.core.api.Assertions.assertThat;

import dev.storh.StorageRecord;
import dev.storh.doc.DocStore;
import dev.storh.query.Direction;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code orderBy(f).limit(k)} with no condition, and with one equality condition (a walk of the
 * range index keeping the matches), answered from the strides of {@code f}'s range index in both
 * directions, must equal a scan's full sort: on a field of only numbers with many
 * ties, of only strings, after a record without the field joins (which orders first when
 * descending, so the index cannot answer alone), with a delta of writes, and after a reindex.
 * Seeds: a fixed list, or {@code -Dstorh.seed=<n>}.
 */
class RangeTopKTest {

    private static final long[] SEEDS = {5L, 20261202L};
    private static final int[] LIMITS = {1, 7, 100, 300, 900};

    @TempDir
    Path dir;

    @Test
    void topKFromTheStridesEqualsAFullSortInBothDirections() {
        for (long seed : ExternalIndexSortTest.seeds(SEEDS)) {
            Random random = new Random(seed);
            try (DocStore store = DocStore.open(dir.resolve("s" + seed), "c")) {
                store.indexes().field("n").range().field("s").range().field("kind").index().sync();
                List<Map<String, Object>> batch = new ArrayList<>();
                for (int i = 0; i < 1200; i++) {
                    Map<String, Object> data = new LinkedHashMap<>();
                    data.put("n", random.nextInt(5) == 0 ? (Object) (random.nextInt(40) + 0.5) : (Object) (long) random.nextInt(150));
                    data.put("s", "v" + random.nextInt(200));
                    data.put("kind", random.nextInt(3) == 0 ? "rare" : "common");
                    batch.add(data);
                }
                store.putMany(batch);
                store.reindex(); // no delta: the strides alone tell the number of entries
                check(store, seed, "numbers and strings, no delta");
                Map<String, Object> other = new LinkedHashMap<>();
                other.put("s", "zz");
                other.put("kind", "common");
                String missing = store.put(other).id();
                check(store, seed, "one record without n");
                store.reindex();
                check(store, seed, "one record without n, reindexed");
                store.delete(missing);
                Map<String, Object> high = new LinkedHashMap<>();
                high.put("n", 10_000L);
                high.put("s", "v5");
                store.put(high);
                check(store, seed, "with a delta");
                store.reindex();
                check(store, seed, "reindexed");
            }
        }
    }

    /**
     * A common equality value (most records), its matches ordered after the other records' or
     * before them: the first ids of the range index are read as a prefix and their records
     * re-checked, and when too few of them match the query is answered again without the prefix.
     * Order values of every kind: numbers with many ties, strings, null, booleans, lists, objects
     * and a missing field (then descending cannot be read from the index alone).
     */
    @Test
    void aCommonValueReadThroughTheRecordsInItsWayEqualsAFullSort() {
        for (long seed : ExternalIndexSortTest.seeds(SEEDS)) {
            System.out.println("RangeTopKTest common value seed " + seed + " (rerun with -Dstorh.seed=" + seed + ")");
            for (boolean commonLow : new boolean[] {false, true}) {
                Random random = new Random(seed);
                try (DocStore store = DocStore.open(dir.resolve("common-" + commonLow + seed), "c")) {
                    store.indexes().field("n").range().field("kind").index().sync();
                    List<Map<String, Object>> batch = new ArrayList<>();
                    for (int i = 0; i < 1500; i++) {
                        boolean common = random.nextInt(10) != 0;
                        Map<String, Object> data = new LinkedHashMap<>();
                        data.put("kind", common ? "common" : "rare");
                        Object n = commonLow ? plainValue(random, common) : orderValue(random, common);
                        if (n != MISSING) {
                            data.put("n", n);
                        }
                        batch.add(data);
                    }
                    store.putMany(batch);
                    store.reindex();
                    String state = commonLow ? "common values low, reindexed" : "common values high, reindexed";
                    checkCommon(store, seed, state);
                    Map<String, Object> late = new LinkedHashMap<>();
                    late.put("kind", "common");
                    late.put("n", commonLow ? 1_000L : -1L);
                    store.put(late);
                    checkCommon(store, seed, state + ", with a delta");
                }
            }
        }
    }

    private static final Object MISSING = new Object();

    /** Common records take high numbers or values no range line holds; the others strings and low numbers first. */
    private static Object orderValue(Random random, boolean common) {
        int kind = random.nextInt(20);
        if (kind == 0) {
            return common ? MISSING : "s" + random.nextInt(5);
        }
        if (kind == 1) {
            return java.util.Arrays.asList(null, true, false, List.of(1L), Map.of("a", 1L)).get(random.nextInt(5));
        }
        return common ? (Object) (long) (100 + random.nextInt(30)) : (Object) (random.nextInt(4) == 0 ? 2.5 : (long) random.nextInt(60));
    }

    /** Numbers only (the index holds every record): common records low with many ties, the others high. */
    private static Object plainValue(Random random, boolean common) {
        return common ? (Object) (long) random.nextInt(30) : (Object) (random.nextInt(4) == 0 ? 150.5 : (long) (100 + random.nextInt(60)));
    }

    private static void checkCommon(DocStore store, long seed, String state) {
        for (Direction direction : Direction.values()) {
            for (String kind : List.of("common", "rare")) {
                List<String> expected = ids(IndexVsScanRandomTest.scanReference(store)
                        .get(store.query().where("kind").eq(kind).orderBy("n", direction)));
                for (int k : new int[] {1, 3, 10, 50}) {
                    assertThat(ids(store.query().where("kind").eq(kind).orderBy("n", direction).limit(k).get()))
                            .as("seed %d, %s: where(kind = %s).orderBy(n, %s).limit(%d)", seed, state, kind, direction, k)
                            .isEqualTo(expected.subList(0, Math.min(k, expected.size())));
                }
                assertThat(store.query().where("kind").eq(kind).orderBy("n", direction).first().map(StorageRecord::id))
                        .as("seed %d, %s: first of kind = %s by n %s", seed, state, kind, direction)
                        .isEqualTo(expected.stream().findFirst());
            }
        }
    }

    private static void check(DocStore store, long seed, String state) {
        for (String field : List.of("n", "s")) {
            for (Direction direction : Direction.values()) {
                List<String> all = ids(IndexVsScanRandomTest.scanReference(store).get(store.query().orderBy(field, direction)));
                Map<String, List<String>> byKind = new LinkedHashMap<>();
                for (String kind : List.of("rare", "common")) {
                    byKind.put(kind, ids(IndexVsScanRandomTest.scanReference(store)
                            .get(store.query().where("kind").eq(kind).orderBy(field, direction))));
                }
                for (int k : LIMITS) {
                    assertThat(ids(store.query().orderBy(field, direction).limit(k).get()))
                            .as("seed %d, %s: orderBy(%s, %s).limit(%d)", seed, state, field, direction, k)
                            .hasSize(Math.min(k, all.size())).isEqualTo(all.subList(0, Math.min(k, all.size())));
                    byKind.forEach((kind, expected) -> assertThat(
                            ids(store.query().where("kind").eq(kind).orderBy(field, direction).limit(k).get()))
                            .as("seed %d, %s: where(kind = %s).orderBy(%s, %s).limit(%d)", seed, state, kind, field, direction, k)
                            .isEqualTo(expected.subList(0, Math.min(k, expected.size()))));
                }
            }
        }
    }

    private static List<String> ids(List<StorageRecord> records) {
        return records.stream().map(StorageRecord::id).toList();
    }
}
