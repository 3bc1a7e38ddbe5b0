package dev.storh.doc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.storh.StorageException;
import dev.storh.StorageRecord;
import dev.storh.UniqueConstraintException;
import dev.storh.fs.FailingFiles;
import dev.storh.fs.FailingFiles.Point;
import dev.storh.id.UuidV7;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A write reported failed leaves nothing of itself: putMany is all or nothing (an I/O failure in
 * its second group of files undoes the first; every check runs before the first file is written),
 * a put whose index write fails is undone with its record, folders a failed write created go, and
 * when even the undo fails the next open rebuilds the indexes. Real files behind a failing seam.
 */
class DocStoreAtomicWritesTest {

    /** More than one group of record files ({@link BatchWriter#BATCH_SIZE}) per putMany. */
    private static final int ROWS = BatchWriter.BATCH_SIZE + 8;

    @TempDir
    Path root;

    private FailingFiles seam;

    private DocStore open() {
        return DocStore.open(root, "pages", DocStoreOptions.builder().files(dir -> seam = FailingFiles.at(dir)).build());
    }

    /** A store with three indexes and a few records, one of which the batches below overwrite. */
    private List<StorageRecord> settle(DocStore store) {
        store.indexes().field("kind").field("size").range().field("slug").unique().sync();
        List<StorageRecord> rows = new ArrayList<>();
        for (long i = 0; i < 6; i++) {
            rows.add(store.put(Map.of("kind", "k" + (i % 2), "size", i, "slug", "s" + i)));
        }
        return rows;
    }

    /**
     * @return an overwrite of the first record, then {@link #ROWS} new records (the first ten with a
     *     unique slug); the last one (in the second group of files) goes to a bucket folder that no
     *     record has yet
     */
    private List<Map<String, Object>> batch(List<StorageRecord> existing) throws IOException {
        String last = idInAFreeBucket();
        List<Map<String, Object>> rows = new ArrayList<>();
        rows.add(Map.of("id", existing.get(0).id(), "data", Map.of("kind", "over", "size", 100L, "slug", "over")));
        for (long i = 0; i < ROWS; i++) {
            String id = i == ROWS - 1 ? last : UuidV7.generate();
            while (i < ROWS - 1 && DocLayout.bucketOf(id).equals(DocLayout.bucketOf(last))) {
                id = UuidV7.generate();
            }
            // a few unique values: each is a file of its own, rewritten by the batch and by its undo
            Map<String, Object> data = i < 10 ? Map.of("kind", "b" + (i % 3), "size", 1000 + i, "slug", "b" + i)
                    : Map.of("kind", "b" + (i % 3), "size", 1000 + i);
            rows.add(Map.of("id", id, "data", data));
        }
        return rows;
    }

    @ParameterizedTest
    @EnumSource(value = Point.class, names = {"TEMP_WRITE", "FSYNC", "RENAME", "MKDIR"})
    void aPutManyFailingInItsSecondGroupOfFilesLeavesNoRecordOfTheBatch(Point point) throws IOException {
        try (DocStore store = open()) {
            List<StorageRecord> existing = settle(store);
            List<Map<String, Object>> rows = batch(existing);
            Map<String, String> before = snapshot();
            List<String> folders = folders();
            // Fail only once the first group is in place (its last record renamed): the second group's files.
            Path data = store.collectionRoot().resolve(DocLayout.DATA);
            Path lastOfFirstGroup = store.pathForId((String) rows.get(BatchWriter.BATCH_SIZE - 1).get("id"));
            seam.failAt(DocStoreFaultTest.atCommitPoint(point), name -> DocStoreFaultTest.recordWrite(name)
                    && Files.exists(lastOfFirstGroup));

            assertThatThrownBy(() -> store.putMany(rows)).as(point.name()).isInstanceOf(StorageException.class)
                    .satisfies(e -> assertThat(e.getMessage()).containsAnyOf(data.toString(),
                            DocLayout.of(store.collectionRoot()).batchJournal().toString()));
            seam.heal();

            assertThat(seam.failures()).as(point + ": failed after the first group was in place").isPositive();
            assertThat(snapshot()).as(point + ": every byte as before").isEqualTo(before);
            assertThat(folders()).as(point + ": no folder left by the batch").isEqualTo(folders);
            assertThat(tempFiles()).isEmpty();
            assertThat(store.count()).isEqualTo(6);
            assertThat(store.get(existing.get(0).id())).contains(existing.get(0));
            assertThat(store.verify().errors()).isEmpty();
            assertThat(store.putMany(rows)).hasSize(ROWS + 1);
            assertThat(store.count()).isEqualTo(6 + ROWS);
            assertThat(store.query().where("slug").eq("over").count()).isEqualTo(1);
            assertThat(store.verify().errors()).isEmpty();
        }
    }

