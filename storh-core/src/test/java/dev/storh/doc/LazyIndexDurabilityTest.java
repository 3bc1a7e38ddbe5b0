package dev.storh.doc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.storh.StorageRecord;
import dev.storh.fs.ForwardingFiles;
import dev.storh.fs.ForwardingOutput;
import dev.storh.fs.LocalFiles;
import dev.storh.fs.StoreFiles;
import dev.storh.id.UuidV7;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Index files are derived data and reach the disk lazily, and record files through the batch
 * journal (docs/batch-journal.md): a put of a new record with four indexes, and a delete, fdatasync
 * the journal and (after an idle spell) the writer marker's folder, nothing else; the record files,
 * their folders and the index files are made durable before the marker goes (on close, or once the
 * store is idle), so an idle or closed collection has no marker and its copy opens without
 * rebuilding anything.
 */
class LazyIndexDurabilityTest {

    /** The batch journal's name in the collection's seam. */
    private static final String JOURNAL = DocLayout.META + "/batch-journal";

    @TempDir
    Path root;

    /** Counts the fsyncs (of files and folders) that go through the seam, with the names synced. */
    static final class CountingFiles extends ForwardingFiles {
        final List<String> syncs = new CopyOnWriteArrayList<>();

        CountingFiles(StoreFiles files) {
            super(files);
        }

        @Override
        public Output create(String name) throws IOException {
            return counted(name, super.create(name));
        }

        @Override
        public Output append(String name) throws IOException {
            return counted(name, super.append(name));
        }

        @Override
        public void syncDirectory(String dir) throws IOException {
            syncs.add("dir " + dir);
            super.syncDirectory(dir);
        }

        private Output counted(String name, Output out) {
            return new ForwardingOutput(out) {
                @Override
                public void sync() throws IOException {
                    syncs.add("file " + name);
                    super.sync();
                }

                @Override
                public void syncData() throws IOException {
                    syncs.add("file " + name);
                    super.syncData();
                }
            };
        }
    }

    private final List<CountingFiles> seams = new ArrayList<>();

    private DocStore open() {
        return DocStore.open(root, "items", DocStoreOptions.builder().files(dir -> {
            CountingFiles seam = new CountingFiles(LocalFiles.at(dir));
            seams.add(seam);
            return seam;
        }).build());
    }

    private CountingFiles collectionSeam() {
        return seams.stream().filter(s -> s.root().getFileName().toString().equals("items")).reduce((a, b) -> b)
                .orElseThrow();
    }

    /** @return a fresh id in the same bucket as {@code sibling} (characters 24-25), so no bucket folder is created */
    private static String idInBucketOf(String sibling) {
        while (true) {
            String id = UuidV7.generate();
            if (id.substring(24, 26).equals(sibling.substring(24, 26))) {
                return id;
            }
        }
    }

    @Test
    void aNewRecordWithFourIndexesTakesAtMostThreeFsyncs() {
        String first;
        try (DocStore store = open()) {
            store.indexes().field("kind").field("status").field("tag").field("rank").range().sync();
            first = store.put(Map.of("kind", "a", "status", "open", "tag", "x", "rank", 1L)).id();
        }
        try (DocStore store = open()) {
            CountingFiles seam = collectionSeam();
            seam.syncs.clear();
            String second = idInBucketOf(first);
            store.put(Map.of("kind", "a", "status", "open", "tag", "x", "rank", 2L), second);
            List<String> afterIdle = List.copyOf(seam.syncs);
            assertThat(afterIdle).as("a put after an idle spell: marker folder, batch journal")
                    .containsExactly("dir .storh/writers", "file " + JOURNAL);

            assertPutAndDeleteSyncNoIndexFile(seam, store, Map.of("kind", "b", "status", "done", "tag", "y", "rank", 3L),
                    idInBucketOf(first), second);

            assertThat(store.query().where("kind").eq("a").count()).isEqualTo(1);
            assertThat(store.query().where("kind").eq("b").get()).extracting(StorageRecord::id).hasSize(1);
            assertThat(store.query().where("rank").gte(2L).count()).isEqualTo(1);

            seam.syncs.clear();
        }
        List<String> onClose = List.copyOf(collectionSeam().syncs);
        assertThat(onClose).as("close fsyncs the index files written lazily, then removes the marker")
                .anyMatch(s -> s.startsWith("file .storh/indexes/entries/eq/"))
                .anyMatch(s -> s.startsWith("file .storh/indexes/entries/range/"))
                .last().isEqualTo("dir .storh/writers");
    }

