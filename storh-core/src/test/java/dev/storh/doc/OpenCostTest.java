package dev.storh.doc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.storh.StorageRecord;
import dev.storh.doc.index.IndexDefinition;
import dev.storh.fs.LocalFiles;
import dev.storh.fs.StoreFiles;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What an open and a write look at: a store reopened in the process that synced its indexes takes
 * the manifest it wrote without reading its bytes (and still reads one another program changed),
 * and a journaled write looks at the batch journal once.
 */
class OpenCostTest {

    @TempDir
    Path root;

    /** {@link DeleteCostTest.NotingFiles}, also noting whole-file reads of names that may be absent. */
    static final class Noting extends DeleteCostTest.NotingFiles {
        Noting(StoreFiles files) {
            super(files);
        }

        @Override
        public byte[] readIfExists(String name) throws IOException {
            touched.add("read " + name);
            return super.readIfExists(name);
        }

        @Override
        public List<String> list(String dir) throws IOException {
            touched.add("list " + dir);
            return super.list(dir);
        }
    }

    private static final String MANIFEST = DocLayout.META + "/indexes/manifest.jsonc";

    private static List<String> readsOfManifest(List<String> touched) {
        return touched.stream().filter(t -> (t.startsWith("read ") || t.startsWith("open ")) && t.endsWith(MANIFEST))
                .toList();
    }

    @Test
    void aReopenAfterThisProcessSyncedTheIndexesReadsNoManifestBytesAndAnswersFromTheIndexes() throws IOException {
        Noting[] seam = new Noting[1];
        DocStoreOptions options = DocStoreOptions.builder().files(dir -> seam[0] = new Noting(LocalFiles.at(dir))).build();
        String page;
        try (DocStore store = DocStore.open(root, "docs", options)) {
            page = store.put(Map.of("kind", "page", "n", 3L)).id();
            store.put(Map.of("kind", "post", "n", 4L));
            store.indexes().field("kind").index().field("n").range().sync();
        }
        try (DocStore again = DocStore.open(root, "docs", options)) {
            assertThat(readsOfManifest(seam[0].touched)).as("the manifest it wrote is known: " + seam[0].touched).isEmpty();
            assertThat(again.indexes().definitions()).containsExactly(
                    new IndexDefinition("kind", false, false), new IndexDefinition("n", false, true));
            assertThat(again.query().where("kind").eq("page").explain().plan())
                    .isEqualTo(dev.storh.query.QueryPlan.INDEX_SCAN);
            assertThat(again.query().where("kind").eq("page").get()).extracting(StorageRecord::id).containsExactly(page);
            assertThat(again.query().where("n").between(3L, 3L).count()).isEqualTo(1);
        }
    }

    @Test
    void aReopenOfACleanlyClosedCollectionLooksAtTheWritersAndTheIndexFolderOnlyAndServesAfter() throws IOException {
        Noting[] seam = new Noting[1];
        DocStoreOptions options = DocStoreOptions.builder().files(dir -> seam[0] = new Noting(LocalFiles.at(dir))).build();
        String page;
        try (DocStore store = DocStore.open(root, "docs", options)) {
            page = store.put(Map.of("kind", "page", "n", 3L)).id();
            store.put(Map.of("kind", "post", "n", 4L));
            store.indexes().field("kind").index().field("n").range().sync();
            assertThat(store.count()).isEqualTo(2);
        }
        String writers = DocLayout.META + "/writers";
        try (DocStore again = DocStore.open(root, "docs", options)) {
            assertThat(seam[0].touched).as("no index file, no listing of .storh, no journal").containsExactly(
                    "stat " + writers, "list " + writers, "list " + DocLayout.META + "/indexes");
            seam[0].touched.clear();
            assertThat(again.query().where("kind").eq("page").explain().plan()).isEqualTo(dev.storh.query.QueryPlan.INDEX_SCAN);
            assertThat(again.query().where("kind").eq("page").get()).extracting(StorageRecord::id).containsExactly(page);
            assertThat(again.query().where("n").between(4L, 9L).count()).isEqualTo(1);
            assertThat(again.count()).isEqualTo(2);
            assertThat(seam[0].touched).as("the indexes are looked at on first use").contains("stat " + MANIFEST);
        }
        try (DocStore unused = DocStore.open(root, "docs", options)) {
            seam[0].touched.clear();
        }
        assertThat(seam[0].touched).as("a store closed unused writes nothing").isEmpty();
    }

