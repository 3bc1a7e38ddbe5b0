package dev.storh.cache;

import static org.assertj.core.api.Assertions.assertThat;

import dev.storh.doc.DocStore;
import dev.storh.doc.DocStoreOptions;
import dev.storh.fs.ForwardingFiles;
import dev.storh.fs.LocalFiles;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileTime;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * STAT's clock floor: an entry settles before the settle time when its file's modification time
 * is earlier than a time the file system set itself and the cache saw before the look (the writers
 * folder's, or that of a later write of the store's own), and only then. A same-tick rewrite is
 * played by an in-place rewrite that sets the file's time back.
 */
class RecordCacheClockFloorTest {

    /** A gap that puts two writes in different clock ticks. */
    private static final long TICK_GAP_MILLIS = 50;

    @TempDir
    Path root;

    private final AtomicInteger reads = new AtomicInteger();

    /** Counts the opens of record files ({@code data/...}). */
    private static final class RecordReadCounting extends ForwardingFiles {
        private final AtomicInteger reads;

        RecordReadCounting(Path folder, AtomicInteger reads) {
            super(LocalFiles.at(folder));
            this.reads = reads;
        }

        @Override
        public InputStream open(String name) throws IOException {
            if (name.startsWith("data/")) {
                reads.incrementAndGet();
            }
            return files.open(name);
        }

        @Override
        public byte[] readAll(String name, long sizeSeen) throws IOException {
            if (name.startsWith("data/")) {
                reads.incrementAndGet();
            }
            return files.readAll(name, sizeSeen);
        }
    }

    private DocStore counted() {
        return DocStore.open(root, "c", DocStoreOptions.builder().cache(Cache.memory(100))
                .cacheValidation(CacheValidation.STAT).files(folder -> new RecordReadCounting(folder, reads)).build());
    }

    private static DocStore plain(Path root) {
        return DocStore.open(root, "c", DocStoreOptions.builder().cache(Cache.none()).build());
    }

    private static String file(String id, String value) {
        return "{\"id\":\"" + id + "\",\"data\":{\"v\":\"" + value + "\"}}\n";
    }

    /** Rewrites a file in place (same inode and size), then sets its modification time back: one clock tick's rewrite. */
    private static void rewriteInPlaceKeepingTime(Path path, String content) throws Exception {
        FileTime before = Files.getLastModifiedTime(path);
        long size = Files.size(path);
        Files.writeString(path, content, StandardOpenOption.TRUNCATE_EXISTING, StandardOpenOption.WRITE);
        Files.setLastModifiedTime(path, before);
        assertThat(Files.size(path)).as("a rewrite that keeps the size").isEqualTo(size);
    }

    /**
     * Records written by a store that then closed (its marker's removal set the writers folder's
     * time, later than theirs) are read once by another store, not again within the settle time;
     * a later write by a third store is seen, since it gives the file a later time.
     */
    @Test
    void recordsLastWrittenBeforeTheWritersFolderChangedSettleAtTheirFirstRead() throws Exception {
        String id;
        String other;
        try (DocStore writer = plain(root)) {
            id = writer.put(Map.of("v", "alpha")).id();
            other = writer.put(Map.of("v", "other")).id();
            Thread.sleep(TICK_GAP_MILLIS);
        }
        try (DocStore reader = counted()) {
            assertThat(reader.get(id).orElseThrow().data()).containsEntry("v", "alpha");
            assertThat(reader.get(other).orElseThrow().data()).containsEntry("v", "other");
            reads.set(0);
            for (int i = 0; i < 3; i++) {
                assertThat(reader.get(id).orElseThrow().data()).containsEntry("v", "alpha");
                assertThat(reader.get(other).orElseThrow().data()).containsEntry("v", "other");
            }
            assertThat(reads.get()).as("record reads of hits within the settle time").isZero();
            try (DocStore writer = plain(root)) {
                writer.put(Map.of("v", "bravo"), id);
            }
            assertThat(reader.get(id).orElseThrow().data()).containsEntry("v", "bravo");
        }
    }

