package dev.storh.doc.index;

import static org.assertj.core.api.Assertions.assertThat;

import dev.storh.StorageRecord;
import dev.storh.doc.DocStore;
import dev.storh.query.Direction;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code orderBy(f).limit(k)} without conditions, answered from f's range index: the same records
 * in the same order as a scan of an unindexed copy, whatever mix of numbers, strings, missing
 * fields, nulls, booleans, lists and objects the collection holds, in both directions, and after
 * the index changes (records in the first k deleted, overwritten with values that sort after).
 */
class TopKOrderTest {

    private static final List<Long> SEEDS = seeds();

    @TempDir
    Path temp;

    private static List<Long> seeds() {
        String one = System.getProperty("storh.seed");
        return one != null ? List.of(Long.parseLong(one)) : List.of(31L, 32L, 33L);
    }

    @Test
    void topKFromTheRangeIndexEqualsTheScanOrder() throws Exception {
        for (long seed : SEEDS) {
            Path dir = Files.createDirectories(temp.resolve("seed-" + seed));
            try (DocStore indexed = DocStore.open(dir, "indexed"); DocStore plain = DocStore.open(dir, "plain")) {
                indexed.indexes().field("n").range().sync();
                Random rnd = new Random(seed);
                boolean onlyNumbers = seed % 3 == 0;
                List<String> ids = new ArrayList<>();
                for (int i = 0; i < 60; i++) {
                    Map<String, Object> data = new HashMap<>();
                    data.put("i", (long) i);
                    Object n = onlyNumbers ? (Object) (long) rnd.nextInt(20) : value(rnd);
                    if (n != MISSING) {
                        data.put("n", n);
                    }
                    String id = indexed.put(data).id();
                    plain.put(data, id);
                    ids.add(id);
                }
                compare(indexed, plain, seed, "written");
                for (int i = 0; i < 10; i++) {
                    String id = ids.get(rnd.nextInt(ids.size()));
                    indexed.delete(id);
                    plain.delete(id);
                    Map<String, Object> later = Map.of("n", onlyNumbers ? (Object) 1000L : List.of(1L, 2L));
                    String other = ids.get(rnd.nextInt(ids.size()));
                    indexed.put(later, other);
                    plain.put(later, other);
                }
                compare(indexed, plain, seed, "changed");
            }
        }
    }

    @Test
    void theFirstRecordsByARangeFieldAreReadWithoutTouchingTheOthers() throws Exception {
        try (DocStore store = DocStore.open(temp, "docs")) {
            store.indexes().field("n").range().sync();
            for (long i = 20; i > 0; i--) {
                store.put(Map.of("n", i));
            }
            // A record file nobody can read, which a scan would have to open.
            String broken = dev.storh.id.UuidV7.generate();
            Path file = store.pathForId(broken);
            Files.createDirectories(file.getParent());
            Files.writeString(file, "{\"id\":");

            List<StorageRecord> first = store.query().orderBy("n").limit(5).get();
            assertThat(first).extracting(r -> r.data().get("n")).containsExactly(1L, 2L, 3L, 4L, 5L);
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> store.query().orderBy("n", Direction.DESC).limit(5).get())
                    .isInstanceOf(dev.storh.CorruptRecordException.class);
        }
    }

    private static final Object MISSING = new Object();

    private static Object value(Random rnd) {
        switch (rnd.nextInt(9)) {
            case 0: return MISSING;
            case 1: return null;
            case 2: return rnd.nextBoolean();
            case 3: return List.of((long) rnd.nextInt(3));
            case 4: return Map.of("k", (long) rnd.nextInt(3));
            case 5: return "s" + rnd.nextInt(10);
            case 6: return rnd.nextInt(10) / 4.0;
            default: return (long) rnd.nextInt(10) - 3;
        }
    }

    private static void compare(DocStore indexed, DocStore plain, long seed, String stage) {
        for (Direction direction : Direction.values()) {
            for (long k : new long[] {1, 3, 10, 25, 59, 60, 100}) {
                List<String> want = ids(plain.query().orderBy("n", direction).limit(k).get());
                List<String> got = ids(indexed.query().orderBy("n", direction).limit(k).get());
                assertThat(got).as("seed %d, %s, %s, limit %d", seed, stage, direction, k).isEqualTo(want);
            }
        }
    }

    private static List<String> ids(List<StorageRecord> records) {
        return records.stream().map(StorageRecord::id).toList();
    }
}
