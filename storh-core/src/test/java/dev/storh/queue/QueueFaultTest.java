package dev.storh.queue;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.storh.StorageException;
import dev.storh.fs.FailingFiles;
import dev.storh.fs.FailingFiles.Point;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The queue's compaction swap (temp write, fsync, rename of {@code queue.log}) driven through a
 * failing byte seam: the error is a {@link StorageException} naming the file, {@code queue.log}
 * keeps its old bytes and jobs, no temp file is left, and the queue works on once the seam heals.
 */
class QueueFaultTest {

    @TempDir
    Path root;

    private FailingFiles seam;

    private Queue open() {
        return Queue.open(root, "jobs", QueueOptions.builder().autoCompact(false)
                .files(dir -> seam = FailingFiles.at(dir)).build());
    }

    @ParameterizedTest
    @EnumSource(value = Point.class, names = {"TEMP_WRITE", "FSYNC", "RENAME"})
    void aFailedCompactionSwapKeepsTheOldLog(Point point) throws IOException {
        Path log = root.resolve("jobs").resolve(QueueFiles.LOG_NAME);
        byte[] before;
        String waiting;
        try (Queue queue = open()) {
            String done = queue.enqueue(Map.of("n", 1L));
            waiting = queue.enqueue(Map.of("n", 2L));
            assertThat(queue.claim().orElseThrow().id()).isEqualTo(done);
            queue.complete(done);
            before = Files.readAllBytes(log);
            seam.failAt(point, name -> name.startsWith("." + QueueFiles.LOG_NAME + ".")
                    || name.equals(QueueFiles.LOG_NAME));

            assertThatThrownBy(queue::compact)
                    .isInstanceOf(StorageException.class)
                    .hasMessageContaining(root.resolve("jobs").toString());

            assertThat(seam.failures()).as(point.name()).isPositive();
            assertThat(Files.readAllBytes(log)).isEqualTo(before);
            assertThat(temps()).isEmpty();
            assertThat(queue.counts().pending()).isEqualTo(1);
            seam.heal();
            queue.compact();
            assertThat(Files.size(log)).isLessThan(before.length);
        }
        try (Queue reopened = open()) {
            assertThat(reopened.claim().orElseThrow().id()).isEqualTo(waiting);
        }
    }

    private java.util.List<String> temps() throws IOException {
        try (Stream<Path> files = Files.list(root.resolve("jobs"))) {
            return files.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".tmp")).toList();
        }
    }
}
