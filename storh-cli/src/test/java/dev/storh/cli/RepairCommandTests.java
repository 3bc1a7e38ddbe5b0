package dev.storh.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.storh.id.UuidV7;
import dev.storh.json.Jsonc;
import dev.storh.log.SegmentedLog;
import dev.storh.queue.Queue;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code storh repair} on a log and a queue with a damaged line inside: the report lists what was
 * removed, the exit code is 0 only because the store verifies clean afterwards, and {@code verify}
 * agrees (in process, on real files).
 */
class RepairCommandTests {

    @TempDir
    Path root;

    private record Run(int exit, String out, String err) {
        @SuppressWarnings("unchecked")
        Map<String, Object> json() {
            return (Map<String, Object>) Jsonc.decodeStrict(out);
        }
    }

    private static Run run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int exit = StorhCli.execute(new PrintWriter(out), new PrintWriter(err), args);
        return new Run(exit, out.toString(), err.toString());
    }

    private static String id(int n) {
        return UuidV7.minForTimestampMs(1_700_000_000_000L + n);
    }

    /** Flips one byte inside the second line of a file of framed lines. */
    private static long damageSecondLine(Path file) throws Exception {
        byte[] bytes = Files.readAllBytes(file);
        int second = 0;
        while (bytes[second] != '\n') {
            second++;
        }
        second++;
        bytes[second + 25] ^= 0x01;
        Files.write(file, bytes);
        return second;
    }

    @Test
    void repairOfALogWithADamagedLineRemovesItReportsItAndVerifiesClean() throws Exception {
        try (SegmentedLog log = SegmentedLog.open(root, "events")) {
            for (int i = 0; i < 3; i++) {
                log.put(Map.of("n", (long) i), id(i));
            }
        }
        Path segment = root.resolve("events/segments/seg-000001.ndjson");
        long at = damageSecondLine(segment);
        Run before = run("verify", root.toString(), "events", "log");
        assertThat(before.exit()).as(before.toString()).isEqualTo(StorhCli.EXIT_PROBLEMS);

        Run repair = run("repair", root.toString(), "events", "log");
        assertThat(repair.exit()).as(repair.toString()).isZero();
        assertThat(repair.json()).containsEntry("ok", true).doesNotContainKey("verifyErrors");
        assertThat((List<?>) repair.json().get("removed")).singleElement().asString()
                .startsWith(segment + ":" + at + ": ").contains(".storh/corrupt/");

        Run after = run("verify", root.toString(), "events", "log");
        assertThat(after.exit()).as(after.toString()).isZero();
        assertThat(after.json()).containsEntry("ok", true);
    }

    @Test
    void repairOfAQueueWithADamagedLineRemovesItReportsItAndVerifiesClean() throws Exception {
        try (Queue q = Queue.open(root, "jobs")) {
            for (int i = 0; i < 3; i++) {
                q.enqueue(Map.of("n", (long) i), id(i));
            }
        }
        Path log = root.resolve("jobs/queue.log");
        long at = damageSecondLine(log);
        Run before = run("verify", root.toString(), "jobs", "queue");
        assertThat(before.exit()).as(before.toString()).isEqualTo(StorhCli.EXIT_PROBLEMS);

        Run repair = run("repair", root.toString(), "jobs", "queue");
        assertThat(repair.exit()).as(repair.toString()).isZero();
        assertThat((List<?>) repair.json().get("removed")).singleElement().asString()
                .startsWith(log + ":" + at + ": ").contains("queue.log.cut-" + at + "-");

        Run after = run("verify", root.toString(), "jobs", "queue");
        assertThat(after.exit()).as(after.toString()).isZero();
        Run stats = run("stats", root.toString(), "jobs", "queue");
        assertThat(stats.json()).containsEntry("pending", 2L);
    }
}
