package dev.storh.queue;

import static dev.storh.queue.QueueTestSupport.append;
import static dev.storh.queue.QueueTestSupport.framed;
import static dev.storh.queue.QueueTestSupport.id;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.storh.StorageException;
import dev.storh.StorageRecord;
import dev.storh.fs.FailingFiles;
import dev.storh.fs.FailingFiles.Point;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Every commit point of the queue driven through a failing byte seam: the append and its fsync of
 * enqueue, bulk enqueue (group commit, many threads), claim, complete and requeue; the temp write,
 * fsync, rename and folder fsync of a compaction (run by a write or called) and of a repair. Each
 * failure is a {@link StorageException} naming the queue's path, {@code queue.log} keeps its bytes
 * (a folder fsync after the rename leaves the same jobs in the new file), no temp file is left, the
 * queue works on once the seam heals, and nothing whose caller was told "failed" comes back after a
 * reopen.
 */
class QueueFaultTest {

    @TempDir
    Path root;

    private FailingFiles seam;

    private Queue open() {
        return open(QueueOptions.builder().autoCompact(false));
    }

    private Queue open(QueueOptions.Builder options) {
        return Queue.open(root, "jobs", options.files(dir -> seam = FailingFiles.at(dir)).build());
    }

    private Path log() {
        return root.resolve("jobs").resolve(QueueFiles.LOG_NAME);
    }

