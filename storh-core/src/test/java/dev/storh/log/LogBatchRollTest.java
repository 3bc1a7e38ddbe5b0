package dev.storh.log;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.storh.StorageException;
import dev.storh.fs.ForwardingFiles;
import dev.storh.fs.LocalFiles;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A batch of appends that rolls several times makes each roll's manifest rename durable with one
 * fsync of the collection folder at its end (before it returns), not one per roll; the lines of the
 * segments it sealed on the way become visible only after that fsync, and when it fails the call
 * fails while the instance still agrees with the files.
 */
class LogBatchRollTest {

    @TempDir
    Path root;

    /** Counts folder fsyncs by folder name; fails the collection folder's on demand. */
    static final class FolderSyncs extends ForwardingFiles {
        final Map<String, Integer> syncs = new ConcurrentHashMap<>();
        /** Reads of the manifest's bytes (opens for reading). */
        final java.util.concurrent.atomic.AtomicInteger manifestReads = new java.util.concurrent.atomic.AtomicInteger();
        volatile boolean failCollectionFolder;

        FolderSyncs(Path dir) {
            super(LocalFiles.at(dir));
        }

        @Override
        public void syncDirectory(String dir) throws IOException {
            if (failCollectionFolder && dir.isEmpty()) {
                throw new IOException("injected failure of the collection folder's fsync");
            }
            syncs.merge(dir, 1, Integer::sum);
            files.syncDirectory(dir);
        }

        @Override
        public java.io.InputStream open(String name) throws IOException {
            if (name.equals(LogFiles.MANIFEST)) {
                manifestReads.incrementAndGet();
            }
            return files.open(name);
        }
    }

    private SegmentedLog open(FolderSyncs[] seam) {
        return SegmentedLog.open(root, "events", SegmentedLogOptions.builder().maxSegmentBytes(512)
                .files(dir -> seam[0] = new FolderSyncs(dir)).build());
    }

    private static List<Map<String, Object>> rows(int from, int count) {
        List<Map<String, Object>> rows = new ArrayList<>();
        for (int i = from; i < from + count; i++) {
            rows.add(Map.of("n", (long) i, "pad", "x".repeat(100)));
        }
        return rows;
    }

    @Test
    void aBatchThatRollsManyTimesFsyncsTheCollectionFolderOnceAndEveryLineSurvives() {
        FolderSyncs[] seam = new FolderSyncs[1];
        long segmentsBefore;
        long segmentsAfter;
        try (SegmentedLog log = open(seam)) {
            log.put(Map.of("n", -1L));
            segmentsBefore = log.stats().segments();
            seam[0].syncs.clear();
            seam[0].manifestReads.set(0);
            log.appendMany(rows(0, 40));
            int manifestReads = seam[0].manifestReads.get();
            segmentsAfter = log.stats().segments();
            assertThat(segmentsAfter - segmentsBefore).as("rolls of the batch").isGreaterThanOrEqualTo(5);
            assertThat(seam[0].syncs.get("")).as("collection folder fsyncs for the whole batch").isEqualTo(1);
            assertThat(seam[0].syncs.get(LogFiles.SEGMENTS)).as("segments/ fsyncs: one per roll")
                    .isEqualTo((int) (segmentsAfter - segmentsBefore));
            assertThat(manifestReads).as("manifest reads of the batch: only a roll by its last line keeps the one in force"
                    + " (to put it back if its folder fsync fails); the rolls before it leave that fsync to the batch's end")
                    .isLessThanOrEqualTo(1);
            assertThat(log.count()).isEqualTo(41);
        }
        try (SegmentedLog reopened = open(seam)) {
            assertThat(reopened.count()).as("every line of the batch found by a new instance").isEqualTo(41);
            assertThat(reopened.stats().segments()).isEqualTo(segmentsAfter);
            assertThat(reopened.stream().map(r -> r.data().get("n")).toList()).hasSize(41).startsWith(-1L, 0L, 1L)
                    .endsWith(39L);
            assertThat(reopened.verify().ok()).isTrue();
        }
    }

    @Test
    void aSingleAppendThatRollsStillFsyncsTheCollectionFolderBeforeItReturns() {
        FolderSyncs[] seam = new FolderSyncs[1];
        try (SegmentedLog log = open(seam)) {
            for (int i = 0; i < 4; i++) {
                log.put(Map.of("n", (long) i, "pad", "x".repeat(100)));
            }
            seam[0].syncs.clear();
            long before = log.stats().segments();
            log.put(Map.of("n", 4L, "pad", "x".repeat(400))); // crosses 512 bytes: this put rolls
            assertThat(log.stats().segments()).isEqualTo(before + 1);
            assertThat(seam[0].syncs.get("")).as("collection folder fsyncs of the rolling put").isEqualTo(1);
        }
    }

    @Test
    void whenTheBatchsFolderFsyncFailsTheCallFailsAndTheInstanceAgreesWithTheFiles() {
        FolderSyncs[] seam = new FolderSyncs[1];
        try (SegmentedLog log = open(seam)) {
            log.put(Map.of("n", -1L));
            seam[0].failCollectionFolder = true;
            assertThatThrownBy(() -> log.appendMany(rows(0, 40))).isInstanceOf(StorageException.class)
                    .hasMessageContaining("Could not sync storage directory");
            seam[0].failCollectionFolder = false;
            long seen = log.count();
            List<Object> ns = log.stream().map(r -> r.data().get("n")).toList();
            try (SegmentedLog other = SegmentedLog.open(root, "events", LogTestSupport.opts(512, 16))) {
                assertThat(other.count()).as("a new instance counts what this one shows").isEqualTo(seen);
                assertThat(other.stream().map(r -> r.data().get("n")).toList()).isEqualTo(ns);
                assertThat(other.verify().ok()).isTrue();
            }
            log.put(Map.of("n", 100L));
            assertThat(log.count()).isEqualTo(seen + 1);
        }
    }
}
