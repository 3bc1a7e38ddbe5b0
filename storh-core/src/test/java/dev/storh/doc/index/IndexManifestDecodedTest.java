package dev.storh.doc.index;

import static org.assertj.core.api.Assertions.assertThat;

import dev.storh.StorageRecord;
import dev.storh.doc.DocStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A manifest decoded once per process for its version: a store opening again takes the decoded
 * definitions, and every change of the file (another writer's sync, a replacement by rename, a
 * rewrite in place) is read again, by stores opening after it and by one already open.
 */
class IndexManifestDecodedTest {

    @TempDir
    Path root;

    private static List<String> fields(DocStore store) {
        return store.indexes().definitions().stream().map(IndexDefinition::field).toList();
    }

    private Path manifest() {
        return root.resolve("c/.storh/indexes/manifest.jsonc");
    }

    @Test
    void aReopenedStoreTakesTheDefinitionsAndAnswersFromTheIndex() {
        String page;
        try (DocStore a = DocStore.open(root, "c")) {
            page = a.put(Map.of("kind", "page")).id();
            a.put(Map.of("kind", "post"));
            a.indexes().field("kind").index().sync();
        }
        for (int i = 0; i < 3; i++) {
            try (DocStore again = DocStore.open(root, "c")) {
                assertThat(fields(again)).containsExactly("kind");
                assertThat(again.query().where("kind").eq("page").explain().plan()).isEqualTo(dev.storh.query.QueryPlan.INDEX_SCAN);
                assertThat(again.query().where("kind").eq("page").get()).extracting(StorageRecord::id).containsExactly(page);
                assertThat(again.query().where("kind").eq("page").count()).isEqualTo(1);
            }
        }
    }

    @Test
    void anotherWritersSyncIsSeenByAStoreOpenBeforeAndByOneOpenedAfter() {
        try (DocStore a = DocStore.open(root, "c")) {
            a.put(Map.of("kind", "page", "bucket", 4L));
            a.indexes().field("kind").index().sync();
        }
        try (DocStore reader = DocStore.open(root, "c")) {
            assertThat(fields(reader)).containsExactly("kind");
            try (DocStore writer = DocStore.open(root, "c")) {
                writer.indexes().field("bucket").index().sync();
            }
            assertThat(fields(reader)).containsExactly("bucket", "kind");
            assertThat(reader.query().where("kind").eq("page").where("bucket").eq(4L).count()).isEqualTo(1);
        }
        try (DocStore after = DocStore.open(root, "c")) {
            assertThat(fields(after)).containsExactly("bucket", "kind");
        }
    }

    @Test
    void aManifestReplacedByRenameOrRewrittenInPlaceIsReadAgain() throws Exception {
        try (DocStore a = DocStore.open(root, "c")) {
            a.put(Map.of("kind", "page", "sort", "x"));
            a.indexes().field("kind").index().sync();
        }
        try (DocStore b = DocStore.open(root, "c")) {
            assertThat(fields(b)).containsExactly("kind");
        }
        String text = Files.readString(manifest());
        assertThat(text).contains("\"kind\"");
        Path replacement = root.resolve("manifest.tmp");
        Files.writeString(replacement, text.replace("\"kind\"", "\"sort\"")); // same length: only the inode and time differ
        Files.move(replacement, manifest(), StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        try (DocStore c = DocStore.open(root, "c")) {
            assertThat(fields(c)).containsExactly("sort");
        }
        Thread.sleep(20); // a later clock tick: the rewrite in place changes the modification time
        Files.writeString(manifest(), text.replace("\"kind\"", "\"slug\""));
        try (DocStore d = DocStore.open(root, "c")) {
            assertThat(fields(d)).containsExactly("slug");
        }
    }
}
