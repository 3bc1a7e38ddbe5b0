package dev.storh.doc.index;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.storh.StorageRecord;
import dev.storh.UniqueConstraintException;
import dev.storh.doc.DocStore;
import dev.storh.query.FieldPath;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A putMany is checked against the state it leaves, not the one before it: a unique value that a
 * record of the batch gives up is free for another record of the same batch (two records swap their
 * values, or one hands its value to a new record), in either order, for top-level and path indexes;
 * a value that its holder keeps is still refused, and then nothing of the batch is written.
 */
class UniqueValuesMovedInABatchTest {

    private static final FieldPath CODE = FieldPath.of("meta", "code");

    @TempDir
    Path root;

    private DocStore open() {
        DocStore store = DocStore.open(root, "items");
        store.indexes().field("slug").unique().definePath(CODE, true, false).sync();
        return store;
    }

    private static Map<String, Object> item(String slug, String code) {
        Map<String, Object> data = new LinkedHashMap<>();
        data.put("slug", slug);
        data.put("meta", Map.of("code", code));
        return data;
    }

    private static Map<String, Object> row(String id, Map<String, Object> data) {
        return Map.of("id", id, "data", data);
    }

    /** @return slug → id and code → id as the records say, which the indexes must answer too */
    private static Map<String, String> holders(DocStore store) {
        Map<String, String> out = new TreeMap<>();
        for (StorageRecord r : store.query().get()) {
            out.put("slug " + r.data().get("slug"), r.id());
            out.put("code " + ((Map<?, ?>) r.data().get("meta")).get("code"), r.id());
        }
        return out;
    }

    private static void assertIndexesAnswer(DocStore store, Map<String, String> holders) {
        holders.forEach((key, id) -> {
            String value = key.substring(5);
            List<StorageRecord> found = key.startsWith("slug ") ? store.query().where("slug").eq(value).get()
                    : store.query().where(CODE).eq(value).get();
            assertThat(found).as(key).extracting(StorageRecord::id).containsExactly(id);
        });
        assertThat(store.verify().errors()).isEmpty();
    }

    @Test
    void twoRecordsSwapTheirUniqueValuesInOneBatch() {
        try (DocStore store = open()) {
            String a = store.put(item("a", "A1")).id();
            String b = store.put(item("b", "B1")).id();

            store.putMany(List.of(row(a, item("b", "B1")), row(b, item("a", "A1"))));

            assertThat(store.get(a).orElseThrow().data()).isEqualTo(item("b", "B1"));
            assertThat(store.get(b).orElseThrow().data()).isEqualTo(item("a", "A1"));
            Map<String, String> holders = holders(store);
            assertThat(holders).containsEntry("slug a", b).containsEntry("slug b", a)
                    .containsEntry("code A1", b).containsEntry("code B1", a);
            assertIndexesAnswer(store, holders);
        }
        try (DocStore reopened = DocStore.open(root, "items")) {
            assertIndexesAnswer(reopened, holders(reopened));
        }
    }

    @Test
    void aRecordHandsItsValueToANewRecordWhicheverComesFirstInTheBatch() {
        try (DocStore store = open()) {
            String a = store.put(item("a", "A1")).id();
            String b = store.put(item("b", "B1")).id();
            // the new record first, then the holder giving the values up
            List<StorageRecord> first = store.putMany(List.of(Map.of("data", item("a", "A1")), row(a, item("x", "X1"))));
            // the holder first, then the new record
            List<StorageRecord> second = store.putMany(List.of(row(b, item("y", "Y1")), Map.of("data", item("b", "B1"))));

            Map<String, String> holders = holders(store);
            assertThat(holders).containsEntry("slug a", first.get(0).id()).containsEntry("slug x", a)
                    .containsEntry("slug b", second.get(1).id()).containsEntry("slug y", b)
                    .containsEntry("code A1", first.get(0).id()).containsEntry("code B1", second.get(1).id());
            assertThat(store.count()).isEqualTo(4);
            assertIndexesAnswer(store, holders);
        }
    }

    @Test
    void aValueItsHolderKeepsIsStillRefusedAndTheBatchWritesNothing() {
        try (DocStore store = open()) {
            String a = store.put(item("a", "A1")).id();
            store.put(item("b", "B1"));
            Map<String, String> before = holders(store);

            List<Map<String, Object>> keepsSlug = new ArrayList<>();
            keepsSlug.add(Map.of("data", item("a", "N1")));
            keepsSlug.add(row(a, item("a", "Z1"))); // rewritten, but still holding slug a
            assertThatThrownBy(() -> store.putMany(keepsSlug)).isInstanceOf(UniqueConstraintException.class)
                    .hasMessageContaining("slug");

            List<Map<String, Object>> keepsCode = List.of(row(a, item("z", "A1")), Map.of("data", item("n", "A1")));
            assertThatThrownBy(() -> store.putMany(keepsCode)).isInstanceOf(UniqueConstraintException.class)
                    .hasMessageContaining("meta");

            List<Map<String, Object>> storedHolderUntouched = List.of(row(a, item("q", "Q1")), Map.of("data", item("b", "N2")));
            assertThatThrownBy(() -> store.putMany(storedHolderUntouched)).isInstanceOf(UniqueConstraintException.class)
                    .hasMessageContaining("slug");

            assertThat(holders(store)).isEqualTo(before);
            assertThat(store.count()).isEqualTo(2);
            assertIndexesAnswer(store, before);
        }
    }
}
