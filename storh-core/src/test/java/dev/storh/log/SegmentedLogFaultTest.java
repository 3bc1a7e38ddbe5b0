package dev.storh.log;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.storh.StorageException;
import dev.storh.StorageRecord;
import dev.storh.fs.FailingFiles;
import dev.storh.fs.FailingFiles.Point;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CyclicBarrier;
import java.util.function.Predicate;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every commit point of a SegmentedLog driven through a failing byte seam (appends and their
 * fsync for single puts, batches and group commits; the roll's sparse index and manifest swap; a
 * compaction's output, index, folder fsync and manifest swap; retention; a repair's side files and
 * segment rewrite): the error is a {@link StorageException} naming the path, every file of the log
 * keeps its bytes, no temp file is left, nothing a caller was told failed comes back later, and the
 * log works again once the seam heals.
 */
class SegmentedLogFaultTest {

    @TempDir
    Path root;

    private FailingFiles seam;

    private SegmentedLog open() {
        return open(SegmentedLogOptions.DEFAULT_MAX_SEGMENT_BYTES);
    }

    private SegmentedLog open(long maxSegmentBytes) {
        return SegmentedLog.open(root, "events", SegmentedLogOptions.builder().maxSegmentBytes(maxSegmentBytes)
                .sparseIndexInterval(2).files(dir -> seam = FailingFiles.at(dir)).build());
    }

    private Path dir() {
        return root.resolve("events");
    }