    @ParameterizedTest
    @EnumSource(value = Point.class, names = {"TEMP_WRITE", "FSYNC", "RENAME"})
    void aFailedCompactionSwapKeepsTheOldLog(Point point) throws IOException {
        Path log = log();
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

    @Test
    void aFolderFsyncFailureAfterTheCompactionRenameKeepsEveryJob() throws IOException {
        Map<String, String> before;
        try (Queue queue = open()) {
            seedThreeStates(queue);
            before = queue.maintenance.statusesForTesting();
            long size = Files.size(log());
            seam.failAt(Point.DIRECTORY_FSYNC, name -> true);
            assertThatThrownBy(queue::compact).isInstanceOf(StorageException.class)
                    .hasMessageContaining("Could not sync storage directory: " + root.resolve("jobs"));
            assertThat(temps()).isEmpty();
            assertThat(Files.size(log())).as("the rename happened").isLessThan(size);
            assertThat(queue.maintenance.statusesForTesting()).isEqualTo(before);
            seam.heal();
            assertThat(queue.verify().ok()).isTrue();
            queue.enqueue(Map.of("after", true), id(9));
            before = queue.maintenance.statusesForTesting();
        }
        try (Queue reopened = open()) {
            assertThat(reopened.maintenance.statusesForTesting()).isEqualTo(before);
        }
    }

    @ParameterizedTest
    @EnumSource(value = Point.class, names = {"APPEND", "APPEND_FSYNC"})
    void aFailedEnqueueLeavesTheLogAsItWasAndNeverComesBack(Point point) throws IOException {
        try (Queue queue = open()) {
            queue.enqueue(Map.of("n", 0L), id(0));
            byte[] before = Files.readAllBytes(log());
            List<String> files = folder();
            seam.failAt(point, QueueFiles.LOG_NAME::equals);
            assertThatThrownBy(() -> queue.enqueue(Map.of("n", 1L), id(1))).isInstanceOf(StorageException.class)
                    .hasMessageContaining("Could not write log queue file: " + log());
            assertThat(Files.readAllBytes(log())).isEqualTo(before);
            assertThat(folder()).isEqualTo(files);
            seam.heal();
            assertThat(queue.counts()).isEqualTo(new QueueCounts(1, 0, 0));
            queue.enqueue(Map.of("n", 2L), id(2));
        }
        try (Queue reopened = open()) {
            assertThat(reopened.maintenance.statusesForTesting()).containsOnlyKeys(id(0), id(2));
        }
    }

    @Test
    void whenTheRollBackFailsTooTheFailedBytesAreCutBeforeAnythingReadsThem() throws IOException {
        try (Queue queue = open()) {
            queue.enqueue(Map.of("n", 0L), id(0));
            byte[] before = Files.readAllBytes(log());
            seam.failAt(Set.of(Point.APPEND_FSYNC, Point.TRUNCATE), QueueFiles.LOG_NAME::equals);
            assertThatThrownBy(() -> queue.enqueue(Map.of("n", 1L), id(1))).isInstanceOf(StorageException.class)
                    .hasMessageContaining("Could not write log queue file: " + log())
                    .satisfies(e -> assertThat(e.getSuppressed()).singleElement().satisfies(s -> assertThat(s)
                            .hasMessageContaining("Could not roll back " + log())));
            assertThat(Files.size(log())).as("the failed bytes are still there").isGreaterThan(before.length);
            assertThatThrownBy(queue::counts).as("nothing reads them as events").isInstanceOf(StorageException.class)
                    .hasMessageContaining("Could not cut the failed write at byte " + before.length + " from " + log());
            seam.heal();
            assertThat(queue.counts()).isEqualTo(new QueueCounts(1, 0, 0));
            assertThat(Files.readAllBytes(log())).isEqualTo(before);
        }
        try (Queue reopened = open()) {
            assertThat(reopened.maintenance.statusesForTesting()).containsOnlyKeys(id(0));
        }
    }

    @Test
    void closingWithFailedBytesStillInTheLogCutsThem() throws IOException {
        Queue queue = open();
        queue.enqueue(Map.of("n", 0L), id(0));
        byte[] before = Files.readAllBytes(log());
        seam.failAt(Set.of(Point.APPEND_FSYNC, Point.TRUNCATE), QueueFiles.LOG_NAME::equals);
        assertThatThrownBy(() -> queue.enqueue(Map.of("n", 1L), id(1))).isInstanceOf(StorageException.class);
        seam.heal();
        queue.close();
        assertThat(Files.readAllBytes(log())).isEqualTo(before);
        try (Queue reopened = open()) {
            assertThat(reopened.maintenance.statusesForTesting()).containsOnlyKeys(id(0));
        }
    }

    @Test
    void aFailedGroupCommitFailsEveryCallerInItAndNoneOfTheirJobsComesBack() throws Exception {
        int threads = 8;
        try (Queue queue = open()) {
            queue.enqueue(Map.of("n", 0L), id(0));
            byte[] before = Files.readAllBytes(log());
            seam.failAt(Point.APPEND_FSYNC, QueueFiles.LOG_NAME::equals);
            CountDownLatch start = new CountDownLatch(1);
            AtomicInteger failed = new AtomicInteger();
            List<Thread> workers = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int n = t;
                Thread worker = new Thread(() -> {
                    try {
                        start.await();
                        queue.enqueueMany(List.of(Map.of("id", id(100 + 2 * n), "payload", Map.of("t", (long) n)),
                                Map.of("id", id(101 + 2 * n), "payload", Map.of("t", (long) n))));
                    } catch (StorageException e) {
                        if (e.getMessage().contains(root.resolve("jobs").toString())) {
                            failed.incrementAndGet();
                        }
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                });
                worker.start();
                workers.add(worker);
            }
            start.countDown();
            for (Thread worker : workers) {
                worker.join(60_000);
            }
            assertThat(failed.get()).as("every caller was told, naming the queue").isEqualTo(threads);
            assertThat(Files.readAllBytes(log())).isEqualTo(before);
            seam.heal();
            assertThat(queue.counts()).isEqualTo(new QueueCounts(1, 0, 0));
            assertThat(queue.enqueueMany(List.of(Map.of("id", id(1), "payload", Map.of())))).containsExactly(id(1));
        }
        try (Queue reopened = open()) {
            assertThat(reopened.maintenance.statusesForTesting()).containsOnlyKeys(id(0), id(1));
        }
    }

    @ParameterizedTest
    @EnumSource(value = Point.class, names = {"APPEND", "APPEND_FSYNC"})
    void failedClaimCompleteAndRequeueChangeNothing(Point point) throws IOException {
        try (Queue queue = open()) {
            seedThreeStates(queue);
            Map<String, String> statuses = queue.maintenance.statusesForTesting();
            byte[] before = Files.readAllBytes(log());
            List<Consumer<Queue>> calls = List.of(
                    q -> q.claim(),
                    q -> q.claimMany(5),
                    q -> q.complete(id(2)),
                    q -> q.completeMany(List.of(id(2))),
                    q -> q.requeueTimedOut(Duration.ZERO),
                    q -> q.retry(id(2), Duration.ofSeconds(5)),
                    q -> q.release(List.of(id(2))),
                    q -> q.purgeDone());
            for (int i = 0; i < calls.size(); i++) {
                Consumer<Queue> call = calls.get(i);
                seam.failAt(point, QueueFiles.LOG_NAME::equals);
                assertThatThrownBy(() -> call.accept(queue)).as("call " + i).isInstanceOf(StorageException.class)
                        .hasMessageContaining("Could not write log queue file: " + log());
                assertThat(Files.readAllBytes(log())).as("call " + i).isEqualTo(before);
                seam.heal();
                assertThat(queue.maintenance.statusesForTesting()).as("call " + i).isEqualTo(statuses);
            }
            assertThat(temps()).isEmpty();
            StorageRecord claimed = queue.claim().orElseThrow();
            assertThat(claimed.id()).isEqualTo(id(3));
            queue.complete(claimed.id());
        }
        try (Queue reopened = open()) {
            assertThat(reopened.counts()).isEqualTo(new QueueCounts(0, 1, 2));
        }
    }

    @ParameterizedTest
    @EnumSource(value = Point.class, names = {"TEMP_WRITE", "FSYNC", "RENAME", "DIRECTORY_FSYNC"})
    void aCompactionThatFailsInsideAWriteLeavesTheWriteDurable(Point point) throws IOException {
        try (Queue queue = open()) {
            for (int i = 0; i < 40; i++) {
                queue.enqueue(Map.of("n", (long) i), id(i));
            }
            queue.claimMany(40).forEach(job -> queue.complete(job.id(), false));
        }
        try (Queue queue = open(QueueOptions.builder().compactionThresholdBytes(0))) {
            long size = Files.size(log());
            seam.failAt(point, name -> true); // only the compaction's steps reach this point
            String kept = queue.enqueue(Map.of("kept", true), id(50));
            seam.heal();
            assertThat(seam.failures()).as(point.name()).isPositive();
            assertThat(temps()).isEmpty();
            if (point == Point.DIRECTORY_FSYNC) {
                assertThat(Files.size(log())).as("renamed before the folder fsync failed").isLessThan(size);
            } else {
                assertThat(Files.size(log())).as("the old log and the enqueue").isGreaterThan(size);
            }
            assertThat(queue.maintenance.statusesForTesting()).containsOnlyKeys(kept);
            assertThat(queue.verify().ok()).isTrue();
        }
        try (Queue reopened = open()) {
            assertThat(reopened.claim().orElseThrow().id()).isEqualTo(id(50));
        }
    }

    @ParameterizedTest
    @EnumSource(value = Point.class, names = {"TEMP_WRITE", "FSYNC", "RENAME"})
    void aFailedRepairKeepsTheLogAndCanBeRunAgain(Point point) throws IOException {
        Path log = log();
        try (Queue queue = open()) {
            queue.enqueue(Map.of("n", 0L), id(0));
            append(log, "damaged line\n"); // followed by a good event: damage inside the log
            append(log, framed("{\"op\":\"enqueue\",\"id\":\"" + id(1) + "\",\"payload\":{\"n\":1},\"ts\":1}"));
            byte[] before = Files.readAllBytes(log);
            seam.failAt(point, name -> name.startsWith("." + QueueFiles.LOG_NAME + ".")
                    || name.startsWith(QueueFiles.LOG_NAME + ".cut-") || name.equals(QueueFiles.LOG_NAME));
            assertThatThrownBy(queue::repair).isInstanceOf(StorageException.class)
                    .hasMessageContaining(root.resolve("jobs").toString());
            assertThat(Files.readAllBytes(log)).isEqualTo(before);
            assertThat(temps()).isEmpty();
            seam.heal();
            nextMillisecond(); // a second side file of the same stretch gets a name of its own
            assertThat(queue.counts()).isEqualTo(new QueueCounts(2, 0, 0));
            assertThat(queue.repair().removed()).singleElement().satisfies(r -> assertThat(r).contains(log + ":"));
            assertThat(queue.verify().errors()).isEmpty();
        }
        try (Queue reopened = open()) {
            assertThat(reopened.maintenance.statusesForTesting()).containsOnlyKeys(id(0), id(1));
        }
    }

    @ParameterizedTest
    @EnumSource(value = Point.class, names = {"TEMP_WRITE", "FSYNC", "TRUNCATE"})
    void aFailedCutOfABadTailKeepsTheTailAndFailsTheWrite(Point point) throws IOException {
        Path log = log();
        try (Queue queue = open()) {
            queue.enqueue(Map.of("n", 0L), id(0));
            byte[] tail = ("broken\n" + new String(framed("{\"op\":\"bogus\"}"), StandardCharsets.UTF_8))
                    .getBytes(StandardCharsets.UTF_8);
            append(log, tail); // a crashed writer's leftover: the next write cuts it, keeping it aside
            byte[] before = Files.readAllBytes(log);
            seam.failAt(point, name -> name.startsWith(QueueFiles.LOG_NAME));
            assertThatThrownBy(() -> queue.enqueue(Map.of("n", 1L), id(1))).isInstanceOf(StorageException.class)
                    .hasMessageContaining(root.resolve("jobs").toString());
            assertThat(Files.readAllBytes(log)).isEqualTo(before);
            assertThat(cuts()).as("no half-written side file").allSatisfy(c -> assertThat(root.resolve("jobs")
                    .resolve(c)).hasBinaryContent(tail));
            seam.heal();
            nextMillisecond();
            queue.enqueue(Map.of("n", 1L), id(1));
            assertThat(queue.verify().errors()).isEmpty();
        }
        try (Queue reopened = open()) {
            assertThat(reopened.maintenance.statusesForTesting()).containsOnlyKeys(id(0), id(1));
        }
    }

    private static void nextMillisecond() {
        long now = System.currentTimeMillis();
        while (System.currentTimeMillis() == now) {
            Thread.onSpinWait();
        }
    }

    private void seedThreeStates(Queue queue) {
        queue.enqueue(Map.of("n", 1L), id(1));
        queue.enqueue(Map.of("n", 2L), id(2));
        queue.enqueue(Map.of("n", 3L), id(3));
        queue.claim();
        queue.complete(id(1));
        queue.claim(); // id(2) processing, id(3) pending
    }

    private List<String> folder() throws IOException {
        try (Stream<Path> files = Files.list(root.resolve("jobs"))) {
            return files.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }

    private List<String> temps() throws IOException {
        return folder().stream().filter(n -> n.endsWith(".tmp")).toList();
    }

    private List<String> cuts() throws IOException {
        return folder().stream().filter(n -> n.startsWith(QueueFiles.LOG_NAME + ".cut-")).toList();
    }
}
