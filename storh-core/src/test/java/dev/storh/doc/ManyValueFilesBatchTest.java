package dev.storh.doc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.storh.StorageException;
import dev.storh.StorageRecord;
import dev.storh.fs.FailingFiles;
import dev.storh.fs.FailingFiles.Point;
import dev.storh.doc.index.IndexManager;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A putMany whose batch changes many value files in both index layouts: every indexed answer
 * equals a scan afterwards, and a batch whose index writes fail part way (new value files refused
 * while appends and rewrites of other files went through) leaves every byte of the collection as
 * before, then works once the fault is gone. Real files behind a failing seam.
 */
class ManyValueFilesBatchTest {

    @org.junit.jupiter.api.io.TempDir
    Path root;

    private FailingFiles seam;

    private DocStore open() {
        return DocStore.open(root, "items", DocStoreOptions.builder().files(dir -> seam = FailingFiles.at(dir)).build());
    }

    /** Two rows per kind {@code k0..k39} (kinds the store holds) and per kind {@code n0..n39} (new ones). */
    private static List<Map<String, Object>> batch(int round) {
        List<Map<String, Object>> rows = new ArrayList<>();
        for (int i = 0; i < 160; i++) {
            String kind = (i % 2 == 0 ? "k" : "n") + (i / 2 % 40);
            rows.add(Map.of("data", Map.of("kind", kind, "shade", "s" + (i % 7), "round", (long) round)));
        }
        return rows;
    }

    private static void assertIndexesMatchAScan(DocStore store) {
        List<StorageRecord> all = store.query().get();
        for (String kind : new TreeSet<>(all.stream().map(r -> (String) r.data().get("kind")).toList())) {
            for (String shade : List.of("s0", "s3", "s6")) {
                List<String> scanned = all.stream().filter(r -> kind.equals(r.data().get("kind"))
                        && shade.equals(r.data().get("shade"))).map(StorageRecord::id).sorted().toList();
                List<String> indexed = store.query().where("kind").eq(kind).where("shade").eq(shade).get().stream()
                        .map(StorageRecord::id).sorted().toList();
                assertThat(indexed).as(kind + " " + shade).isEqualTo(scanned);
            }
            assertThat(store.query().where("kind").eq(kind).count()).as(kind)
                    .isEqualTo(all.stream().filter(r -> kind.equals(r.data().get("kind"))).count());
        }
        assertThat(store.verify().errors()).isEmpty();
    }

    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void aBatchChangingManyValueFilesMatchesAScanAndAFailedOneLeavesEveryByte(boolean valueDeltas) throws IOException {
        try (DocStore store = open()) {
            IndexManager indexes = store.indexes().valueDeltas(valueDeltas);
            indexes.field("kind").field("shade").sync();
            List<Map<String, Object>> first = new ArrayList<>();
            for (int i = 0; i < 80; i++) {
                first.add(Map.of("data", Map.of("kind", "k" + (i % 40), "shade", "s" + (i % 7), "round", 0L)));
            }
            store.putMany(first);
            assertIndexesMatchAScan(store);

            Map<String, String> before = DocStoreFaultTest.snapshot(root);
            // new value files are refused; appends to the deltas (or rewrites, in the original's
            // layout, which also go through temp files) of other values are under way side by side
            // (the value key of "n5" is "s-6e35": its temp file is ".s-6e35.jsonc.<hex>.tmp")
            seam.failAt(Point.TEMP_WRITE, name -> name.contains("entries/eq/")
                    && name.substring(name.lastIndexOf('/') + 1).startsWith(".s-6e"));
            assertThatThrownBy(() -> store.putMany(batch(1))).isInstanceOf(StorageException.class);
            seam.heal();
            assertThat(seam.failures()).isPositive();
            assertThat(DocStoreFaultTest.snapshot(root)).as("every byte as before").isEqualTo(before);
            assertThat(store.count()).isEqualTo(80);
            assertIndexesMatchAScan(store);

            store.putMany(batch(2));
            store.putMany(batch(3));
            assertThat(store.count()).isEqualTo(80 + 2 * 160);
            assertIndexesMatchAScan(store);
        }
        try (DocStore reopened = open()) {
            assertIndexesMatchAScan(reopened);
        }
    }
}
