package dev.storh.log;

import static dev.storh.log.LogTestSupport.id;
import static dev.storh.log.LogTestSupport.ids;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Torn tails and damaged lines ({@code spec/log-queue.md} §2.11, statement 4, weak spots W6–W8). */
class SegmentedLogRecoveryTest {

    @TempDir
    Path root;

    private Path active() {
        return root.resolve("events/segments/seg-000001.ndjson");
    }

    private void writeThree() {
        try (SegmentedLog log = SegmentedLog.open(root, "events")) {
            for (int i = 0; i < 3; i++) {
                log.put(Map.of("n", (long) i), id(i));
            }
        }
    }

    @Test
    void reopenCutsExactlyATornHalfLine() throws Exception {
        writeThree();
        byte[] before = Files.readAllBytes(active());
        byte[] next = LogLine.encodePut(id(3), Map.of("n", 3L));
        Files.write(active(), Arrays.copyOf(next, next.length / 2), StandardOpenOption.APPEND);
        try (SegmentedLog log = SegmentedLog.open(root, "events")) {
            assertThat(Files.readAllBytes(active())).isEqualTo(before);
            assertThat(ids(log.stream())).containsExactly(id(0), id(1), id(2));
            assertThat(log.verify().ok()).isTrue();
            log.put(Map.of("n", 4L), id(4));
        }
        try (SegmentedLog log = SegmentedLog.open(root, "events")) {
            assertThat(ids(log.stream())).containsExactly(id(0), id(1), id(2), id(4));
        }
    }

    @Test // statement 4
    void aCorruptLastLineAndLeftoverFoldersAreRemovedAtOpen() throws Exception {
        try (SegmentedLog log = SegmentedLog.open(root, "events")) {
            log.put(Map.of("n", 0L), id(0));
        }
        long size = Files.size(active());
        Files.write(active(), "99\tbad\t{\"op\":\"put\"\n".getBytes(StandardCharsets.UTF_8), StandardOpenOption.APPEND);
        Files.createDirectories(root.resolve("events/segments.compact-leftover/inner"));
        Files.writeString(root.resolve("events/segments.compact-leftover/inner/f.ndjson"), "x");
        try (SegmentedLog log = SegmentedLog.open(root, "events")) {
            assertThat(log.get(id(0)).orElseThrow().data()).isEqualTo(Map.of("n", 0L));
            assertThat(ids(log.stream())).hasSize(1);
            assertThat(Files.size(active())).isEqualTo(size);
            assertThat(root.resolve("events/segments.compact-leftover")).doesNotExist();
        }
    }

    @Test // W6: a damaged line followed by valid ones is skipped, not cut with everything after it
    void aDamagedLineInsideASegmentKeepsTheLinesAfterIt() throws Exception {
        writeThree();
        byte[] bytes = Files.readAllBytes(active());
        int secondLine = indexOf(bytes, (byte) '\n', 0) + 1;
        bytes[secondLine + 20] ^= 0x01; // flip a bit inside line 2's JSON: its checksum no longer matches
        Files.write(active(), bytes);
        try (SegmentedLog log = SegmentedLog.open(root, "events")) {
            assertThat(Files.readAllBytes(active())).isEqualTo(bytes);
            assertThat(log.get(id(0))).isPresent();
            assertThat(log.get(id(2))).isPresent();
            assertThat(log.count()).isEqualTo(2);
            assertThat(log.verify().errors()).singleElement()
                    .satisfies(e -> assertThat(e).contains("Corrupt").contains(":" + secondLine));
        }
    }

    @Test // W7: a complete last line without LF keeps its record and gets its LF before the next append
    void aValidLastLineWithoutLineFeedGetsOne() throws Exception {
        writeThree();
        byte[] next = LogLine.encodePut(id(3), Map.of("n", 3L));
        Files.write(active(), Arrays.copyOf(next, next.length - 1), StandardOpenOption.APPEND);
        try (SegmentedLog log = SegmentedLog.open(root, "events")) {
            assertThat(log.get(id(3)).orElseThrow().data()).isEqualTo(Map.of("n", 3L));
            log.put(Map.of("n", 4L), id(4));
        }
        try (SegmentedLog log = SegmentedLog.open(root, "events")) {
            assertThat(ids(log.stream())).containsExactly(id(0), id(1), id(2), id(3), id(4));
            assertThat(log.verify().ok()).isTrue();
        }
    }

    @Test // W8: a live instance repairs a peer's torn tail before appending after it
    void aLiveWriterCutsAPeersTornTailBeforeAppending() throws Exception {
        try (SegmentedLog log = SegmentedLog.open(root, "events")) {
            log.put(Map.of("n", 0L), id(0));
            byte[] torn = LogLine.encodePut(id(1), Map.of("n", 1L));
            Files.write(active(), Arrays.copyOf(torn, 30), StandardOpenOption.APPEND);
            log.put(Map.of("n", 2L), id(2));
            log.put(Map.of("n", 3L), id(3));
            assertThat(ids(log.stream())).containsExactly(id(0), id(2), id(3));
        }
        try (SegmentedLog log = SegmentedLog.open(root, "events")) {
            assertThat(ids(log.stream())).containsExactly(id(0), id(2), id(3));
            assertThat(log.verify().ok()).isTrue();
        }
    }

    private static int indexOf(byte[] b, byte v, int from) {
        for (int i = from; i < b.length; i++) {
            if (b[i] == v) {
                return i;
            }
        }
        return -1;
    }
}
