package dev.storh.log;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.storh.StorageException;
import dev.storh.StorageRecord;
import dev.storh.fs.FailingFiles;
import dev.storh.fs.FailingFiles.Point;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Appends and manifest swaps of a SegmentedLog driven through a failing byte seam: the error is a
 * {@link StorageException} naming the file, the segment and manifest keep their old bytes, and the
 * log works again once the seam heals.
 */
class SegmentedLogFaultTest {

    @TempDir
    Path root;

    private FailingFiles seam;

    private SegmentedLog open() {
        return SegmentedLog.open(root, "events",
                SegmentedLogOptions.builder().files(dir -> seam = FailingFiles.at(dir)).build());
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
