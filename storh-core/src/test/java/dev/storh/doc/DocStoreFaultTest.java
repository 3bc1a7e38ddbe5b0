package dev.storh.doc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.storh.StorageException;
import dev.storh.StorageRecord;
import dev.storh.fs.FailingFiles;
import dev.storh.fs.FailingFiles.Point;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Writes of a DocStore driven through a failing byte seam at each commit point: the error is a
 * {@link StorageException} naming the path, the old state is intact (or, after the rename, the
 * new state is whole), no temp file is left, and the store works again once the seam heals.
 */
class DocStoreFaultTest {

    @TempDir
    Path root;

    private FailingFiles seam;

    private DocStore open() {
        return DocStore.open(root, "pages", DocStoreOptions.builder().files(dir -> seam = FailingFiles.at(dir)).build());
    }

    @ParameterizedTest
    @EnumSource(value = Point.class, names = {"TEMP_WRITE", "FSYNC", "RENAME"})
    void aFailedPutBeforeTheRenameLeavesTheOldRecord(Point point) throws IOException {
        try (DocStore store = open()) {
            StorageRecord v1 = store.put(Map.of("title", "v1"));
            Path file = store.pathForId(v1.id());
            byte[] before = Files.readAllBytes(file);
            seam.failAt(atCommitPoint(point), DocStoreFaultTest::recordWrite); // FSYNC: the journal's, which holds the put

            assertThatThrownBy(() -> store.put(Map.of("title", "v2"), v1.id()))
                    .isInstanceOf(StorageException.class)
                    .satisfies(e -> assertThat(e.getMessage()).containsAnyOf(file.getParent().toString(),
                            DocLayout.of(store.collectionRoot()).batchJournal().toString()));

            assertThat(seam.failures()).as(point.name()).isPositive();
            assertThat(Files.readAllBytes(file)).isEqualTo(before);
            assertThat(store.get(v1.id())).contains(v1);
            assertThat(tempFiles()).isEmpty();
            seam.heal();
            assertThat(store.put(Map.of("title", "v3"), v1.id()).data()).containsEntry("title", "v3");
        }
        try (DocStore reopened = open()) {
            assertThat(reopened.stream().map(r -> r.data().get("title")).toList()).containsExactly("v3");
        }
    }

    @ParameterizedTest
    @EnumSource(value = Point.class, names = {"TEMP_WRITE", "FSYNC", "RENAME"})
    void aFailedBatchLeavesEarlierRecordsAndNoTempFiles(Point point) {
        try (DocStore store = open()) {
            StorageRecord kept = store.put(Map.of("n", 0L));
            seam.failAt(atCommitPoint(point), DocStoreFaultTest::recordWrite);
            List<Map<String, Object>> rows = new ArrayList<>();
            for (long i = 1; i <= 20; i++) {
                rows.add(Map.of("n", i));
            }

            assertThatThrownBy(() -> store.putMany(rows))
                    .isInstanceOf(StorageException.class)
                    .satisfies(e -> assertThat(e.getMessage()).containsAnyOf(store.collectionRoot().resolve(DocLayout.DATA)
                            .toString(), DocLayout.of(store.collectionRoot()).batchJournal().toString()));

            assertThat(tempFiles()).isEmpty();
            seam.heal();
            assertThat(store.get(kept.id())).contains(kept);
            assertThat(store.putMany(rows)).hasSize(20);
        }
    }

    /**
     * A put or delete through the batch journal fsyncs no record folder: a failing folder fsync
     * shows when the journal is retired (here on close), which then keeps the journal and the
     * writer marker, so the acknowledged writes stay durable in the journal.
     */
    @Test
    void aFailedFolderFsyncFailsTheRetireNotThePutOrDeleteAndTheJournalStays() throws IOException {
        StorageRecord v1;
        StorageRecord gone;
        Path journal;
        try (DocStore store = open()) {
            v1 = store.put(Map.of("title", "v1"));
            gone = store.put(Map.of("title", "gone"));
            journal = DocLayout.of(store.collectionRoot()).batchJournal();
            seam.failAt(Point.DIRECTORY_FSYNC, name -> name.startsWith(DocLayout.DATA + "/"));

            assertThat(store.put(Map.of("title", "v2"), v1.id()).data()).containsEntry("title", "v2");
            assertThat(store.delete(gone.id())).isTrue();
            assertThat(seam.failures()).as("nothing fsynced a record folder yet").isZero();
        }
        assertThat(seam.failures()).as("the close's retire tried").isPositive();
        assertThat(Files.size(journal)).as("the journal stays").isPositive();
        seam.heal();
        assertThat(tempFiles()).isEmpty();
        try (DocStore reopened = open()) {
            assertThat(reopened.get(v1.id()).orElseThrow().data()).containsEntry("title", "v2");
            assertThat(reopened.get(gone.id())).isEmpty();
            reopened.put(Map.of("title", "next")); // retires the journal the failed close left, then appends
        }
        assertThat(Files.size(journal)).as("retired once the disk works").isZero();
    }