    @Test
    void everyCheckOfAPutManyRunsBeforeItsFirstFileIsWritten() throws IOException {
        try (DocStore store = open()) {
            List<StorageRecord> existing = settle(store);
            Map<String, String> before = snapshot();
            List<String> folders = folders();

            List<Map<String, Object>> takenInStore = new ArrayList<>(batch(existing));
            takenInStore.add(Map.of("kind", "late", "size", 1L, "slug", "s3")); // s3 belongs to a stored record
            assertThatThrownBy(() -> store.putMany(takenInStore)).isInstanceOf(UniqueConstraintException.class)
                    .hasMessageContaining("slug");
            assertThat(snapshot()).as("a unique value taken in the store").isEqualTo(before);

            List<Map<String, Object>> takenInBatch = new ArrayList<>(batch(existing));
            takenInBatch.add(Map.of("kind", "late", "size", 1L, "slug", "b7")); // b7 is earlier in the batch
            assertThatThrownBy(() -> store.putMany(takenInBatch)).isInstanceOf(UniqueConstraintException.class)
                    .hasMessageContaining("slug");
            assertThat(snapshot()).as("a unique value twice in the batch").isEqualTo(before);

            List<Map<String, Object>> badId = new ArrayList<>(batch(existing));
            badId.add(Map.of("id", "not-a-uuid", "data", Map.of("kind", "x")));
            assertThatThrownBy(() -> store.putMany(badId)).isInstanceOf(StorageException.class)
                    .hasMessageContaining("UUIDv7");
            assertThat(snapshot()).as("an invalid id last").isEqualTo(before);
            assertThat(folders()).isEqualTo(folders);
            assertThat(store.count()).isEqualTo(6);
            assertThat(store.verify().errors()).isEmpty();
        }
    }

    @ParameterizedTest
    @EnumSource(value = Point.class, names = {"APPEND"})
    void aPutWhoseIndexWriteFailsIsUndoneWithItsRecord(Point point) throws IOException {
        try (DocStore store = open()) {
            List<StorageRecord> existing = settle(store);
            List<Map<String, Object>> rows = batch(existing);
            Map<String, String> before = snapshot();
            seam.failAt(point, name -> name.contains("/range/"));

            assertThatThrownBy(() -> store.put(Map.of("kind", "k1", "size", 77L, "slug", "new")))
                    .isInstanceOf(StorageException.class);
            assertThatThrownBy(() -> store.put(Map.of("kind", "k9", "size", 78L, "slug", "s0"), existing.get(0).id()))
                    .isInstanceOf(StorageException.class);
            assertThatThrownBy(() -> store.putMany(rows)).isInstanceOf(StorageException.class);
            seam.heal();

            assertThat(snapshot()).as(point + ": every byte as before").isEqualTo(before);
            assertThat(tempFiles()).isEmpty();
            assertThat(store.get(existing.get(0).id())).contains(existing.get(0));
            assertThat(store.query().where("slug").eq("new").count()).isZero();
            assertThat(store.query().where("kind").eq("k9").count()).isZero();
            assertThat(store.verify().errors()).isEmpty();
            assertThat(store.put(Map.of("kind", "k1", "size", 77L, "slug", "new")).data()).containsEntry("slug", "new");
            assertThat(store.verify().errors()).isEmpty();
        }
    }

    @Test
    void aFailedPutIntoANewBucketRemovesTheBucketFolder() throws IOException {
        try (DocStore store = open()) {
            store.put(Map.of("n", 1L));
            List<String> folders = folders();
            String id = idInAFreeBucket();
            seam.failAt(Point.RENAME, name -> name.startsWith(DocLayout.DATA + "/")); // a record file is not fsynced: the journal is

            assertThatThrownBy(() -> store.put(Map.of("n", 2L), id)).isInstanceOf(StorageException.class);
            seam.heal();

            assertThat(folders()).as("the new bucket went with the failed write").isEqualTo(folders);
            assertThat(store.put(Map.of("n", 2L), id).data()).containsEntry("n", 2L);
            assertThat(store.count()).isEqualTo(2);
        }
    }