    /**
     * A record written after the writers folder last changed (its writer still registered) is
     * compared with its file at every hit within the settle time: another writer's rewrite within
     * one clock tick is seen.
     */
    @Test
    void aRecordWrittenAfterTheWritersFolderChangedIsComparedUntilItSettles() throws Exception {
        try (DocStore writer = plain(root)) {
            writer.put(Map.of("v", "registers the marker"));
            Thread.sleep(TICK_GAP_MILLIS);
            String id = writer.put(Map.of("v", "alpha")).id();
            Path path = writer.pathForId(id);
            try (DocStore reader = counted()) {
                assertThat(reader.get(id).orElseThrow().data()).containsEntry("v", "alpha");
                Thread.sleep(TICK_GAP_MILLIS); // the floor is looked at again; the folder kept its time
                assertThat(reader.get(id).orElseThrow().data()).containsEntry("v", "alpha");
                rewriteInPlaceKeepingTime(path, file(id, "bravo"));
                assertThat(reader.get(id).orElseThrow().data()).containsEntry("v", "bravo");
                rewriteInPlaceKeepingTime(path, file(id, "charl"));
                assertThat(reader.get(id).orElseThrow().data()).containsEntry("v", "charl");
            }
        }
    }

    /**
     * A store's own write, passed by a later write of its own, is still compared with its file
     * once another writer has registered: the floor never stands in for the writers folder's check
     * that no one else wrote since.
     */
    @Test
    void ownWritesPassedByALaterOwnWriteAreComparedOnceAnotherWriterRegistered() throws Exception {
        try (DocStore store = counted()) {
            store.put(Map.of("v", "registers the marker"));
            Thread.sleep(TICK_GAP_MILLIS);
            String id = store.put(Map.of("v", "alpha")).id();
            Path path = store.pathForId(id);
            Thread.sleep(TICK_GAP_MILLIS);
            store.put(Map.of("v", "a later write: the floor passes alpha's time"));
            try (DocStore other = plain(root)) {
                other.put(Map.of("v", "registers another writer"));
                rewriteInPlaceKeepingTime(path, file(id, "bravo"));
                assertThat(store.get(id).orElseThrow().data()).containsEntry("v", "bravo");
            }
        }
    }

    /**
     * Once a hit has found the writers folder unchanged after a later own write passed a record's
     * time, that record and every other one written before then settle without a read or another
     * look at the folder: a later write by another store is still seen, an in-place rewrite that
     * sets the time back no longer is (as after the settle time; HASH sees it).
     */
    @Test
    void ownWritesSettleOnceTheFolderHeldAfterALaterOwnWrite() throws Exception {
        try (DocStore store = counted()) {
            store.put(Map.of("v", "registers the marker"));
            Thread.sleep(TICK_GAP_MILLIS);
            String a = store.put(Map.of("v", "alpha")).id();
            String b = store.put(Map.of("v", "bravo")).id();
            Thread.sleep(TICK_GAP_MILLIS);
            store.put(Map.of("v", "a later write"));
            reads.set(0);
            for (int i = 0; i < 3; i++) {
                assertThat(store.get(a).orElseThrow().data()).containsEntry("v", "alpha");
                assertThat(store.get(b).orElseThrow().data()).containsEntry("v", "bravo");
            }
            assertThat(reads.get()).as("record reads of hits on the store's own writes").isZero();
            try (DocStore other = plain(root)) {
                other.put(Map.of("v", "charlie"), a);
                rewriteInPlaceKeepingTime(store.pathForId(b), file(b, "delta"));
            }
            assertThat(store.get(a).orElseThrow().data()).containsEntry("v", "charlie");
            assertThat(store.get(b).orElseThrow().data()).containsEntry("v", "bravo");
        }
    }
}
