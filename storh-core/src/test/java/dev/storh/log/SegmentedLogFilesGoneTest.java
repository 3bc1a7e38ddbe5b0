package dev.storh.log;

import static dev.storh.log.LogTestSupport.id;
import static dev.storh.log.LogTestSupport.ids;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.storh.StorageException;
import dev.storh.fs.AtomicFiles;
import dev.storh.fs.DevFullFiles;
import dev.storh.store.VerifyReport;
import dev.storh.store.RepairReport;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Files that vanish or linger behind an open log: a deleted folder makes writes fail loudly instead of
 * going to unlinked files; orphan temp files of crashed writers are swept at open and by repair; a write
 * whose rollback fails reports both failures.
 */
class SegmentedLogFilesGoneTest {

    @TempDir
    Path root;

    @Test
    void aWriteAfterTheFolderWasDeletedThrowsNamingThePathAndStoresNothingSilently() throws Exception {
        try (SegmentedLog log = SegmentedLog.open(root, "events")) {
            log.put(Map.of("n", 0L), id(0));
            AtomicFiles.deleteTree(root.resolve("events"));
            for (int i = 1; i <= 5; i++) {
                int n = i;
                assertThatThrownBy(() -> log.put(Map.of("n", (long) n), id(n))).isInstanceOf(StorageException.class)
                        .hasMessageContaining(root.resolve("events").toString());
            }
            VerifyReport<LogStats> report = log.verify();
            assertThat(report.ok()).isFalse();
            assertThat(report.errors()).anySatisfy(e -> assertThat(e).contains(root.resolve("events").toString()));

            // A new instance on the recreated folder works; the old one keeps refusing to write.
            try (SegmentedLog fresh = SegmentedLog.open(root, "events")) {
                fresh.put(Map.of("n", 7L), id(7));
                assertThat(ids(fresh.stream())).containsExactly(id(7));
                assertThatThrownBy(() -> log.put(Map.of("n", 8L), id(8))).isInstanceOf(StorageException.class)
                        .hasMessageContaining("collection.lock");
                assertThat(ids(fresh.stream())).containsExactly(id(7));
            }
        }
    }

    @Test
    void aWriteAfterTheActiveSegmentWasDeletedThrowsInsteadOfWritingIntoTheVoid() throws Exception {
        try (SegmentedLog log = SegmentedLog.open(root, "events")) {
            log.put(Map.of("n", 0L), id(0));
            Path active = log.state().path(log.state().active.file);
            Files.delete(active);
            assertThatThrownBy(() -> log.put(Map.of("n", 1L), id(1))).isInstanceOf(StorageException.class)
                    .hasMessageContaining(active.toString());
        }
        try (SegmentedLog log = SegmentedLog.open(root, "events")) {
            assertThat(log.get(id(1))).isEmpty();
            log.put(Map.of("n", 2L), id(2));
            assertThat(ids(log.stream())).containsExactly(id(2));
        }
    }

    private static Path orphan(Path file) throws Exception {
        Files.createDirectories(file.getParent());
        Files.writeString(file, "half written");
        Files.setLastModifiedTime(file, FileTime.from(Instant.now())); // young: the 60 s rule would keep it
        return file;
    }

    @Test
    void orphanTempFilesOfTheLogAreSweptAtOpenAfterACrashAndByRepair() throws Exception {
        try (SegmentedLog log = SegmentedLog.open(root, "events", LogTestSupport.opts(512, 2))) {
            for (int i = 0; i < 12; i++) {
                log.put(Map.of("n", (long) i), id(i));
            }
        }
        Path dir = root.resolve("events");
        List<Path> temps = List.of(
                orphan(dir.resolve("segments/.seg-000001.idx.jsonc.0123456789ab.tmp")),
                orphan(dir.resolve("segments/.compact-deadbeef-000001.idx.jsonc.0123456789ab.tmp")),
                orphan(dir.resolve(".manifest.jsonc.0123456789ab.tmp")));
        Files.writeString(dir.resolve(".storh/writers/99999999.deadbeef"), ""); // a writer that crashed
        Assumptions.assumeFalse(ProcessHandle.of(99999999L).isPresent(), "pid 99999999 is alive here");
        try (SegmentedLog log = SegmentedLog.open(root, "events", LogTestSupport.opts(512, 2))) {
            assertThat(temps).allSatisfy(t -> assertThat(t).doesNotExist());
            assertThat(log.verify().ok()).isTrue();
            for (Path t : temps) {
                orphan(t);
            }
            RepairReport<LogRepair> report = log.repair();
            assertThat(report.ok()).isTrue();
            assertThat(temps).allSatisfy(t -> assertThat(t).doesNotExist());
            assertThat(log.count()).isEqualTo(12);
        }
        try (Stream<Path> files = Files.list(dir.resolve(".storh/writers"))) {
            assertThat(files).isEmpty();
        }
    }

    @Test
    void aFailedAppendWhoseRollbackFailsTooReportsBoth() throws Exception {
        Path full = Path.of("/dev/full");
        Assumptions.assumeTrue(Files.isWritable(full), "/dev/full is needed (Linux) to make writes fail for real");
        // appends to the segments reach /dev/full: writes fail with ENOSPC; truncating a device fails too
        java.util.concurrent.atomic.AtomicBoolean armed = new java.util.concurrent.atomic.AtomicBoolean();
        SegmentedLogOptions options = SegmentedLogOptions.builder()
                .files(dir -> DevFullFiles.at(dir, name -> armed.get() && name.startsWith(LogFiles.SEGMENTS + "/"))).build();
        try (SegmentedLog log = SegmentedLog.open(root, "events", options)) {
            Path active = log.state().path(log.state().active.file);
            armed.set(true);
            assertThatThrownBy(() -> log.put(Map.of("n", 0L), id(0))).isInstanceOf(StorageException.class)
                    .hasMessageContaining(active.toString()).hasMessageContaining("No space left")
                    .satisfies(e -> assertThat(e.getSuppressed()).singleElement().satisfies(s -> assertThat(s)
                            .hasMessageContaining("Could not roll back").hasMessageContaining(active.toString())
                            .hasCauseInstanceOf(java.io.IOException.class)));
        }
    }
}
