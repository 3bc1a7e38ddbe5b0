package dev.storh.queue;

import static org.assertj.core.api.Assertions.assertThat;

import dev.storh.StorageRecord;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Real worker JVMs on one queue ({@code spec/log-queue.md} §3.5, statement 37, and the "done when"). */
class QueueMultiProcessIntegrationTest {

    @TempDir
    Path root;

    private ProcessBuilder worker(String... args) {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> command = new ArrayList<>(List.of(java, "-Xmx256m", "-cp", System.getProperty("java.class.path"),
                QueueWorkerMain.class.getName()));
        command.addAll(List.of(args));
        return new ProcessBuilder(command);
    }

    private static List<Map<String, Object>> jobs(int n) {
        List<Map<String, Object>> jobs = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            jobs.add(Map.of("task", "render", "i", (long) i));
        }
        return jobs;
    }

    /** Two JVMs × 8 threads claim and complete 20,000 jobs; auto-compaction runs meanwhile. */
    @Test // 37, issue "done when" 2
    void twoJvmsWithEightThreadsEachCompleteEveryJobExactlyOnce() throws Exception {
        int total = 20_000;
        List<String> ids;
        try (Queue queue = Queue.open(root, "jobs")) {
            ids = queue.enqueueMany(jobs(total));
        }
        long started = System.nanoTime();
        List<Process> processes = new ArrayList<>();
        for (int p = 0; p < 2; p++) {
            processes.add(worker("work", root.toString(), "jobs", "8", root.resolve("claimed-" + p + ".txt").toString())
                    .redirectErrorStream(true).redirectOutput(root.resolve("worker-" + p + ".log").toFile()).start());
        }
        for (int p = 0; p < 2; p++) {
            assertThat(processes.get(p).waitFor(120, TimeUnit.SECONDS)).isTrue();
            assertThat(processes.get(p).exitValue()).as(Files.readString(root.resolve("worker-" + p + ".log"))).isZero();
        }
        long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
        System.out.println("2 JVMs x 8 threads: " + total + " claim+complete in " + millis + " ms");

        Map<String, Integer> claims = new HashMap<>();
        int[] perProcess = new int[2];
        for (int p = 0; p < 2; p++) {
            for (String id : Files.readAllLines(root.resolve("claimed-" + p + ".txt"))) {
                claims.merge(id, 1, Integer::sum);
                perProcess[p]++;
            }
        }
        assertThat(claims.values()).as("no job claimed twice").allMatch(n -> n == 1);
        assertThat(claims.keySet()).as("no job lost").isEqualTo(new HashSet<>(ids));
        assertThat(perProcess[0]).as("both processes took part").isPositive();
        assertThat(perProcess[1]).isPositive();
        try (Queue queue = Queue.open(root, "jobs")) {
            assertThat(queue.counts()).isEqualTo(new QueueCounts(0, 0, total));
            assertThat(queue.verify().ok()).isTrue();
            assertThat(queue.stats().bytes()).as("compaction kept the log near the live size (one line per done job)")
                    .isLessThan(3L * 100 * total);
        }
    }

    /** kill -9 of a worker mid-batch: after requeueTimedOut every unfinished job is claimable, no completed one. */
    @Test // issue "done when" 3
    void aKilledWorkersUnfinishedJobsComeBackAndItsCompletedOnesDoNot() throws Exception {
        int total = 500;
        List<String> ids;
        try (Queue queue = Queue.open(root, "jobs")) {
            ids = queue.enqueueMany(jobs(total));
        }
        Process child = worker("crash", root.toString(), "jobs").redirectErrorStream(true).start();
        Set<String> reportedDone = new HashSet<>();
        BufferedReader out = new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8));
        for (String line = out.readLine(); line != null; line = out.readLine()) {
            if (line.startsWith("done ")) {
                reportedDone.add(line.substring(5));
                if (reportedDone.size() == 110) { // mid-batch: 4 batches of 25 done, 10 into the fifth
                    break;
                }
            }
        }
        child.destroyForcibly();
        assertThat(child.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(reportedDone).hasSize(110);

        try (Queue queue = Queue.open(root, "jobs")) {
            QueueCounts afterCrash = queue.counts();
            assertThat(afterCrash.done()).as("every acknowledged completion is durable").isGreaterThanOrEqualTo(110);
            assertThat(afterCrash.processing()).as("the killed worker held claims").isPositive();
            assertThat(afterCrash.pending() + afterCrash.processing() + afterCrash.done()).isEqualTo(total);

            assertThat(queue.requeueTimedOut(Duration.ZERO)).isEqualTo((int) afterCrash.processing());
            List<StorageRecord> claimable = queue.claimMany(total);
            Set<String> claimableIds = new HashSet<>();
            claimable.forEach(r -> claimableIds.add(r.id()));
            assertThat(claimableIds).doesNotContainAnyElementsOf(reportedDone);
            assertThat(claimableIds).hasSize((int) (total - afterCrash.done()));
            Set<String> all = new HashSet<>(claimableIds);
            assertThat(queue.completeMany(claimableIds)).isEqualTo(claimableIds.size());
            assertThat(queue.counts()).isEqualTo(new QueueCounts(0, 0, total));
            all.addAll(reportedDone);
            assertThat(ids).containsAll(all);
            assertThat(queue.verify().ok()).isTrue();
        }
    }
}
