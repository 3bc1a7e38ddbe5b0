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
