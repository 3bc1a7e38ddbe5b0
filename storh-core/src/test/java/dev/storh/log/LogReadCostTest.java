package dev.storh.log;

import static dev.storh.log.LogTestSupport.ids;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.storh.fs.ForwardingFiles;
import dev.storh.fs.LocalFiles;
import dev.storh.fs.StoreFiles;
import dev.storh.query.RecordQuery;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a read of a log costs once this instance has caught up: while no other writer is registered
 * in {@code .storh/writers/}, a read looks at that folder only (not at the manifest or the active
 * segment), and a count from memory after this instance's own rolls lists no folder. Every writer
 * that registers (another instance, another JVM) is still seen by the next read, and a segment a read
 * found missing still fails the next count.
 */
class LogReadCostTest {

    @TempDir
    Path root;

    /** Counts the seam's stats (a folder's time read included) and listings, per name. */
    private static final class CountingFiles extends ForwardingFiles {
        final Map<String, AtomicInteger> stats = new ConcurrentHashMap<>();
        final Map<String, AtomicInteger> lists = new ConcurrentHashMap<>();

        CountingFiles(Path folder) {
            super(LocalFiles.at(folder));
        }

        @Override
        public Optional<StoreFiles.Entry> stat(String name) throws IOException {
            stats.computeIfAbsent(name, n -> new AtomicInteger()).incrementAndGet();
            return files.stat(name);
        }

        @Override
        public Optional<String> version(String name) throws IOException {
            stats.computeIfAbsent(name, n -> new AtomicInteger()).incrementAndGet();
            return files.version(name);
        }

        @Override
        public FolderTime folderTime(String folder) {
            FolderTime below = files.folderTime(folder);
            return () -> {
                stats.computeIfAbsent(folder, n -> new AtomicInteger()).incrementAndGet();
                return below.millis();
            };
        }

        @Override
        public List<String> list(String dir) throws IOException {
            lists.computeIfAbsent(dir, n -> new AtomicInteger()).incrementAndGet();
            return files.list(dir);
        }

        void reset() {
            stats.clear();
            lists.clear();
        }
    }

    private static Map<String, ?> row(int i) {
        return Map.of("kind", i % 2 == 0 ? "even" : "odd", "pad", "p".repeat(120));
    }

    /** Appends until this instance has rolled at least once after the clock moved past its open. */
    private static void appendPastTheOpen(SegmentedLog log, int count) throws InterruptedException {
        Thread.sleep(30); // the writers folder's time (the open) must lie in an earlier clock tick
        for (int i = 0; i < count; i++) {
            log.put(row(i));
        }
    }

    @Test
    void afterItsOwnRollsACountFromMemoryStatsTwoFoldersAndListsNone() throws Exception {
        CountingFiles[] seam = new CountingFiles[1];
        SegmentedLogOptions options = SegmentedLogOptions.builder().maxSegmentBytes(600)
                .files(dir -> seam[0] = new CountingFiles(dir)).build();
        try (SegmentedLog log = SegmentedLog.open(root, "events", options)) {
            appendPastTheOpen(log, 40);
            assertThat(log.state().sealed).hasSizeGreaterThan(5);
            assertThat(log.quiet()).as("no other writer is registered").isTrue();
            seam[0].reset();
            RecordQuery even = RecordQuery.all().whereEqual("kind", "even");
            assertThat(log.count(even)).isEqualTo(20);
            assertThat(log.count(even.limit(7))).isEqualTo(7);
            assertThat(log.count()).isEqualTo(40);
            assertThat(seam[0].lists).as("listings").isEmpty();
            assertThat(seam[0].stats.keySet()).as("names looked at")
                    .containsExactlyInAnyOrder(LogFiles.WRITERS, LogFiles.SEGMENTS);
            assertThat(seam[0].stats.get(LogFiles.WRITERS)).hasValue(3);
            assertThat(seam[0].stats.get(LogFiles.SEGMENTS)).hasValue(2);
        }
    }

