package dev.storh.doc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.storh.StorageException;
import dev.storh.StorageRecord;
import dev.storh.fs.FailingFiles;
import dev.storh.fs.FailingFiles.Point;
import dev.storh.fs.ForwardingFiles;
import dev.storh.fs.LocalFiles;
import dev.storh.fs.StoreFiles;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A delete looks at no more than it needs: without indexes it reads neither the record's bytes
 * nor the index manifests, and its folders' link checks look at each folder once (a put too:
 * data/ and its bucket once each). It stays
 * durable (in the batch journal before the unlink, done again after a power cut), a failed unlink
 * still leaves every byte as before, and indexes another instance defines meanwhile are kept up to
 * date by the next delete.
 */
class DeleteCostTest {

    /** A pid no process has (liveness says dead): a marker by that name is a crashed writer's. */
    private static final String DEAD_WRITER = "2147483646.deadbeef";

    @TempDir
    Path root;

    @TempDir
    Path copyRoot;

    /** The local seam, noting every name read, looked at or removed (nothing is faked). */
    static class NotingFiles extends ForwardingFiles {
        final List<String> touched = Collections.synchronizedList(new ArrayList<>());

        NotingFiles(StoreFiles files) {
            super(files);
        }

        @Override
        public InputStream open(String name) throws IOException {
            touched.add("open " + name);
            return super.open(name);
        }

        @Override
        public InputStream open(String name, long offset) throws IOException {
            touched.add("open " + name);
            return super.open(name, offset);
        }

        @Override
        public byte[] readAll(String name) throws IOException {
            touched.add("read " + name);
            return super.readAll(name);
        }

        @Override
        public byte[] readAll(String name, long sizeSeen) throws IOException {
            touched.add("read " + name);
            return super.readAll(name, sizeSeen);
        }

        @Override
        public Input openInput(String name) throws IOException {
            touched.add("open " + name);
            return super.openInput(name);
        }

        @Override
        public Optional<Entry> stat(String name) throws IOException {
            touched.add("stat " + name);
            return super.stat(name);
        }

        @Override
        public boolean exists(String name) throws IOException {
            touched.add("stat " + name);
            return super.exists(name);
        }

        @Override
        public Optional<String> version(String name) throws IOException {
            touched.add("stat " + name);
            return super.version(name);
        }

        @Override
        public Optional<String> versionInSeenFolder(String name) throws IOException {
            touched.add("stat " + name);
            return super.versionInSeenFolder(name);
        }

        @Override
        public void delete(String name) throws IOException {
            touched.add("delete " + name);
            super.delete(name);
        }
    }

    private static String nameOf(DocStore store, String id) {
        return store.collectionRoot().relativize(store.pathForId(id)).toString().replace('\\', '/');
    }

    @Test
    void aDeleteWithoutIndexesReadsNoRecordBytesNoManifestAndLooksAtEachFolderOnce() throws IOException {
        NotingFiles[] seam = new NotingFiles[1];
        DocStoreOptions options = DocStoreOptions.builder()
                .files(dir -> seam[0] = new NotingFiles(LocalFiles.at(dir))).build();
        try (DocStore store = DocStore.open(root, "docs", options)) {
            StorageRecord kept = store.put(Map.of("kind", "a"));
            StorageRecord gone = store.put(Map.of("kind", "b"));
            StorageRecord first = store.put(Map.of("kind", "c"));
            assertThat(store.delete(first.id())).isTrue(); // the instance's first write registers its marker
            seam[0].touched.clear();
            assertThat(store.delete(gone.id())).isTrue();
            List<String> touched = List.copyOf(seam[0].touched);
            String file = nameOf(store, gone.id());
            assertThat(touched).as("the unlink").contains("delete " + file);
            assertThat(touched).as("the record's bytes are not read for an undo that cannot need them")
                    .doesNotContain("open " + file, "read " + file);
            assertThat(touched).as("no index is defined: the manifests are not looked at")
                    .noneMatch(t -> t.contains("manifest.jsonc") || t.contains(DocLayout.PATH_INDEX_MANIFEST));
            assertThat(touched.stream().filter(t -> !t.contains("batch-journal")).toList())
                    .as("each folder checked for links once: " + touched).doesNotHaveDuplicates();
            assertThat(store.get(gone.id())).isEmpty();
            assertThat(store.get(kept.id())).isPresent();
        }
        try (DocStore reopened = DocStore.open(root, "docs")) {
            assertThat(reopened.count()).isEqualTo(1);
        }
    }

    @Test
    void aPutIntoABucketLooksAtDataAndAtTheBucketOnceEach() throws IOException {
        NotingFiles[] seam = new NotingFiles[1];
        DocStoreOptions options = DocStoreOptions.builder()
                .files(dir -> seam[0] = new NotingFiles(LocalFiles.at(dir))).build();
        try (DocStore store = DocStore.open(root, "docs", options)) {
            StorageRecord r = store.put(Map.of("kind", "a"));
            seam[0].touched.clear();
            assertThat(store.put(Map.of("kind", "b"), r.id()).data()).containsEntry("kind", "b");
            List<String> touched = List.copyOf(seam[0].touched);
            String bucket = nameOf(store, r.id()).substring(0, nameOf(store, r.id()).lastIndexOf('/'));
            assertThat(touched.stream().filter(t -> t.equals("stat " + DocLayout.DATA)).count())
                    .as("data/ looked at once: " + touched).isEqualTo(1);
            assertThat(touched.stream().filter(t -> t.equals("stat " + bucket)).count())
                    .as("the bucket looked at once: " + touched).isEqualTo(1);
            assertThat(store.get(r.id()).orElseThrow().data()).containsEntry("kind", "b");
        }
        try (DocStore reopened = DocStore.open(root, "docs")) {
            assertThat(reopened.count()).isEqualTo(1);
            assertThat(reopened.query().where("kind").eq("b").count()).isEqualTo(1);
        }
    }