    /** Every regular file of the log and its bytes (hex), by relative name. */
    private Map<String, String> folder() {
        try (Stream<Path> files = Files.walk(dir())) {
            Map<String, String> bytes = new TreeMap<>();
            files.filter(Files::isRegularFile).forEach(f -> {
                try {
                    bytes.put(dir().relativize(f).toString(), HexFormat.of().formatHex(Files.readAllBytes(f)));
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
            return bytes;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private List<String> temps() {
        return folder().keySet().stream().filter(n -> n.endsWith(".tmp")).toList();
    }

    private static List<Object> ns(SegmentedLog log) {
        try (Stream<StorageRecord> s = log.stream()) {
            return s.map(r -> r.data().get("n")).toList();
        }
    }

    private static final Predicate<String> SEGMENT_FILES = name -> name.startsWith(LogFiles.SEGMENTS + "/");

    /** The three ways to append: one put, a batch, a stream of items. */
    enum Append {
        PUT, APPEND_MANY, APPEND_STREAM, DELETE
    }

    static Stream<Arguments> appendPoints() {
        List<Arguments> args = new ArrayList<>();
        for (Point p : List.of(Point.APPEND, Point.APPEND_FSYNC)) {
            for (Append a : Append.values()) {
                args.add(Arguments.of(p, a));
            }
        }
        return args.stream();
    }

    @ParameterizedTest(name = "{1} failing at {0}")
    @MethodSource("appendPoints")
    void everyFailedAppendLeavesEveryFileAsItWasAndIsNeverReplayed(Point point, Append append) {
        String first;
        try (SegmentedLog log = open()) {
            first = log.put(Map.of("n", 1L)).id();
            Map<String, String> before = folder();
            seam.failAt(point, SEGMENT_FILES);
            List<Map<String, Object>> items = List.of(Map.of("n", 2L), Map.of("n", 3L));
            Runnable write = switch (append) {
                case PUT -> () -> log.put(Map.of("n", 2L));
                case APPEND_MANY -> () -> log.appendMany(items);
                case APPEND_STREAM -> () -> log.appendStream(items);
                case DELETE -> () -> log.delete(first);
            };
            assertThatThrownBy(write::run).isInstanceOf(StorageException.class)
                    .hasMessageContaining(dir().resolve(LogFiles.SEGMENTS).toString());

            assertThat(seam.failures()).isPositive();
            assertThat(folder()).as("the log's files").isEqualTo(before);
            assertThat(temps()).isEmpty();
            assertThat(ns(log)).containsExactly(1L);
            seam.heal();
            log.put(Map.of("n", 4L));
            assertThat(ns(log)).containsExactly(1L, 4L);
        }
        try (SegmentedLog reopened = open()) {
            assertThat(ns(reopened)).containsExactly(1L, 4L);
            assertThat(reopened.verify().ok()).isTrue();
        }
    }

    /**
     * The append that reaches the segment size has its lines fsynced by the roll, side by side with
     * the roll's own files: when that fsync fails, the call fails, the roll does not happen (no
     * manifest, index or new segment), the lines are cut back and never come back, and the fsync is
     * not asked again (after a failed fsync the kernel may report a second one clean without the
     * pages): the seam sees the lines' fsync once and the cut back's once.
     */
    @ParameterizedTest(name = "{0}")
    @EnumSource(value = Append.class, names = {"PUT", "APPEND_MANY", "APPEND_STREAM"})
    void aFailedFsyncOfTheLinesARollSealsFailsTheCallAndNoRollHappens(Append append) {
        try (SegmentedLog log = open(256)) {
            log.put(Map.of("n", 1L, "pad", "x".repeat(100)));
            Map<String, String> before = folder();
            seam.failAt(Point.APPEND_FSYNC, SEGMENT_FILES);
            List<Map<String, Object>> items = List.of(Map.of("n", 2L, "pad", "x".repeat(100)), Map.of("n", 3L));
            Runnable write = switch (append) {
                case PUT -> () -> log.put(Map.of("n", 2L, "pad", "x".repeat(100))); // crosses 256 bytes: it rolls
                case APPEND_MANY -> () -> log.appendMany(items);
                default -> () -> log.appendStream(items);
            };
            assertThatThrownBy(write::run).isInstanceOf(StorageException.class)
                    .hasMessageContaining(dir().resolve(LogFiles.SEGMENTS).toString());

            assertThat(seam.failures()).as("fsyncs of the segment asked: the lines' once, the cut back's once").isEqualTo(2);
            assertThat(folder()).as("the log's files: no roll, the lines cut back").isEqualTo(before);
            assertThat(temps()).isEmpty();
            assertThat(log.stats().segments()).isEqualTo(1);
            assertThat(ns(log)).containsExactly(1L);
            seam.heal();
            log.put(Map.of("n", 4L, "pad", "x".repeat(200))); // rolls now
            assertThat(log.stats().segments()).isEqualTo(2);
            assertThat(ns(log)).containsExactly(1L, 4L);
        }
        try (SegmentedLog reopened = open(256)) {
            assertThat(ns(reopened)).containsExactly(1L, 4L);
            assertThat(reopened.stats().segments()).isEqualTo(2);
            assertThat(reopened.verify().ok()).isTrue();
        }
    }

    @Test
    void aFailedGroupCommitFailsEveryCallerOfItsBatchAndNoneOfTheirLinesComesBack() throws Exception {
        int threads = 8;
        try (SegmentedLog log = open()) {
            log.put(Map.of("n", 0L));
            Map<String, String> before = folder();
            seam.failAt(Point.APPEND_FSYNC, SEGMENT_FILES);
            CyclicBarrier start = new CyclicBarrier(threads);
            List<Throwable> failures = new CopyOnWriteArrayList<>();
            List<Thread> writers = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                long n = t + 1;
                Thread w = new Thread(() -> {
                    try {
                        start.await();
                        log.put(Map.of("n", n));
                    } catch (Throwable e) {
                        failures.add(e);
                    }
                });
                w.start();
                writers.add(w);
            }
            for (Thread w : writers) {
                w.join();
            }
            assertThat(failures).hasSize(threads).allSatisfy(e -> assertThat(e).isInstanceOf(StorageException.class)
                    .hasMessageContaining(dir().resolve(LogFiles.SEGMENTS).toString()));
            assertThat(folder()).isEqualTo(before);
            seam.heal();
            log.put(Map.of("n", 99L));
        }
        try (SegmentedLog reopened = open()) {
            assertThat(ns(reopened)).containsExactly(0L, 99L);
        }
    }

    static Stream<Arguments> rollPoints() {
        Predicate<String> manifest = name -> name.equals(LogFiles.MANIFEST) || name.startsWith("." + LogFiles.MANIFEST + ".")
                || name.isEmpty();
        Predicate<String> index = name -> name.contains(".idx.jsonc");
        return Stream.of(Arguments.of(Point.TEMP_WRITE, "manifest", manifest), Arguments.of(Point.FSYNC, "manifest", manifest),
                Arguments.of(Point.RENAME, "manifest", manifest), Arguments.of(Point.DIRECTORY_FSYNC, "manifest", manifest),
                Arguments.of(Point.TEMP_WRITE, "sparse index", index), Arguments.of(Point.FSYNC, "sparse index", index),
                Arguments.of(Point.RENAME, "sparse index", index),
                Arguments.of(Point.DIRECTORY_FSYNC, "segments/", (Predicate<String>) LogFiles.SEGMENTS::equals));
    }

    @ParameterizedTest(name = "{1} failing at {0}")
    @MethodSource("rollPoints")
    void aFailedRollKeepsTheDurableLinesAndRollsLater(Point point, String what, Predicate<String> names) {
        List<Object> expected = new ArrayList<>();
        try (SegmentedLog log = open(256)) {
            log.put(Map.of("n", 0L, "pad", "x".repeat(100)));
            expected.add(0L);
            String manifest = folder().get(LogFiles.MANIFEST);
            seam.failAt(point, names);
            log.put(Map.of("n", 1L, "pad", "x".repeat(100))); // crosses 256 bytes: the roll fails, the line is durable
            expected.add(1L);

            assertThat(seam.failures()).as(what).isPositive();
            assertThat(folder().get(LogFiles.MANIFEST)).as("manifest").isEqualTo(manifest);
            assertThat(folder().keySet()).as("no index or new segment of the failed roll")
                    .noneMatch(n -> n.contains(".idx.jsonc") || n.contains("seg-000002"));
            assertThat(temps()).isEmpty();
            assertThat(log.stats().segments()).isEqualTo(1);
            seam.heal();
            log.put(Map.of("n", 2L));
            expected.add(2L);
            assertThat(log.stats().segments()).isEqualTo(2);
            assertThat(ns(log)).isEqualTo(expected);
        }
        try (SegmentedLog reopened = open(256)) {
            assertThat(ns(reopened)).isEqualTo(expected);
            assertThat(reopened.verify().ok()).isTrue();
        }
    }

    static Stream<Arguments> compactionPoints() {
        Predicate<String> manifest = name -> name.equals(LogFiles.MANIFEST) || name.startsWith("." + LogFiles.MANIFEST + ".")
                || name.isEmpty();
        Predicate<String> output = name -> name.startsWith(LogFiles.SEGMENTS + "/compact-")
                || name.startsWith(LogFiles.SEGMENTS + "/.compact-");
        return Stream.of(Arguments.of(Point.TEMP_WRITE, "manifest", manifest), Arguments.of(Point.FSYNC, "manifest", manifest),
                Arguments.of(Point.RENAME, "manifest", manifest), Arguments.of(Point.DIRECTORY_FSYNC, "manifest", manifest),
                Arguments.of(Point.TEMP_WRITE, "output", output), Arguments.of(Point.FSYNC, "output", output),
                Arguments.of(Point.RENAME, "output index", output),
                Arguments.of(Point.DIRECTORY_FSYNC, "segments/", (Predicate<String>) LogFiles.SEGMENTS::equals));
    }

    @ParameterizedTest(name = "{1} failing at {0}")
    @MethodSource("compactionPoints")
    void aFailedCompactionLeavesEveryFileAsItWas(Point point, String what, Predicate<String> names) {
        List<Object> expected;
        try (SegmentedLog log = open(256)) {
            String id = log.put(Map.of("n", 0L, "pad", "x".repeat(100))).id();
            for (long v = 1; v < 6 || log.state().active.records > 0; v++) {
                log.put(Map.of("n", v, "pad", "x".repeat(100)), id); // superseded versions, until the active is empty
            }
            log.put(Map.of("n", -1L, "pad", "y".repeat(200))); // a second record; its line rolls again
            expected = ns(log);
            Map<String, String> before = folder();
            seam.failAt(point, names);

            assertThatThrownBy(log::compact).isInstanceOf(StorageException.class)
                    .hasMessageContaining(dir().toString());

            assertThat(seam.failures()).as(what).isPositive();
            assertThat(folder()).as("the log's files").isEqualTo(before);
            assertThat(temps()).isEmpty();
            assertThat(ns(log)).isEqualTo(expected);
            seam.heal();
            dev.storh.store.CompactReport<LogCompaction> done = log.compact();
            assertThat(done.bytesAfter()).isLessThan(done.bytesBefore());
            assertThat(ns(log)).isEqualTo(expected);
        }
        try (SegmentedLog reopened = open(256)) {
            assertThat(ns(reopened)).isEqualTo(expected);
            assertThat(reopened.verify().ok()).isTrue();
        }
    }

    @ParameterizedTest
    @EnumSource(value = Point.class, names = {"APPEND", "APPEND_FSYNC"})
    void aFailedRetentionDeletesNothing(Point point) {
        try (SegmentedLog log = open()) {
            log.put(Map.of("n", 1L), LogTestSupport.id(1));
            log.put(Map.of("n", 2L), LogTestSupport.id(2));
            Map<String, String> before = folder();
            seam.failAt(point, SEGMENT_FILES);
            assertThatThrownBy(() -> log.retain().olderThanMs(LogTestSupport.BASE_MS + 1).compact())
                    .isInstanceOf(StorageException.class).hasMessageContaining(dir().toString());
            assertThat(folder()).isEqualTo(before);
            assertThat(log.count()).isEqualTo(2);
            seam.heal();
            assertThat(log.retain().olderThanMs(LogTestSupport.BASE_MS + 1).compact()).isEqualTo(1);
            assertThat(ns(log)).containsExactly(2L);
        }
    }

    static Stream<Arguments> repairPoints() {
        Predicate<String> aside = name -> name.startsWith(LogFiles.QUARANTINE + "/");
        Predicate<String> rewrite = name -> name.startsWith(LogFiles.SEGMENTS + "/.seg-");
        Predicate<String> swap = name -> name.equals(LogFiles.segment(LogFiles.segmentName(1)));
        return Stream.of(Arguments.of(Point.TEMP_WRITE, "side file", aside), Arguments.of(Point.FSYNC, "side file", aside),
                Arguments.of(Point.TEMP_WRITE, "rewrite", rewrite), Arguments.of(Point.FSYNC, "rewrite", rewrite),
                Arguments.of(Point.RENAME, "rewrite", swap));
    }

    @ParameterizedTest(name = "{1} failing at {0}")
    @MethodSource("repairPoints")
    void aFailedRepairLeavesTheDamageAndEveryFileAsTheyWere(Point point, String what, Predicate<String> names)
            throws IOException {
        try (SegmentedLog log = open()) {
            for (long n = 0; n < 4; n++) {
                log.put(Map.of("n", n));
            }
        }
        Path segment = dir().resolve(LogFiles.segment(LogFiles.segmentName(1)));
        byte[] bytes = Files.readAllBytes(segment);
        int second = 0;
        while (bytes[second] != '\n') {
            second++;
        }
        bytes[second + 30] ^= 0x20; // line 2: checksum mismatch, valid lines follow
        Files.write(segment, bytes);
        try (SegmentedLog log = open()) {
            assertThat(log.verify().ok()).isFalse();
            Map<String, String> before = folder();
            seam.failAt(point, names);

            assertThatThrownBy(log::repair).isInstanceOf(StorageException.class).hasMessageContaining(dir().toString());

            assertThat(seam.failures()).as(what).isPositive();
            assertThat(folder()).as("the log's files").isEqualTo(before);
            assertThat(temps()).isEmpty();
            seam.heal();
            assertThat(log.repair().removed()).hasSize(1);
            assertThat(log.verify().ok()).isTrue();
            assertThat(ns(log)).containsExactly(0L, 2L, 3L);
        }
    }

    @ParameterizedTest
    @EnumSource(value = Point.class, names = {"APPEND", "APPEND_FSYNC"})
    void aFailedAppendLeavesTheSegmentAsItWas(Point point) throws IOException {
        StorageRecord kept;
        try (SegmentedLog log = open()) {
            kept = log.put(Map.of("n", 1L));
            Path segment = onlySegment();
            byte[] before = Files.readAllBytes(segment);
            seam.failAt(point, name -> name.startsWith(LogFiles.SEGMENTS + "/"));

            assertThatThrownBy(() -> log.put(Map.of("n", 2L)))
                    .isInstanceOf(StorageException.class)
                    .hasMessageContaining(segment.toString());

            assertThat(seam.failures()).as(point.name()).isPositive();
            assertThat(Files.readAllBytes(segment)).isEqualTo(before);
            assertThat(log.count()).isEqualTo(1);
            assertThat(log.get(kept.id())).contains(kept);
            seam.heal();
            log.put(Map.of("n", 3L));
        }
        try (SegmentedLog reopened = open()) {
            assertThat(reopened.stream().map(r -> r.data().get("n")).toList()).containsExactly(1L, 3L);
        }
    }

    @ParameterizedTest
    @EnumSource(value = Point.class, names = {"TEMP_WRITE", "FSYNC", "RENAME"})
    void aFailedManifestSwapKeepsTheOldManifest(Point point) throws IOException {
        Path manifest = root.resolve("events").resolve(LogFiles.MANIFEST);
        List<Object> before;
        byte[] manifestBefore;
        try (SegmentedLog log = open()) {
            StorageRecord a = log.put(Map.of("n", 1L));
            log.put(Map.of("n", 2L));
            log.delete(a.id());
            before = log.stream().map(r -> r.data().get("n")).toList();
            manifestBefore = Files.readAllBytes(manifest);
            seam.failAt(point, name -> name.equals(LogFiles.MANIFEST) || name.startsWith("." + LogFiles.MANIFEST + "."));

            assertThatThrownBy(log::compact)
                    .isInstanceOf(StorageException.class)
                    .hasMessageContaining(root.resolve("events").toString());

            assertThat(seam.failures()).as(point.name()).isPositive();
            assertThat(Files.readAllBytes(manifest)).isEqualTo(manifestBefore);
        }
        try (Stream<Path> files = Files.list(root.resolve("events"))) {
            assertThat(files.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".tmp")).toList()).isEmpty();
        }
        try (SegmentedLog reopened = open()) {
            assertThat(reopened.stream().map(r -> r.data().get("n")).toList()).isEqualTo(before);
            reopened.compact();
            assertThat(reopened.stream().map(r -> r.data().get("n")).toList()).isEqualTo(before);
        }
    }

    private Path onlySegment() throws IOException {
        try (Stream<Path> files = Files.list(root.resolve("events").resolve(LogFiles.SEGMENTS))) {
            List<Path> segments = files.filter(p -> p.getFileName().toString().endsWith(LogFiles.SEGMENT_SUFFIX)).toList();
            assertThat(segments).hasSize(1);
            return segments.get(0);
        }
    }
}