    @Test
    void aFailedDeleteKeepsTheRecord() {
        try (DocStore store = open()) {
            StorageRecord v1 = store.put(Map.of("title", "v1"));
            seam.failAt(Point.DELETE, name -> name.endsWith(v1.id() + DocLayout.RECORD_EXTENSION));

            assertThatThrownBy(() -> store.delete(v1.id()))
                    .isInstanceOf(StorageException.class)
                    .hasMessageContaining(v1.id())
                    .hasMessageContaining(store.pathForId(v1.id()).toString());

            seam.heal();
            assertThat(store.get(v1.id())).contains(v1);
            assertThat(store.delete(v1.id())).isTrue();
        }
    }

    @ParameterizedTest
    @EnumSource(value = Point.class, names = {"TEMP_WRITE", "FSYNC", "RENAME"})
    void aFailedIndexManifestSwapKeepsTheOldManifest(Point point) throws IOException {
        Path manifest;
        byte[] before;
        try (DocStore store = open()) {
            store.put(Map.of("a", 1L, "b", 2L));
            store.indexes().defineField("a", false, false).sync();
            manifest = DocLayout.of(store.collectionRoot()).indexManifest();
            before = Files.readAllBytes(manifest);
            seam.failAt(point, name -> name.startsWith(DocLayout.META + "/indexes/.manifest.jsonc.")
                    || name.endsWith("/manifest.jsonc"));

            assertThatThrownBy(() -> store.indexes().defineField("b", false, false).sync())
                    .isInstanceOf(StorageException.class)
                    .hasMessageContaining(manifest.getParent().toString());

            assertThat(Files.readAllBytes(manifest)).isEqualTo(before);
            assertThat(tempFiles()).isEmpty();
        }
        try (DocStore reopened = open()) {
            assertThat(reopened.indexes().definitions()).extracting(d -> d.field()).containsExactly("a");
        }
    }

    @ParameterizedTest
    @EnumSource(value = Point.class, names = {"TEMP_WRITE", "FSYNC", "RENAME"})
    void aFailedPutOrBatchLeavesEveryByteOfTheCollection(Point point) throws IOException {
        try (DocStore store = open()) {
            StorageRecord v1 = store.put(Map.of("title", "v1"));
            store.putMany(List.of(Map.of("title", "a"), Map.of("title", "b")));
            Map<String, String> before = snapshot();
            seam.failAt(atCommitPoint(point), DocStoreFaultTest::recordWrite);

            assertThatThrownBy(() -> store.put(Map.of("title", "v2"), v1.id()))
                    .isInstanceOf(StorageException.class)
                    .satisfies(e -> assertThat(e.getMessage()).containsAnyOf(store.pathForId(v1.id()).getParent().toString(),
                            DocLayout.of(store.collectionRoot()).batchJournal().toString()));
            assertThatThrownBy(() -> store.putMany(List.of(Map.of("title", "c"), Map.of("title", "d"))))
                    .isInstanceOf(StorageException.class)
                    .satisfies(e -> assertThat(e.getMessage()).containsAnyOf(store.collectionRoot().resolve(DocLayout.DATA)
                            .toString(), DocLayout.of(store.collectionRoot()).batchJournal().toString()));

            assertThat(snapshot()).as(point.name()).isEqualTo(before);
            seam.heal();
            assertThat(store.put(Map.of("title", "v3"), v1.id()).data()).containsEntry("title", "v3");
            assertThat(store.count()).isEqualTo(3);
        }
    }

    @Test
    void aFailedJournalSyncOfADeleteKeepsTheRecord() {
        try (DocStore store = open()) {
            StorageRecord v1 = store.put(Map.of("title", "v1"));
            seam.failAt(Point.APPEND_FSYNC, name -> name.equals(DocLayout.META + "/batch-journal"));

            assertThatThrownBy(() -> store.delete(v1.id()))
                    .isInstanceOf(StorageException.class)
                    .hasMessageContaining(v1.id())
                    .hasMessageContaining(store.pathForId(v1.id()).toString());

            seam.heal();
            assertThat(store.get(v1.id())).contains(v1);
            assertThat(store.delete(v1.id())).isTrue();
            assertThat(store.get(v1.id())).isEmpty();
            assertThat(store.delete(v1.id())).isFalse();
            assertThat(store.put(Map.of("title", "again"), v1.id()).data()).containsEntry("title", "again");
        }
    }