    @Test
    void aFailedUnlinkLeavesTheRecordItsIndexEntryAndTheJournalAsBefore() throws IOException {
        FailingFiles[] seam = new FailingFiles[1];
        DocStoreOptions options = DocStoreOptions.builder().files(dir -> seam[0] = FailingFiles.at(dir)).build();
        try (DocStore store = DocStore.open(root, "docs", options)) {
            store.indexes().field("kind").sync();
            StorageRecord r = store.put(Map.of("kind", "a"));
            Path journal = DocLayout.of(store.collectionRoot()).batchJournal();
            byte[] journalBefore = Files.readAllBytes(journal);
            String file = nameOf(store, r.id());
            seam[0].failAt(Point.DELETE, file::equals);
            assertThatThrownBy(() -> store.delete(r.id())).isInstanceOf(StorageException.class)
                    .hasMessageContaining(r.id());
            assertThat(seam[0].failures()).isPositive();
            assertThat(Files.readAllBytes(journal)).as("the journal's delete is cut back").isEqualTo(journalBefore);
            assertThat(store.get(r.id())).contains(r);
            assertThat(store.query().where("kind").eq("a").count()).as("the index entry is put back").isEqualTo(1);
            seam[0].heal();
            assertThat(store.delete(r.id())).isTrue();
            assertThat(store.query().where("kind").eq("a").count()).isZero();
            assertThat(store.verify().errors()).isEmpty();
        }
    }

    @Test
    void aDeleteIsInTheJournalBeforeItReturnsAndALostUnlinkIsDoneAgainAfterAPowerCut() throws IOException {
        String gone;
        byte[] goneBytes;
        Path copy;
        try (DocStore store = DocStore.open(root, "docs")) {
            StorageRecord a = store.put(Map.of("kind", "a"));
            store.put(Map.of("kind", "b"));
            gone = a.id();
            goneBytes = Files.readAllBytes(store.pathForId(gone));
            assertThat(store.delete(gone)).isTrue();
            assertThat(Files.readString(DocLayout.of(store.collectionRoot()).batchJournal()))
                    .as("durable in the journal on return").contains("\"delete\":\"" + gone + "\"");
            copy = crashCopy(store);
        }
        Files.write(DocLayout.of(copy).recordFile(gone), goneBytes); // the unlink never reached the disk
        try (DocStore reopened = DocStore.open(copyRoot, "docs")) {
            assertThat(reopened.get(gone)).isEmpty();
            assertThat(reopened.count()).isEqualTo(1);
            assertThat(Files.exists(DocLayout.of(copy).recordFile(gone))).isFalse();
        }
    }

    @Test
    void indexesAnotherInstanceDefinesAfterADeleteAreKeptByTheNextDelete() throws IOException {
        try (DocStore first = DocStore.open(root, "docs")) {
            List<StorageRecord> rs = new ArrayList<>();
            for (int i = 0; i < 4; i++) {
                rs.add(first.put(Map.of("kind", "a")));
            }
            assertThat(first.delete(rs.get(0).id())).as("no .storh/indexes/ yet").isTrue();
            try (DocStore second = DocStore.open(root, "docs")) {
                second.indexes().field("kind").sync();
                assertThat(second.query().where("kind").eq("a").count()).isEqualTo(3);
            }
            assertThat(first.delete(rs.get(1).id())).isTrue();
            assertThat(first.query().where("kind").eq("a").count()).as("the index answers as a scan").isEqualTo(2);
        }
        try (DocStore reopened = DocStore.open(root, "docs")) {
            assertThat(reopened.query().where("kind").eq("a").count()).isEqualTo(2);
            assertThat(reopened.verify().errors()).isEmpty();
        }
    }

    @Test
    void aBucketFolderThatIsALinkIsRefusedByADelete() throws IOException {
        Path outside = Files.createDirectories(root.resolve("outside"));
        try (DocStore store = DocStore.open(root, "docs")) {
            StorageRecord r = store.put(Map.of("kind", "a"));
            Path bucket = store.pathForId(r.id()).getParent();
            store.close();
            Files.move(bucket, outside.resolve("moved"));
            Files.createSymbolicLink(bucket, outside.resolve("moved"));
            try (DocStore again = DocStore.open(root, "docs")) {
                assertThatThrownBy(() -> again.delete(r.id())).isInstanceOf(StorageException.class)
                        .hasMessageContaining("symbolic link").hasMessageContaining(bucket.toString());
            }
            assertThat(outside.resolve("moved").resolve(r.id() + ".jsonc")).exists();
        }
    }

    /** Copies the collection as a power cut would leave it with this writer gone: its marker stale. */
    private Path crashCopy(DocStore store) throws IOException {
        return CrashCopies.withWriterGone(store, copyRoot.resolve("docs"), DEAD_WRITER);
    }
}
