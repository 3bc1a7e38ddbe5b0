package dev.storh.doc.index;

import static org.assertj.core.api.Assertions.assertThat;

import dev.storh.StorageRecord;
import dev.storh.doc.DocStore;
import dev.storh.query.Direction;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The reported cases where index answers differed from a scan, on real files. */
class IndexAnswersTest {

    @TempDir
    Path root;

    private static List<String> ids(List<StorageRecord> records) {
        return records.stream().map(StorageRecord::id).toList();
    }

    @Test
    void negativeZeroHasTheOriginalsRangeKeyInTheFilesAndMatchesZero() throws Exception {
        try (DocStore store = DocStore.open(root, "z")) {
            store.indexes().field("r").range().field("e").sync();
            String neg = store.put(Map.of("r", -0.0, "e", -0.0)).id();
            String pos = store.put(Map.of("r", 0.0, "e", 0.0)).id();
            store.reindex();
            String main = Files.readString(root.resolve("z/.storh/indexes/entries/range/" + IndexKeys.hex("r") + ".jsonl"));
            assertThat(main).contains("{\"key\":\"n-00000000000000000d000000\",\"value\":-0.0,")
                    .doesNotContain("n-m0000000000000000d000000");
            assertThat(store.verify().errors()).isEmpty();
            for (String field : List.of("r", "e")) {
                assertThat(ids(store.query().where(field).eq(0.0).get())).as(field).containsExactly(neg, pos);
                assertThat(ids(store.query().where(field).eq(-0.0).get())).as(field).containsExactly(neg, pos);
                assertThat(store.query().where(field).eq(0.0).count()).as(field).isEqualTo(2);
                assertThat(ids(store.query().where(field).in(List.of(-0.0)).get())).as(field).containsExactly(neg, pos);
            }
        }
    }

    @Test
    void rangeConditionsOverMixedValuesEqualAScanWithCursorOrderAndLimit() {
        List<Object> values = new ArrayList<>(List.of(10L, -3L, 2.25, "abc", "", true, false, 1.0, -0.0, 1e20,
                new BigInteger("9223372036854775808"), Long.MAX_VALUE, 0x1p63, 9007199254740993L, 9007199254740992.0,
                List.of(1L), List.of(), Map.of("a", 1L), Map.of()));
        values.add(null);
        try (DocStore store = DocStore.open(root, "m")) {
            store.indexes().field("r").range().sync();
            List<StorageRecord> all = new ArrayList<>();
            for (Object v : values) {
                java.util.Map<String, Object> data = new java.util.HashMap<>();
                data.put("r", v);
                all.add(store.put(data));
            }
            store.put(Map.of("other", 1L));
            for (Object bound : values) {
                for (boolean strict : new boolean[] {false, true}) {
                    List<String> expected = all.stream().filter(r -> {
                        int c = dev.storh.query.Values.compare(r.data().get("r"), bound);
                        return strict ? c > 0 : c >= 0;
                    }).map(StorageRecord::id).sorted().toList();
                    var q = strict ? store.query().where("r").gt(bound) : store.query().where("r").gte(bound);
                    assertThat(ids(q.get())).as("%s %s", strict ? "gt" : "gte", bound).isEqualTo(expected);
                    assertThat(q.count()).as("count %s", bound).isEqualTo(expected.size());
                    assertThat(ids(q.orderBy("r", Direction.DESC).limit(3).get())).as("desc %s", bound)
                            .hasSize(Math.min(3, expected.size())).isSubsetOf(expected);
                    assertThat(ids(q.cursor(all.get(3).id()).get())).as("cursor %s", bound)
                            .isEqualTo(expected.stream().filter(id -> id.compareTo(all.get(3).id()) > 0).toList());
                }
            }
            assertThat(store.query().where("r").gte("").count()).isEqualTo(values.size());
            assertThat(store.query().where("r").gte("").explain().plan()).isEqualTo("index_scan");
        }
    }

    @Test
    void inAndEqWithListValuesFindTheRecordsThatHoldThem() {
        try (DocStore store = DocStore.open(root, "l")) {
            store.indexes().field("tags").field("r").range().sync();
            String a = store.put(Map.of("tags", List.of("x", "y"), "r", List.of(1L))).id();
            String b = store.put(Map.of("tags", "x", "r", 1L)).id();
            for (String field : List.of("tags", "r")) {
                Object list = field.equals("tags") ? List.of("x", "y") : List.of(1L);
                Object scalar = field.equals("tags") ? "x" : 1L;
                assertThat(ids(store.query().where(field).in(List.of(list, scalar)).get())).as(field).containsExactly(a, b);
                assertThat(ids(store.query().where(field).eq(list).get())).as(field).containsExactly(a);
                assertThat(store.query().where(field).in(List.of(list)).count()).as(field).isEqualTo(1);
            }
        }
    }

    @Test
    void aStoreWhoseRangeFilesLackTheListOfContainersStillAnswersAndGetsTheListOnce() throws Exception {
        String objectId;
        try (DocStore store = DocStore.open(root, "o")) {
            store.indexes().field("r").range().sync();
            objectId = store.put(Map.of("r", Map.of("a", 1L))).id();
            store.put(Map.of("r", 5L));
        }
        Path list = root.resolve("o/.storh/indexes/entries/range/" + IndexKeys.hex("r") + ".unindexed.jsonc");
        assertThat(Files.readString(list)).isEqualTo("{\"field\":\"r\",\"ids\":[\"" + objectId + "\"]}\n");
        Files.delete(list); // as after a rebuild by the original, which does not know this file
        try (DocStore store = DocStore.open(root, "o")) {
            assertThat(store.query().where("r").gt(7L).get()).extracting(StorageRecord::id).containsExactly(objectId);
            assertThat(Files.readString(list)).contains(objectId);
            assertThat(store.verify().errors()).isEmpty();
        }
    }
}