    @ParameterizedTest
    @EnumSource(value = Point.class, names = {"TEMP_WRITE", "FSYNC", "RENAME", "DIRECTORY_FSYNC"})
    void aFailedReindexLeavesTheOldIndexesByteForByte(Point point) throws IOException {
        try (DocStore store = open()) {
            store.indexes().field("kind").field("size").range().field("slug").unique().sync();
            for (long i = 0; i < 12; i++) {
                store.put(Map.of("kind", "k" + (i % 3), "size", i, "slug", "s" + i));
            }
            Map<String, String> before = snapshot();
            seam.failAt(point, name -> name.startsWith(DocLayout.META + "/indexes/"));

            assertThatThrownBy(store::reindex)
                    .isInstanceOf(StorageException.class)
                    .hasMessageContaining(DocLayout.of(store.collectionRoot()).indexesDir().toString());

            assertThat(snapshot()).as(point.name()).isEqualTo(before);
            seam.heal();
            assertThat(store.reindex().entries()).isEqualTo(12);
            assertThat(store.verify().ok()).isTrue();
            assertThat(store.query().where("kind").eq("k1").count()).isEqualTo(4);
        }
    }

    @ParameterizedTest
    @EnumSource(value = Point.class, names = {"TEMP_WRITE", "FSYNC", "RENAME", "DIRECTORY_FSYNC"})
    void aFailedRepairPutsTheQuarantinedFileBack(Point point) throws IOException {
        try (DocStore store = open()) {
            store.indexes().field("kind").sync();
            List<StorageRecord> rows = store.putMany(List.of(Map.of("kind", "a"), Map.of("kind", "b"), Map.of("kind", "a")));
            Path broken = store.pathForId(rows.get(1).id());
            Files.write(broken, "{\"id\":".getBytes(java.nio.charset.StandardCharsets.UTF_8));
            Map<String, String> before = snapshot();
            // The quarantine move is the first commit point of a repair, the index rebuild the next.
            seam.failAt(point, name -> name.startsWith(DocLayout.META + "/"));

            String meta = DocLayout.of(store.collectionRoot()).metaDir().toString();
            assertThatThrownBy(store::repair)
                    .isInstanceOf(StorageException.class)
                    .satisfies(e -> assertThat(e.getMessage()).containsAnyOf(broken.toString(), meta));

            assertThat(snapshot()).as(point.name()).isEqualTo(before);
            seam.heal();
            assertThat(store.repair().details().quarantined()).isEqualTo(1);
            assertThat(store.verify().ok()).isTrue();
            assertThat(store.query().where("kind").eq("a").count()).isEqualTo(2);
        }
    }

    /**
     * @return every regular file under the root, relative name to hex bytes; writer markers and
     *     the lock file are left out (an open instance's own, never part of the data)
     */
    private Map<String, String> snapshot() throws IOException {
        return snapshot(root);
    }

    /**
     * @param root a test's root folder
     * @return every regular file under it, relative name to hex bytes; writer markers and the lock
     *     files are left out
     */
    static Map<String, String> snapshot(Path root) throws IOException {
        Map<String, String> files = new java.util.TreeMap<>();
        try (Stream<Path> all = Files.walk(root)) {
            for (Path p : (Iterable<Path>) all.filter(Files::isRegularFile)::iterator) {
                String name = root.relativize(p).toString();
                if (name.endsWith("/" + DocLayout.META + "/batch-journal")) {
                    files.put(name, unapplied(p.getParent().getParent()));
                } else if (!name.contains("/" + DocLayout.META + "/writers/") && !name.endsWith("write.lock")) {
                    files.put(name, java.util.HexFormat.of().formatHex(Files.readAllBytes(p)));
                }
            }
        }
        return files;
    }

    /**
     * @return what the collection's batch journal holds that its record files do not (a retired
     *     journal and one whose records are all in their files hold nothing more): ids and bytes
     */
    private static String unapplied(Path collection) throws IOException {
        DocLayout layout = DocLayout.of(collection);
        StringBuilder out = new StringBuilder("unapplied journal entries:");
        for (BatchJournal.Entry e : new BatchJournal(dev.storh.fs.LocalFiles.at(collection), layout, null).read()) {
            Path file = layout.recordFile(e.id());
            if (!Files.exists(file) || !java.util.Arrays.equals(Files.readAllBytes(file), e.bytes())) {
                out.append(' ').append(e.id()).append('=').append(java.util.HexFormat.of().formatHex(e.bytes()));
            }
        }
        return out.toString();
    }

    /**
     * @param point a commit point of a record write
     * @return the points where a putMany meets it: an fsync of a record file is now the batch
     *     journal's fsync (the records are durable there before their files are written)
     */
    static java.util.Set<Point> atCommitPoint(Point point) {
        return point == Point.FSYNC ? java.util.Set.of(Point.FSYNC, Point.APPEND_FSYNC) : java.util.Set.of(point);
    }

    /** @return whether the name is a record file (or its temp) or the batch journal that holds records first */
    static boolean recordWrite(String name) {
        return name.startsWith(DocLayout.DATA + "/") || name.equals(DocLayout.META + "/batch-journal");
    }

    private List<Path> tempFiles() {
        try (Stream<Path> all = Files.walk(root)) {
            return all.filter(p -> p.getFileName().toString().endsWith(DocLayout.TEMP_SUFFIX)).toList();
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
