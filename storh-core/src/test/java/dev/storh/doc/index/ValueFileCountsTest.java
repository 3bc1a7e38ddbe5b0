package dev.storh.doc.index;

import static org.assertj.core.api.Assertions.assertThat;

import dev.storh.doc.DocStore;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The count of an equality value file or a compound bucket: read from the value file's head alone
 * while no delta file is beside it, and with the delta's last count once another instance has
 * appended one; either way it equals a scan, on the instance that wrote and on one that did not. A
 * value (or pair) no record holds has no file and answers nothing, until another instance writes one.
 */
class ValueFileCountsTest {

    @TempDir
    Path root;

    private static DocStore open(Path root) {
        DocStore store = DocStore.open(root, "c");
        store.indexes().valueDeltas(true).field("kind").field("bucket").sync();
        return store;
    }

    private static long scanCount(DocStore store, String kind, Long bucket) {
        try (Stream<dev.storh.StorageRecord> all = store.stream()) {
            return all.filter(r -> kind.equals(r.data().get("kind")) && (bucket == null || bucket.equals(r.data().get("bucket"))))
                    .count();
        }
    }

    private long deltas() throws IOException {
        Path entries = root.resolve("c/.storh/indexes/entries");
        try (Stream<Path> files = Files.walk(entries)) {
            return files.filter(p -> p.getFileName().toString().endsWith(".delta.jsonl")).count();
        }
    }

    @Test
    void aCountWithoutADeltaSeesTheDeltaAnotherInstanceAppendsAndTheFoldThatRemovesIt() throws IOException {
        try (DocStore reader = open(root); DocStore writer = open(root)) {
            for (int i = 0; i < 6; i++) {
                writer.put(Map.of("kind", "page", "bucket", (long) (i % 2)), null);
            }
            writer.reindex(); // the original's files: value files, no delta
            assertThat(deltas()).isZero();
            assertThat(reader.query().where("kind").eq("page").count()).isEqualTo(6);
            assertThat(reader.query().where("kind").eq("page").where("bucket").eq(1L).count()).isEqualTo(3);

            writer.put(Map.of("kind", "page", "bucket", 1L), null);
            assertThat(deltas()).isPositive(); // the value files stay; their deltas now hold the change
            assertThat(reader.query().where("kind").eq("page").count()).isEqualTo(7).isEqualTo(scanCount(reader, "page", null));
            assertThat(reader.query().where("kind").eq("page").where("bucket").eq(1L).count())
                    .isEqualTo(4).isEqualTo(scanCount(reader, "page", 1L));

            writer.reindex(); // folds: the value files hold every id again, no delta
            writer.put(Map.of("kind", "post", "bucket", 1L), null);
            assertThat(reader.query().where("kind").eq("page").count()).isEqualTo(7);
            assertThat(reader.query().where("kind").eq("post").count()).isEqualTo(1);
            assertThat(writer.query().where("kind").eq("page").where("bucket").eq(1L).count()).isEqualTo(4);
        }
    }

    @Test
    void aCompoundBucketNoRecordHoldsAnswersNothingUntilAnotherInstanceWritesOne() {
        try (DocStore reader = DocStore.open(root, "m"); DocStore writer = DocStore.open(root, "m")) {
            writer.indexes().field("kind").field("bucket").sync();
            writer.put(Map.of("kind", "page", "bucket", 1L), null);
            assertThat(reader.query().where("kind").eq("post").where("bucket").eq(1L).get()).isEmpty();
            assertThat(reader.query().where("kind").eq("page").where("bucket").eq(1L).get()).hasSize(1);
            writer.put(Map.of("kind", "post", "bucket", 1L), null);
            assertThat(reader.query().where("kind").eq("post").where("bucket").eq(1L).get()).hasSize(1);
            assertThat(reader.query().where("kind").eq("post").get()).hasSize(1);
            assertThat(reader.query().where("kind").eq("none").get()).isEmpty();
        }
    }

    @Test
    void withTheOriginalsLayoutACountSeesAValueFileAnotherInstanceReplaced() {
        try (DocStore reader = DocStore.open(root, "o"); DocStore writer = DocStore.open(root, "o")) {
            writer.indexes().field("kind").field("bucket").sync();
            writer.put(Map.of("kind", "page", "bucket", 1L), null);
            assertThat(reader.query().where("kind").eq("page").count()).isEqualTo(1);
            assertThat(reader.query().where("kind").eq("page").where("bucket").eq(1L).count()).isEqualTo(1);
            writer.put(Map.of("kind", "page", "bucket", 1L), null);
            assertThat(reader.query().where("kind").eq("page").count()).isEqualTo(2);
            assertThat(reader.query().where("kind").eq("page").where("bucket").eq(1L).count()).isEqualTo(2);
            assertThat(reader.query().where("kind").eq("post").count()).isZero();
        }
    }
}
