package dev.storh.log;

import static dev.storh.log.LogTestSupport.id;
import static dev.storh.log.LogTestSupport.opts;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.storh.StorageException;
import dev.storh.store.CompactReport;
import dev.storh.store.Store;
import dev.storh.store.StoreKind;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A SegmentedLog seen through the store contract: its kind, name and folder, and the shared report
 * shapes of verify, repair and compact with the log's own parts.
 */
class SegmentedLogStoreContractTest {

    @TempDir
    Path root;

    @Test
    void aLogIsAStoreOfKindLogNamedByItsCollectionPath() {
        try (Store<?, ?, ?> store = SegmentedLog.open(root, "audit/2026")) {
            assertThat(store.kind()).isEqualTo(StoreKind.LOG);
            assertThat(store.kind().label()).isEqualTo("log");
            assertThat(store.name()).isEqualTo("audit/2026");
            assertThat(store.directory()).isEqualTo(root.toAbsolutePath().normalize().resolve("audit/2026"));
            assertThat(store.stats().records()).isZero();
            assertThat(store.verify().toMap()).isEqualTo(Map.of("ok", true, "errors", List.of(),
                    "stats", Map.of("segments", 1L, "records", 0L, "deleted", 0L, "bytes", 0L)));
        }
    }

    @Test
    void aPartitionedLogKeepsItsCollectionNameAndLivesInThePartitionFolder() {
        long ms = java.time.Instant.parse("2026-12-01T00:00:00Z").toEpochMilli();
        SegmentedLogOptions options = SegmentedLogOptions.builder().partition(LogPartition.DAILY)
                .partitionTimestampMs(ms).build();
        try (SegmentedLog log = SegmentedLog.open(root, "events", options)) {
            assertThat(log.name()).isEqualTo("events");
            assertThat(log.directory()).isEqualTo(root.toAbsolutePath().resolve("events/partitions/2026-12-01"));
            assertThat(log.directory().resolve(LogFiles.MANIFEST)).isRegularFile();
        }
    }

    @Test
    void theCommonOptionsComeFromTheStoreOptionsBase() {
        SegmentedLogOptions options = SegmentedLogOptions.builder().lockTimeout(Duration.ofMillis(250))
                .idGenerator(() -> id(7)).maxSegmentBytes(4096).build();
        assertThat(options.lockTimeout()).isEqualTo(Duration.ofMillis(250));
        assertThat(options.maxSegmentBytes()).isEqualTo(4096);
        try (SegmentedLog log = SegmentedLog.open(root, "events", options)) {
            assertThat(log.put(Map.of("n", 1L)).id()).isEqualTo(id(7));
        }
    }

    @Test
    void compactReportsTheBytesAndSegmentsBeforeAndAfter() {
        try (SegmentedLog log = SegmentedLog.open(root, "events", opts(512, 2))) {
            for (int i = 0; i < 10; i++) {
                log.put(Map.of("n", (long) i, "pad", "x".repeat(40)), id(i));
            }
            for (int i = 0; i < 8; i++) {
                log.delete(id(i));
            }
            LogStats before = log.stats();
            CompactReport<LogCompaction> report = log.compact();
            LogStats after = log.stats();

            assertThat(report.ok()).isTrue();
            assertThat(report.bytesBefore()).isEqualTo(before.bytes());
            assertThat(report.bytesAfter()).isEqualTo(after.bytes()).isLessThan(before.bytes()).isPositive();
            assertThat(report.details().segmentsBefore()).isEqualTo(before.segments() + 1); // the roll added one
            assertThat(report.details().segmentsAfter()).isEqualTo(after.segments());
            assertThat(report.details().stats()).isEqualTo(after);
            assertThat(after.records()).isEqualTo(2);
            assertThat(report.toMap().keySet()).containsExactly("ok", "bytesBefore", "bytesAfter", "segmentsBefore",
                    "segmentsAfter", "stats");
            assertThat(report.toMap()).containsEntry("bytesAfter", after.bytes()).containsEntry("stats", after.toMap());
        }
    }

    @Test
    void repairKeepsItsJsonShape() throws Exception {
        Path segment;
        try (SegmentedLog log = SegmentedLog.open(root, "events")) {
            log.put(Map.of("n", 1L), id(1));
            segment = log.directory().resolve(LogFiles.SEGMENTS).resolve(LogFiles.segmentName(1));
        }
        Files.write(segment, "17\tdeadbeef\t{\"torn".getBytes(), java.nio.file.StandardOpenOption.APPEND);
        long torn = Files.size(segment);
        try (SegmentedLog log = SegmentedLog.open(root, "events")) {
            Map<String, Object> map = log.repair().toMap();
            assertThat(map.keySet()).containsExactly("ok", "stats", "bytesCut");
            assertThat(map).containsEntry("ok", true).containsEntry("bytesCut", 0L) // the open cut it already
                    .containsEntry("stats", Map.of("segments", 1L, "records", 1L, "deleted", 0L,
                            "bytes", Files.size(segment)));
            assertThat(Files.size(segment)).isLessThan(torn);
        }
    }

    @Test
    void badNamesAreRefusedWithTheLogMessage() {
        assertThatThrownBy(() -> SegmentedLog.open(root, "a//b")).isInstanceOf(StorageException.class)
                .hasMessage("Invalid log collection name: \"a//b\" (names separated by '/'; empty names, '.', '..',"
                        + " '\\' and NUL are refused)");
        assertThatThrownBy(() -> SegmentedLog.open(null, "events")).isInstanceOf(StorageException.class)
                .hasMessageContaining("root must not be null");
    }
}
