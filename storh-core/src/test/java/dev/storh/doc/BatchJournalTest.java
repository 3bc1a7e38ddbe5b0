package dev.storh.doc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.storh.StorageException;
import dev.storh.StorageRecord;
import dev.storh.fs.FailingFiles;
import dev.storh.fs.FailingFiles.Point;
import dev.storh.fs.ForwardingFiles;
import dev.storh.fs.ForwardingOutput;
import dev.storh.fs.FramedLine;
import dev.storh.fs.LocalFiles;
import dev.storh.fs.StoreFiles;
import dev.storh.id.UuidV7;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A putMany reaches the disk through the batch journal: its records are durable in
 * {@code .storh/batch-journal} when the call returns, their files follow lazily. A crash that loses
 * record files brings them back from the journal at the next open; a torn batch is not replayed; a
 * later direct write retires the journal first, so a replay never undoes it; a failed journal sync
 * leaves every byte as before.
 */
class BatchJournalTest {

    /** A pid no process has (liveness says dead): a marker by that name is a crashed writer's. */
    private static final String DEAD_WRITER = "2147483646.deadbeef";

    @TempDir
    Path root;

    @TempDir
    Path copyRoot;

    private FailingFiles seam;

    private static List<Map<String, Object>> rows(int n, String kind) {
        List<Map<String, Object>> rows = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            rows.add(Map.of("kind", kind, "n", (long) i));
        }
        return rows;
    }

    private static Path journal(DocStore store) {
        return DocLayout.of(store.collectionRoot()).batchJournal();
    }

    /** Copies the collection as a power cut would leave it with this writer gone: its marker stale. */
    private Path crashCopy(DocStore store) throws IOException {
        return CrashCopies.withWriterGone(store, copyRoot.resolve("docs"), DEAD_WRITER);
    }

    @Test
    void recordFilesLostInACrashComeBackFromTheJournalBeforeTheOpenAnswers() throws IOException {
        Map<String, byte[]> bytes = new HashMap<>();
        Path copy;
        try (DocStore store = DocStore.open(root, "docs")) {
            store.indexes().field("kind").sync();
            List<StorageRecord> written = store.putMany(rows(60, "a"));
            assertThat(Files.size(journal(store))).as("the batch is in the journal").isPositive();
            for (StorageRecord r : written) {
                bytes.put(r.id(), Files.readAllBytes(store.pathForId(r.id())));
            }
            copy = crashCopy(store);
        }
        List<String> ids = new ArrayList<>(bytes.keySet());
        for (int i = 0; i < 20; i++) {
            Path file = DocLayout.of(copy).recordFile(ids.get(i));
            if (i % 2 == 0) {
                Files.delete(file); // the rename never reached the disk
            } else {
                Files.write(file, new byte[0]); // the rename did, the data did not
            }
        }
        try (DocStore reopened = DocStore.open(copyRoot, "docs")) {
            for (String id : ids) {
                assertThat(Files.readAllBytes(reopened.pathForId(id))).as(id).isEqualTo(bytes.get(id));
            }
            assertThat(reopened.count()).isEqualTo(60);
            assertThat(reopened.query().where("kind").eq("a").count()).isEqualTo(60);
            assertThat(reopened.verify().errors()).isEmpty();
            assertThat(Files.size(journal(reopened))).as("retired after the replay").isZero();
        }
    }

    @Test
    void aBatchWithoutItsCommitLineIsNotReplayed() throws IOException {
        Path copy;
        try (DocStore store = DocStore.open(root, "docs")) {
            store.putMany(rows(3, "a"));
            copy = crashCopy(store);
        }
        String id = "01a233ed-8493-72ad-9053-72ae78e2448b";
        String line = "{\"id\":\"" + id + "\",\"bytes\":\"" + java.util.Base64.getEncoder().encodeToString(
                "{\"id\":\"x\"}".getBytes(StandardCharsets.UTF_8)) + "\"}";
        Files.write(DocLayout.of(copy).batchJournal(), FramedLine.encode(line.getBytes(StandardCharsets.UTF_8)),
                StandardOpenOption.APPEND); // a torn append: a record line, no commit line
        try (DocStore reopened = DocStore.open(copyRoot, "docs")) {
            assertThat(reopened.get(id)).isEmpty();
            assertThat(Files.exists(reopened.pathForId(id))).isFalse();
            assertThat(reopened.count()).isEqualTo(3);
        }
    }

    @Test
    void aDeleteOrPutOfARecordTheJournalHoldsGoesThroughItSoAReplayNeverUndoesIt() throws IOException {
        Path copy;
        String gone;
        String changed;
        byte[] goneBytes;
        byte[] oldBytes;
        try (DocStore store = DocStore.open(root, "docs")) {
            store.indexes().field("kind").sync();
            List<StorageRecord> written = store.putMany(rows(5, "a"));
            gone = written.get(2).id();
            changed = written.get(3).id();
            goneBytes = Files.readAllBytes(store.pathForId(gone));
            oldBytes = Files.readAllBytes(store.pathForId(changed));
            long before = Files.size(journal(store));
            assertThat(store.delete(gone)).isTrue();
            assertThat(store.put(Map.of("kind", "b"), changed).data()).containsEntry("kind", "b");
            assertThat(Files.size(journal(store))).as("the delete and the put are in the journal").isGreaterThan(before);
            copy = crashCopy(store);
        }
        // As if neither the unlink nor the put's rename had reached the disk:
        Files.write(DocLayout.of(copy).recordFile(gone), goneBytes);
        Files.write(DocLayout.of(copy).recordFile(changed), oldBytes);
        try (DocStore reopened = DocStore.open(copyRoot, "docs")) {
            assertThat(reopened.get(gone)).isEmpty();
            assertThat(reopened.get(changed).orElseThrow().data()).containsEntry("kind", "b");
            assertThat(reopened.count()).isEqualTo(4);
            assertThat(reopened.query().where("kind").eq("b").count()).isEqualTo(1);
            assertThat(reopened.query().where("kind").eq("a").count()).isEqualTo(3);
            assertThat(Files.size(journal(reopened))).isZero();
        }
    }

    @Test
    void singlePutsAndDeletesGoThroughTheJournalWithoutRetiringIt() throws IOException {
        try (DocStore store = DocStore.open(root, "docs")) {
            List<StorageRecord> batch = store.putMany(rows(3, "a"));
            long size = Files.size(journal(store));
            StorageRecord other = store.put(Map.of("kind", "z"));
            long afterPut = Files.size(journal(store));
            assertThat(afterPut).as("the put appended").isGreaterThan(size);
            assertThat(store.delete(other.id())).isTrue();
            assertThat(Files.size(journal(store))).as("the delete appended").isGreaterThan(afterPut);
            String journal = Files.readString(journal(store));
            assertThat(journal).as("the batch is still pending beside them").contains(batch.get(0).id())
                    .contains("\"delete\":\"" + other.id() + "\"");
            long before = Files.size(journal(store));
            assertThat(store.delete(UuidV7.generate())).as("a delete of a missing record").isFalse();
            assertThat(Files.size(journal(store))).as("appends nothing").isEqualTo(before);
        }
    }

    @Test
    void singleWritesLostInAPowerCutAreDoneAgainFromTheJournal() throws IOException {
        List<StorageRecord> earlier;
        try (DocStore store = DocStore.open(root, "docs")) {
            store.indexes().field("kind").sync();
            earlier = List.of(store.put(Map.of("kind", "a")), store.put(Map.of("kind", "a")));
        }
        String gone = earlier.get(0).id();
        String changed = earlier.get(1).id();
        byte[] goneBytes = Files.readAllBytes(root.resolve("docs").resolve(DocLayout.DATA)
                .resolve(DocLayout.bucketOf(gone)).resolve(gone + ".jsonc"));
        byte[] oldBytes;
        String added;
        Path copy;
        try (DocStore store = DocStore.open(root, "docs")) {
            oldBytes = Files.readAllBytes(store.pathForId(changed));
            assertThat(store.delete(gone)).isTrue();
            store.put(Map.of("kind", "b"), changed);
            added = store.put(Map.of("kind", "c")).id();
            copy = crashCopy(store);
        }
        // None of the three reached the disk but through the journal:
        Files.write(DocLayout.of(copy).recordFile(gone), goneBytes);
        Files.write(DocLayout.of(copy).recordFile(changed), oldBytes);
        Files.delete(DocLayout.of(copy).recordFile(added));
        try (DocStore reopened = DocStore.open(copyRoot, "docs")) {
            assertThat(reopened.get(gone)).isEmpty();
            assertThat(reopened.get(changed).orElseThrow().data()).containsEntry("kind", "b");
            assertThat(reopened.get(added).orElseThrow().data()).containsEntry("kind", "c");
            assertThat(reopened.count()).isEqualTo(2);
            assertThat(reopened.query().where("kind").eq("a").count()).isZero();
            assertThat(reopened.query().where("kind").eq("b").count()).isEqualTo(1);
            assertThat(reopened.verify().errors()).isEmpty();
            assertThat(Files.size(journal(reopened))).isZero();
        }
    }

    @Test
    void aJournalAnotherInstanceLeftIsRetiredBeforeThisOneAppends() throws IOException {
        try (DocStore first = DocStore.open(root, "docs"); DocStore second = DocStore.open(root, "docs")) {
            String a = first.put(Map.of("kind", "a")).id();
            assertThat(Files.readString(journal(first))).contains(a);
            String b = second.put(Map.of("kind", "b")).id();
            assertThat(Files.readString(journal(first))).as("the first instance's journal was retired first")
                    .doesNotContain(a).contains(b);
            String c = first.put(Map.of("kind", "c")).id();
            assertThat(Files.readString(journal(first))).doesNotContain(b).contains(c);
            assertThat(first.get(b)).isPresent();
            assertThat(second.get(c)).isPresent();
        }
        try (DocStore reopened = DocStore.open(root, "docs")) {
            assertThat(reopened.count()).isEqualTo(3);
        }
    }

    @Test
    void aRetireSyncsTheFileSystemOnceWhereItCanAndAFailedSyncKeepsTheJournalAndTheMarker() throws IOException {
        FileSystemSyncs[] seam = new FileSystemSyncs[1];
        DocStoreOptions options = DocStoreOptions.builder().files(dir -> seam[0] = new FileSystemSyncs(LocalFiles.at(dir))).build();
        Path journal;
        Path writers;
        try (DocStore store = DocStore.open(root, "docs", options)) {
            store.putMany(rows(20, "a"));
            store.put(Map.of("kind", "b"));
            journal = journal(store);
            writers = DocLayout.of(store.collectionRoot()).writersDir();
            seam[0].fail = true;
        } // the close's retire fails
        assertThat(seam[0].fileSystemSyncs).hasValue(1);
        assertThat(Files.size(journal)).as("the journal stays pending").isPositive();
        try (Stream<Path> markers = Files.list(writers)) {
            assertThat(markers.toList()).as("the marker stays: a crash now replays the journal").hasSize(1);
        }
        try (DocStore store = DocStore.open(root, "docs", options)) {
            assertThat(store.count()).isEqualTo(21);
            store.put(Map.of("kind", "c")); // retires the other instance's journal first
            assertThat(seam[0].fileSystemSyncs).as("one syncfs for that retire").hasValue(1);
            assertThat(Files.readString(journal)).as("holds this put only").contains("\"commit\":1,");
        }
        assertThat(Files.size(journal)).as("retired by the close").isZero();
        assertThat(seam[0].fileSystemSyncs).as("one syncfs for each retire").hasValue(2);
        assertThat(seam[0].recordSyncs).as("no record file fsynced on its own").hasValue(0);
    }

    /** Counts syncfs calls (made to fail on demand) and fsyncs of record files. */
    private static final class FileSystemSyncs extends ForwardingFiles {
        final AtomicInteger fileSystemSyncs = new AtomicInteger();
        final AtomicInteger recordSyncs = new AtomicInteger();
        volatile boolean fail;

        FileSystemSyncs(StoreFiles files) {
            super(files);
        }

        @Override
        public boolean syncFileSystem(String name) throws IOException {
            fileSystemSyncs.incrementAndGet();
            if (fail) {
                throw new IOException("syncfs failed (errno 5)");
            }
            super.syncFileSystem(name);
            return true;
        }

        @Override
        public Output append(String name) throws IOException {
            Output out = super.append(name);
            if (!name.startsWith(DocLayout.DATA + "/")) {
                return out;
            }
            return new ForwardingOutput(out) {
                @Override
                public void sync() throws IOException {
                    recordSyncs.incrementAndGet();
                    super.sync();
                }
            };
        }
    }

    @Test
    void closeRetiresTheJournalAndBatchesInARowShareIt() throws IOException {
        Path journal;
        try (DocStore store = DocStore.open(root, "docs")) {
            store.putMany(rows(4, "a"));
            long first = Files.size(journal(store));
            store.putMany(rows(4, "b"));
            assertThat(Files.size(journal(store))).as("the second batch appended").isGreaterThan(first);
            journal = journal(store);
        }
        assertThat(Files.size(journal)).as("empty after close").isZero();
        try (DocStore reopened = DocStore.open(root, "docs")) {
            assertThat(reopened.count()).isEqualTo(8);
        }
    }

    @Test
    void aFailedJournalSyncLeavesEveryByteAndTheStoreWorksOnceHealed() throws IOException {
        try (DocStore store = DocStore.open(root, "docs",
                DocStoreOptions.builder().files(dir -> seam = FailingFiles.at(dir)).build())) {
            StorageRecord kept = store.put(Map.of("kind", "k"));
            long journaled = Files.size(journal(store));
            assertThat(journaled).as("the put is in the journal").isPositive();
            seam.failAt(Point.APPEND_FSYNC, name -> name.equals(DocLayout.META + "/batch-journal"));
            assertThatThrownBy(() -> store.putMany(rows(10, "a"))).isInstanceOf(StorageException.class)
                    .hasMessageContaining(journal(store).toString());
            assertThat(seam.failures()).isPositive();
            assertThat(store.count()).isEqualTo(1);
            assertThat(Files.size(journal(store))).as("cut back to the put's group").isEqualTo(journaled);
            seam.heal();
            assertThat(store.putMany(rows(10, "a"))).hasSize(10);
            assertThat(store.count()).isEqualTo(11);
            assertThat(store.get(kept.id())).contains(kept);
        }
    }

    @Test
    void aRecordChangedBehindTheStoresBackIsNotOverwrittenByARetire() throws IOException {
        try (DocStore store = DocStore.open(root, "docs")) {
            List<StorageRecord> written = store.putMany(rows(3, "a"));
            Path file = store.pathForId(written.get(0).id());
            byte[] foreign = ("{\"id\":\"" + written.get(0).id() + "\",\"kind\":\"edited\"}").getBytes(StandardCharsets.UTF_8);
            Files.write(file, foreign);
            Path journal = journal(store);
            store.close(); // retires the journal
            assertThat(Files.size(journal)).isZero();
            assertThat(Files.readAllBytes(file)).isEqualTo(foreign);
        }
    }

    @Test
    void aWriterWaitsForOneStepOfTheIdleRetireNotForAllOfItAndEachRecordIsFsyncedOnce() throws Exception {
        SlowRecordSyncs[] seam = new SlowRecordSyncs[1];
        try (DocStore store = DocStore.open(root, "docs",
                DocStoreOptions.builder().files(dir -> seam[0] = new SlowRecordSyncs(LocalFiles.at(dir))).build())) {
            store.putMany(rows(1000, "a"));
            assertThat(seam[0].synced).as("a batch fsyncs no record file").hasValue(0);
            // The idle checkpoint (5 s after the last write) starts making the journal's records durable.
            assertThat(seam[0].first.await(60, TimeUnit.SECONDS)).as("the idle checkpoint began").isTrue();
            store.put(Map.of("kind", "w"));
            int whenThePutReturned = seam[0].synced.get();
            assertThat(whenThePutReturned).as("record fsyncs done before a put that came during the retire returned")
                    .isLessThan(1000);
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
            while (Files.size(journal(store)) > 0 && System.nanoTime() < deadline) {
                Thread.sleep(50);
            }
            assertThat(Files.size(journal(store))).as("retired at the next idle checkpoint").isZero();
            assertThat(seam[0].synced).as("each record (the batch's and the put's) fsynced once, the steps' work not done again")
                    .hasValue(1001);
            assertThat(store.count()).isEqualTo(1001);
        }
    }

    /** Counts the fsyncs of record files (not of temp files), each slowed down, as on a slow disk. */
    private static final class SlowRecordSyncs extends ForwardingFiles {
        final AtomicInteger synced = new AtomicInteger();
        final CountDownLatch first = new CountDownLatch(1);

        SlowRecordSyncs(StoreFiles files) {
            super(files);
        }

        @Override
        public boolean syncFileSystem(String name) {
            return false; // file by file, as where syncfs is missing
        }

        @Override
        public Output append(String name) throws IOException {
            Output out = super.append(name);
            String leaf = name.substring(name.lastIndexOf('/') + 1);
            if (!name.startsWith(DocLayout.DATA + "/") || leaf.startsWith(".")) {
                return out;
            }
            return new ForwardingOutput(out) {
                @Override
                public void sync() throws IOException {
                    try {
                        Thread.sleep(10);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                    super.sync();
                    synced.incrementAndGet();
                    first.countDown();
                }
            };
        }
    }
}
