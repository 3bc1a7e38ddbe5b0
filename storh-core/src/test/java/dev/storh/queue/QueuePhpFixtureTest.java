package dev.storh.queue;

import static org.assertj.core.api.Assertions.assertThat;

import dev.storh.SharedFiles;
import dev.storh.StorageRecord;
import dev.storh.json.Jsonc;
import dev.storh.store.CompactReport;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The original's queue {@code root/app/jobs} from {@code fixtures/php-storh-0.5.0}, answers in {@code expected.json}. */
class QueuePhpFixtureTest {

    @TempDir
    Path temp;

    private Path app;
    private Map<String, Object> expected;

    @BeforeEach
    @SuppressWarnings("unchecked")
    void copyFixture() throws Exception {
        app = SharedFiles.copyPhpFixture(temp);
        Path answers = SharedFiles.expectedAnswers();
        expected = (Map<String, Object>) Jsonc.decodeObject(Files.readAllBytes(answers)).get("jobs");
    }

    @Test
    @SuppressWarnings("unchecked")
    void reopensWithTheOriginalsCountsVerifyAndNextClaim() throws Exception {
        Clock clock = Clock.fixed(Instant.ofEpochSecond(1_800_000_000L), ZoneOffset.UTC);
        Path log = app.resolve("jobs/queue.log");
        byte[] before = Files.readAllBytes(log);
        try (Queue jobs = Queue.open(app, "jobs", QueueOptions.builder().clock(clock).build())) {
            assertThat(jobs.counts().toMap()).isEqualTo(expected.get("counts"));
            assertThat(jobs.verify().toMap()).isEqualTo(expected.get("verify"));
            assertThat(Files.readAllBytes(log)).as("opening changes nothing").isEqualTo(before);

            StorageRecord next = jobs.claim().orElseThrow();
            assertThat(next.id()).isEqualTo(expected.get("next_claim_would_be"));
            assertThat(next.data()).containsEntry("task", "render");

            byte[] after = Files.readAllBytes(log);
            assertThat(Arrays.copyOf(after, before.length)).isEqualTo(before);
            String appended = new String(after, before.length, after.length - before.length, StandardCharsets.UTF_8);
            String json = "{\"op\":\"claim\",\"id\":\"" + next.id() + "\",\"ts\":1800000000}";
            assertThat(appended).isEqualTo(json.length() + "\t" + dev.storh.fs.FramedLine.checksum(
                    json.getBytes(StandardCharsets.UTF_8)) + "\t" + json + "\n");

            // Complete one of the original's processing jobs, as its worker would.
            List<String> claimed = (List<String>) expected.get("claimed");
            List<String> completed = (List<String>) expected.get("completed");
            String processing = claimed.stream().filter(id -> !completed.contains(id)).findFirst().orElseThrow();
            jobs.complete(processing);
            assertThat(jobs.counts()).isEqualTo(new QueueCounts(59, 15, 21));
        }
    }

    @Test
    void aCompactedFixtureReplaysToTheSameStateWithOnlyTheOriginalsEvents() throws Exception {
        QueueStats stats;
        List<String> order;
        try (Queue jobs = Queue.open(app, "jobs")) {
            stats = jobs.stats();
            CompactReport<QueueCompactDetails> report = jobs.compact();
            assertThat(report.bytesBefore()).isEqualTo(18825);
            assertThat(report.bytesAfter()).isLessThan(report.bytesBefore());
            assertThat(report.details().events()).isEqualTo(60 + 2 * 15 + 20);
            assertThat(jobs.verify().ok()).isTrue();
        }
        for (String line : Files.readAllLines(app.resolve("jobs/queue.log"))) {
            String op = (String) Jsonc.decodeObject(line.split("\t", 3)[2].getBytes(StandardCharsets.UTF_8)).get("op");
            assertThat(op).isIn("enqueue", "claim", "complete");
        }
        try (Queue jobs = Queue.open(app, "jobs")) {
            assertThat(jobs.counts()).isEqualTo(stats.counts());
            assertThat(jobs.claim().orElseThrow().id()).isEqualTo(expected.get("next_claim_would_be"));
        }
    }
}