    @Test
    void anOpenLooksAtTheWritersFolderOnceAndStillFindsACrashedWriter() throws IOException {
        try (DocStore store = DocStore.open(root, "docs")) {
            store.put(Map.of("kind", "page"));
        }
        Noting[] seam = new Noting[1];
        DocStoreOptions options = DocStoreOptions.builder().files(dir -> seam[0] = new Noting(LocalFiles.at(dir))).build();
        String writers = DocLayout.META + "/writers";
        try (DocStore again = DocStore.open(root, "docs", options)) {
            assertThat(seam[0].touched.stream().filter(t -> t.equals("stat " + writers)).count())
                    .as("one look: " + seam[0].touched).isEqualTo(1);
            assertThat(again.recovery().crashedWriter()).isFalse();
        }
        Files.createFile(root.resolve("docs").resolve(writers).resolve("2147483646.deadbeef")); // a dead pid's marker
        try (DocStore crashed = DocStore.open(root, "docs")) {
            assertThat(crashed.recovery().crashedWriter()).isTrue();
            assertThat(crashed.count()).isEqualTo(1);
        }
        Files.delete(root.resolve("docs").resolve(writers));
        try (DocStore first = DocStore.open(root, "docs")) {
            assertThat(Files.isDirectory(root.resolve("docs").resolve(writers))).as("made again").isTrue();
            assertThat(first.count()).isEqualTo(1);
        }
    }

    @Test
    void aManifestAnotherProgramRewroteAfterTheSyncIsReadAgain() throws Exception {
        Noting[] seam = new Noting[1];
        DocStoreOptions options = DocStoreOptions.builder().files(dir -> seam[0] = new Noting(LocalFiles.at(dir))).build();
        try (DocStore store = DocStore.open(root, "docs", options)) {
            store.put(Map.of("kind", "page", "slug", "a"));
            store.indexes().field("kind").index().sync();
        }
        Path manifest = root.resolve("docs").resolve(MANIFEST);
        String text = Files.readString(manifest);
        Thread.sleep(20); // a later clock tick
        Files.writeString(manifest, text.replace("\"kind\"", "\"slug\"")); // same size, in place
        try (DocStore again = DocStore.open(root, "docs", options)) {
            assertThat(again.indexes().definitions()).extracting(IndexDefinition::field).containsExactly("slug");
            assertThat(readsOfManifest(seam[0].touched)).isNotEmpty();
        }
    }

    @Test
    void aJournaledDeleteAndPutLookAtTheJournalOnceAndItsBytesStayWhole() throws IOException {
        Noting[] seam = new Noting[1];
        DocStoreOptions options = DocStoreOptions.builder().files(dir -> seam[0] = new Noting(LocalFiles.at(dir))).build();
        String journal = DocLayout.META + "/batch-journal";
        Path journalFile;
        String kept;
        try (DocStore store = DocStore.open(root, "docs", options)) {
            journalFile = DocLayout.of(store.collectionRoot()).batchJournal();
            kept = store.put(Map.of("kind", "a")).id();
            StorageRecord gone = store.put(Map.of("kind", "b"));
            seam[0].touched.clear();
            long before = Files.size(journalFile);
            assertThat(store.delete(gone.id())).isTrue();
            assertThat(seam[0].touched.stream().filter(t -> t.equals("stat " + journal)).count())
                    .as("one look before the append: " + seam[0].touched).isEqualTo(1);
            long afterDelete = Files.size(journalFile);
            assertThat(afterDelete).isGreaterThan(before);
            seam[0].touched.clear();
            StorageRecord c = store.put(Map.of("kind", "c"));
            assertThat(seam[0].touched.stream().filter(t -> t.equals("stat " + journal)).count())
                    .as("one look before the append: " + seam[0].touched).isEqualTo(1);
            seam[0].touched.clear();
            // the size kept for the next write is the file's: the next write takes the journal as its own
            assertThat(store.delete(c.id())).isTrue();
            assertThat(store.get(c.id())).isEmpty();
            assertThat(JournalLines.committed(Files.readAllBytes(journalFile))).extracting(BatchJournal.Entry::id)
                    .containsExactly(kept, gone.id(), gone.id(), c.id(), c.id());
            assertThat(seam[0].touched).as("no retire of a journal taken for another's: " + seam[0].touched)
                    .noneMatch(t -> t.startsWith("read data/"));
        }
        try (DocStore reopened = DocStore.open(root, "docs")) {
            assertThat(reopened.count()).isEqualTo(1);
            assertThat(reopened.get(kept)).isPresent();
        }
    }
}
