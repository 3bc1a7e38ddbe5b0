package dev.storh.spring.listener;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.storh.queue.Queue;
import dev.storh.queue.QueueCounts;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * {@code kill -9} of an application mid-processing, then a restart: every job is processed at
 * least once and completed exactly once, none is lost, none is left processing once the
 * processing timeout has passed. The application is a real child JVM ({@link ListenerChildApp}).
 */
class StorhListenerCrashTests {

    private static final int JOBS = 400;

    private static final Pattern COMPLETE = Pattern.compile("\"op\":\"complete\",\"id\":\"([0-9a-f-]{36})\"");

    @TempDir
    Path root;

    private Process start(Path processed, Path output) throws IOException {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> command = List.of(java, "-cp", System.getProperty("java.class.path"),
                ListenerChildApp.class.getName(), "--storh.root=" + this.root, "--test.processed=" + processed,
                "--test.work-ms=25", "--storh.queues.jobs.processing-timeout=1s",
                "--storh.queues.jobs.listener.requeue-interval=500ms", "--logging.level.root=WARN");
        return new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(output.toFile()).start();
    }

    private static long lines(Path file) throws IOException {
        return Files.exists(file) ? Files.readAllLines(file).size() : 0;
    }

    @Test
    void killedMidProcessingThenRestartedEveryJobIsCompletedExactlyOnce() throws Exception {
        List<String> ids;
        List<Map<String, Object>> payloads = new ArrayList<>();
        for (int i = 0; i < JOBS; i++) {
            payloads.add(Map.of("n", (long) i));
        }
        try (Queue jobs = Queue.open(this.root, "jobs")) {
            ids = jobs.enqueueMany(payloads);
        }
        Path processed = this.root.resolve("processed.txt");
        Path output1 = this.root.resolve("child-1.out");
        Process first = start(processed, output1);
        QueueCounts atKill;
        try {
            await().atMost(Duration.ofMinutes(2)).until(() -> lines(processed) >= 40 || !first.isAlive());
            assertThat(first.isAlive()).as("first child alive; output: %s", output1).isTrue();
        }
        finally {
            first.destroyForcibly(); // SIGKILL
            first.waitFor(1, TimeUnit.MINUTES);
        }
        try (Queue jobs = Queue.open(this.root, "jobs")) {
            atKill = jobs.counts();
        }
        assertThat(atKill.done()).as("killed before the end: %s", atKill).isLessThan(JOBS);
        Path output2 = this.root.resolve("child-2.out");
        Process second = start(processed, output2);
        try (Queue jobs = Queue.open(this.root, "jobs")) {
            await().atMost(Duration.ofMinutes(2))
                .until(() -> jobs.counts().equals(new QueueCounts(0, 0, JOBS)) || !second.isAlive());
            assertThat(jobs.counts()).as("after restart (at kill: %s); output: %s", atKill, output2)
                .isEqualTo(new QueueCounts(0, 0, JOBS));
            assertThat(jobs.verify().ok()).isTrue();
        }
        finally {
            second.destroy(); // SIGTERM: a graceful stop
            assertThat(second.waitFor(1, TimeUnit.MINUTES)).isTrue();
        }
        Map<String, Integer> completions = new HashMap<>();
        Matcher matcher = COMPLETE.matcher(Files.readString(this.root.resolve("jobs").resolve("queue.log")));
        while (matcher.find()) {
            completions.merge(matcher.group(1), 1, Integer::sum);
        }
        assertThat(completions.keySet()).containsExactlyInAnyOrderElementsOf(ids);
        assertThat(completions.values()).as("completed exactly once").allMatch((n) -> n == 1);
        List<String> seen = Files.readAllLines(processed, StandardCharsets.US_ASCII);
        assertThat(new HashSet<>(seen)).as("processed at least once").containsExactlyInAnyOrderElementsOf(ids);
        System.out.printf("kill -9 test: at kill %s, %d handler runs for %d jobs%n", atKill, seen.size(), JOBS);
    }

}