    /**
     * Puts a record in a bucket that exists while the marker is registered, then deletes one: each
     * fdatasyncs the batch journal once, and nothing else (no record file, folder or index file).
     */
    private static void assertPutAndDeleteSyncNoIndexFile(CountingFiles seam, DocStore store, Map<String, Object> data,
            String id, String deleted) {
        seam.syncs.clear();
        store.put(data, id);
        assertThat(List.copyOf(seam.syncs)).as("a put while the marker is registered: the batch journal")
                .containsExactly("file " + JOURNAL);
        assertThat(store.get(id)).as("the record file is in place when the put returns").isPresent();
        seam.syncs.clear();
        assertThat(store.delete(deleted)).isTrue();
        assertThat(List.copyOf(seam.syncs)).as("a delete: the batch journal").containsExactly("file " + JOURNAL);
        assertThat(store.get(deleted)).isEmpty();
    }

    @Test
    void aPutWithAUniquePathIndexDefersThePathIndexFsyncToo() {
        String first;
        try (DocStore store = open()) {
            // the shape of a Spring entity with @Indexed(unique = true): a unique index and a unique path index
            store.indexes().field("sku").unique().field("kind").field("rank").range()
                    .definePath(dev.storh.query.FieldPath.of("sku"), true, false).sync();
            first = store.put(Map.of("sku", "a-1", "kind", "a", "rank", 1L)).id();
        }
        try (DocStore store = open()) {
            CountingFiles seam = collectionSeam();
            store.put(Map.of("sku", "a-2", "kind", "a", "rank", 2L), idInBucketOf(first));
            String third = idInBucketOf(first);
            assertPutAndDeleteSyncNoIndexFile(seam, store, Map.of("sku", "a-3", "kind", "b", "rank", 3L), third, third);
            assertThat(store.query().where("sku").eq("a-2").count()).isEqualTo(1);
            assertThat(store.query().where("sku").eq("a-3").count()).isZero();
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> store.put(Map.of("sku", "a-2", "kind", "c", "rank", 4L)))
                    .isInstanceOf(dev.storh.UniqueConstraintException.class).hasMessageContaining("a-2");
            seam.syncs.clear();
        }
        assertThat(List.copyOf(collectionSeam().syncs)).as("close fsyncs the path index delta written lazily")
                .anyMatch(s -> s.startsWith("file .storh/indexes/entries/paths/"))
                .last().isEqualTo("dir .storh/writers");
        try (DocStore store = DocStore.open(root, "items")) {
            assertThat(store.recovery().reindexed()).as("no rebuild after a clean close").isNull();
            assertThat(store.verify().errors()).isEmpty();
        }
    }

    @Test
    void anIdleStoreRemovesItsMarkerAndACopyOfItOpensWithoutARebuild() throws Exception {
        Path writers = root.resolve("items/.storh/writers");
        try (DocStore store = open()) {
            store.indexes().field("kind").field("rank").range().sync();
            for (int i = 0; i < 20; i++) {
                store.put(Map.of("kind", i % 2 == 0 ? "even" : "odd", "rank", (long) i));
            }
            assertThat(markers(writers)).as("a writing store has its marker").hasSize(1);
            long deadline = System.nanoTime() + 120_000_000_000L;
            while (!markers(writers).isEmpty() && System.nanoTime() < deadline) {
                Thread.sleep(100);
            }
            assertThat(markers(writers)).as("the idle store made its index files durable and removed its marker")
                    .isEmpty();

            Path copy = Files.createDirectories(root.resolve("copy"));
            copyTree(root.resolve("items"), copy.resolve("items"));
            try (DocStore copied = DocStore.open(copy, "items")) {
                assertThat(copied.recovery().crashedWriter()).isFalse();
                assertThat(copied.recovery().reindexed()).as("no rebuild").isNull();
                assertThat(copied.query().where("kind").eq("even").count()).isEqualTo(10);
                assertThat(copied.verify().errors()).isEmpty();
            }
            store.put(Map.of("kind", "even", "rank", 99L));
            assertThat(markers(writers)).as("the next write registers the marker again").hasSize(1);
            assertThat(store.query().where("kind").eq("even").count()).isEqualTo(11);
        }
        assertThat(markers(writers)).isEmpty();
    }

    private static List<Path> markers(Path writers) throws IOException {
        if (!Files.isDirectory(writers)) {
            return List.of();
        }
        try (Stream<Path> s = Files.list(writers)) {
            return s.toList();
        }
    }

    private static void copyTree(Path from, Path to) throws IOException {
        try (Stream<Path> all = Files.walk(from)) {
            for (Path p : (Iterable<Path>) all::iterator) {
                Path target = to.resolve(from.relativize(p).toString());
                if (Files.isDirectory(p)) {
                    Files.createDirectories(target);
                } else {
                    Files.copy(p, target);
                }
            }
        }
    }
}