    @Test
    void whileNoOtherWriterIsRegisteredStatsLooksAtTheActiveSegmentOnlyAndSumsTheSealedSizesItSaw() throws Exception {
        CountingFiles[] seam = new CountingFiles[1];
        SegmentedLogOptions options = SegmentedLogOptions.builder().maxSegmentBytes(600)
                .files(dir -> seam[0] = new CountingFiles(dir)).build();
        try (SegmentedLog log = SegmentedLog.open(root, "events", options)) {
            appendPastTheOpen(log, 40);
            int sealed = log.state().sealed.size();
            assertThat(sealed).isGreaterThan(5);
            assertThat(log.quiet()).isTrue();
            long onDisk = segmentBytes(log);
            for (int call = 0; call < 3; call++) {
                seam[0].reset();
                assertThat(log.stats().bytes()).as("call %d", call).isEqualTo(onDisk);
                assertThat(seam[0].lists).as("listings").isEmpty();
                assertThat(seam[0].stats.keySet()).as("names looked at").containsExactlyInAnyOrder(LogFiles.WRITERS,
                        LogFiles.SEGMENTS, LogFiles.segment(log.state().active.file));
            }
            Files.delete(root.resolve("events/segments").resolve(log.state().sealed.get(2).file));
            seam[0].reset();
            assertThat(log.stats().bytes()).as("a sealed segment deleted by hand").isEqualTo(segmentBytes(log));
            assertThat(seam[0].stats.keySet()).as("every segment looked at again").hasSize(sealed + 3);
        }
    }

    /** @return the sizes of the segment files the log's picture names, from the disk (a missing one counts 0) */
    private long segmentBytes(SegmentedLog log) throws IOException {
        long total = 0;
        List<Segment> all = new java.util.ArrayList<>(log.state().sealed);
        all.add(log.state().active);
        for (Segment s : all) {
            Path file = root.resolve("events/segments").resolve(s.file);
            total += Files.exists(file) ? Files.size(file) : 0;
        }
        return total;
    }

    @Test
    void aSecondInstanceThatOpensWhileTheFirstIsQuietIsSeenByItsNextReads() throws Exception {
        SegmentedLogOptions options = LogTestSupport.opts(600, 1);
        try (SegmentedLog first = SegmentedLog.open(root, "events", options)) {
            appendPastTheOpen(first, 10);
            assertThat(first.count()).isEqualTo(10);
            assertThat(first.quiet()).isTrue();
            try (SegmentedLog second = SegmentedLog.open(root, "events", options)) {
                String id = second.put(Map.of("kind", "second")).id();
                for (int i = 0; i < 12; i++) {
                    second.put(row(i)); // rolls in the second instance
                }
                assertThat(first.quiet()).as("another marker is registered").isFalse();
                assertThat(first.count()).isEqualTo(23);
                assertThat(first.get(id)).isPresent();
                assertThat(first.count(RecordQuery.all().whereEqual("kind", "second"))).isEqualTo(1);
                assertThat(ids(first.stream())).contains(id).hasSize(23);
                assertThat(first.quiet()).isFalse();
            }
            assertThat(first.count()).as("after the second closed").isEqualTo(23);
            Thread.sleep(30); // past the tick of the second's marker removal
            first.put(row(0));
            for (int i = 0; i < 10; i++) {
                first.put(row(i));
            }
            assertThat(first.count()).isEqualTo(34);
            assertThat(first.quiet()).as("alone again, after its own roll").isTrue();
        }
    }

    @Test
    void anotherJvmsAppendsAreSeenByAQuietInstanceWithoutReopening() throws Exception {
        try (SegmentedLog log = SegmentedLog.open(root, "events", LogTestSupport.opts(600, 1))) {
            appendPastTheOpen(log, 10);
            assertThat(log.count()).isEqualTo(10);
            assertThat(log.quiet()).isTrue();
            LogTestSupport.appendInChildJvm(root, "events", 600, 25, "child");
            assertThat(log.count()).isEqualTo(35);
            assertThat(log.count(RecordQuery.all().whereEqual("writer", "child"))).isEqualTo(25);
            assertThat(ids(log.stream(RecordQuery.all().whereEqual("writer", "child")))).hasSize(25);
        }
    }

    @Test
    void aSealedSegmentDeletedByHandFailsTheCountOnceAReadHasMetIt() throws Exception {
        try (SegmentedLog log = SegmentedLog.open(root, "events", LogTestSupport.opts(600, 1))) {
            appendPastTheOpen(log, 20);
            RecordQuery even = RecordQuery.all().whereEqual("kind", "even");
            assertThat(log.count(even)).isEqualTo(10);
            Files.delete(root.resolve("events/segments").resolve(log.state().sealed.get(1).file));
            assertThatThrownBy(() -> ids(log.stream(even))).hasMessageContaining("open segment");
            assertThatThrownBy(() -> log.count(even)).hasMessageContaining("open segment");
        }
    }
}
