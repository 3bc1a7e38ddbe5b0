package dev.storh.queue;

import static dev.storh.queue.QueueTestSupport.id;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.storh.StorageException;
import dev.storh.fs.AtomicFiles;
import dev.storh.fs.DevFullFiles;
import dev.storh.store.VerifyReport;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Files that vanish or linger behind an open queue: a deleted folder makes writes fail naming the path;
 * compaction temp files are swept by repair; a failed append whose rollback fails reports both; verify
 * keeps the cause and the path of what it could not read.
 */
class QueueFilesGoneTest {

    @TempDir
    Path root;

    @Test
    void aWriteAfterTheFolderWasDeletedThrowsNamingThePath() {
        try (Queue q = Queue.open(root, "jobs")) {
            q.enqueue(Map.of("n", 0L), id(0));
            AtomicFiles.deleteTree(root.resolve("jobs"));
            for (int i = 1; i <= 5; i++) {
                int n = i;
                assertThatThrownBy(() -> q.enqueue(Map.of("n", (long) n), id(n))).isInstanceOf(StorageException.class)
                        .hasMessageContaining(root.resolve("jobs").toString());
            }
            try (Queue fresh = Queue.open(root, "jobs")) {
                fresh.enqueue(Map.of("n", 7L), id(7));
                assertThatThrownBy(() -> q.enqueue(Map.of("n", 8L), id(8))).isInstanceOf(StorageException.class)
                        .hasMessageContaining("queue.lock");
                assertThat(fresh.counts()).isEqualTo(new QueueCounts(1, 0, 0));
                assertThat(fresh.claim().orElseThrow().id()).isEqualTo(id(7));
            }
        }
    }

    @Test
    void repairSweepsCompactionTempFilesLeftByACrash() throws Exception {
        try (Queue q = Queue.open(root, "jobs")) {
            q.enqueue(Map.of("n", 0L), id(0));
            Path temp = root.resolve("jobs/.queue.log.0123456789ab.tmp");
            Files.writeString(temp, "half a compaction");
            q.repair();
            assertThat(temp).doesNotExist();
            assertThat(q.counts()).isEqualTo(new QueueCounts(1, 0, 0));
        }
    }

    @Test
    void aFailedAppendWhoseRollbackFailsTooReportsBoth() throws Exception {
        Path full = Path.of("/dev/full");
        Assumptions.assumeTrue(Files.isWritable(full), "/dev/full is needed (Linux) to make writes fail for real");
        Path log = root.resolve("jobs/queue.log");
        Files.createDirectories(log.getParent());
        Files.createFile(log);
        // appends to queue.log reach /dev/full: writes fail with ENOSPC; truncating a device fails too
        QueueOptions options = QueueOptions.builder().files(dir -> DevFullFiles.at(dir, QueueFiles.LOG_NAME::equals)).build();
        try (Queue q = Queue.open(root, "jobs", options)) {
            assertThatThrownBy(() -> q.enqueue(Map.of("n", 0L), id(0))).isInstanceOf(StorageException.class)
                    .hasMessageContaining("Could not write log queue file: " + log)
                    .hasRootCauseMessage("No space left on device")
                    .satisfies(e -> assertThat(e.getSuppressed()).singleElement().satisfies(s -> assertThat(s)
                            .hasMessageContaining("Could not roll back " + log).hasCauseInstanceOf(java.io.IOException.class)));
        }
    }

    @Test
    void verifyKeepsTheCauseAndThePathOfWhatItCouldNotRead() throws Exception {
        try (Queue q = Queue.open(root, "jobs")) {
            q.enqueue(Map.of("n", 0L), id(0));
            Path log = root.resolve("jobs/queue.log");
            Files.delete(log);
            Files.createDirectory(log); // a folder where the log should be
            VerifyReport<QueueStats> report = q.verify();
            assertThat(report.ok()).isFalse();
            assertThat(report.errors()).allSatisfy(e -> assertThat(e).startsWith("Could not read log queue file.")
                    .contains(log.toString()));
            assertThat(report.errors().get(0)).contains("IOException");
        }
    }
}