    /**
     * Index files reach the disk lazily, so the fsync of a range delta is not on the put's path: the
     * put succeeds. The fsync runs when the store makes its lazy writes durable (idle, or on close);
     * when it fails on close, the collection is marked so that the next open rebuilds the indexes.
     */
    @Test
    void anIndexFsyncFailingAfterThePutMarksTheCollectionAndTheNextOpenRebuilds() throws IOException {
        String id;
        try (DocStore store = open()) {
            List<StorageRecord> existing = settle(store);
            seam.failAt(Point.APPEND_FSYNC, name -> name.contains("/range/"));
            id = store.put(Map.of("kind", "k1", "size", 77L, "slug", "new")).id();
            assertThat(store.query().where("size").eq(77L).get()).extracting(StorageRecord::id).containsExactly(id);
            assertThat(store.query().where("size").gte(0L).count()).isEqualTo(existing.size() + 1);
        }
        assertThat(seam.failures()).as("the deferred fsync was tried on close and failed").isPositive();
        try (Stream<Path> markers = Files.list(root.resolve("pages/.storh/writers"))) {
            assertThat(markers.map(m -> m.getFileName().toString()).toList())
                    .as("the drift mark: the index files may not be durable").containsExactly("0.index-drift");
        }
        seam.heal();
        try (DocStore reopened = open()) {
            assertThat(reopened.recovery().crashedWriter()).isTrue();
            assertThat(reopened.recovery().reindexed()).as("the drift mark made the open rebuild").isNotNull();
            assertThat(reopened.verify().errors()).isEmpty();
            assertThat(reopened.query().where("size").eq(77L).get()).extracting(StorageRecord::id).containsExactly(id);
        }
    }

    @Test
    void anIndexWriteFailingAfterTheRecordWhoseUndoFailsTooIsMendedByTheNextOpen() {
        String id;
        try (DocStore store = open()) {
            store.indexes().field("size").range().field("kind").sync();
            store.put(Map.of("size", 1L, "kind", "a"));
            // The range delta append fails, and so does the undo's removal of the new record file.
            seam.failAt(Set.of(Point.APPEND, Point.DELETE),
                    name -> name.contains("/range/") || name.startsWith(DocLayout.DATA + "/"));
            id = UuidV7.generate();
            String given = id;
            assertThatThrownBy(() -> store.put(Map.of("size", 2L, "kind", "b"), given))
                    .isInstanceOf(StorageException.class)
                    .satisfies(e -> assertThat(e.getSuppressed()).as("the undo's failure").isNotEmpty());
            seam.heal();
        }
        try (DocStore reopened = open()) {
            assertThat(reopened.recovery().reindexed()).as("the drift mark made the open rebuild").isNotNull();
            assertThat(reopened.verify().errors()).isEmpty();
            assertThat(reopened.query().where("size").gte(0L).count()).isEqualTo(reopened.count());
            assertThat(reopened.query().where("kind").eq("b").count()).isEqualTo(reopened.exists(id) ? 1 : 0);
        }
    }

    /** @return a fresh id whose bucket folder does not exist yet */
    private String idInAFreeBucket() throws IOException {
        Set<String> taken = new java.util.HashSet<>();
        Path data = root.resolve("pages").resolve(DocLayout.DATA);
        try (Stream<Path> buckets = Files.list(data)) {
            buckets.forEach(b -> taken.add(b.getFileName().toString()));
        }
        String id;
        do {
            id = UuidV7.generate();
        } while (taken.contains(DocLayout.bucketOf(id)));
        return id;
    }

    private Map<String, String> snapshot() throws IOException {
        return DocStoreFaultTest.snapshot(root);
    }

    private List<String> folders() throws IOException {
        try (Stream<Path> all = Files.walk(root)) {
            return all.filter(Files::isDirectory).map(p -> root.relativize(p).toString()).sorted().toList();
        }
    }

    private List<Path> tempFiles() throws IOException {
        try (Stream<Path> all = Files.walk(root)) {
            return all.filter(p -> p.getFileName().toString().endsWith(DocLayout.TEMP_SUFFIX)).toList();
        }
    }
}
