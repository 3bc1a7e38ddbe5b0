package dev.storh.queue;

import static dev.storh.queue.QueueTestSupport.id;
import static org.assertj.core.api.Assertions.assertThat;

import dev.storh.StorageRecord;
import dev.storh.store.CompactReport;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Compaction (W4), the file-identity protocol between instances, and the random model run (statement 43). */
class QueueCompactionTest {

    @TempDir
    Path root;

    private final QueueTestSupport.MutableClock clock = new QueueTestSupport.MutableClock(1_795_997_943L);

    private QueueOptions options(boolean autoCompact) {
        return QueueOptions.builder().clock(clock).autoCompact(autoCompact).compactionThresholdBytes(0).build();
    }

    @Test
    void compactionKeepsPayloadsOrderClaimTimesDoneJobsAndPurgedPayloads() throws Exception {
        try (Queue q = Queue.open(root, "jobs", options(false))) {
            for (int i = 0; i < 6; i++) {
                q.enqueue(Map.of("i", (long) i, "f", 1.0), id(i));
            }
            q.claimMany(3); // 0,1,2 processing
            clock.advanceSeconds(100);
            q.claim(); // 3 processing, younger
            q.complete(id(0));
            q.complete(id(1), false);
            q.enqueue(Map.of("again", true), id(4)); // 4 moves behind 5
            clock.advanceSeconds(10);
            CompactReport<QueueCompactDetails> report = q.compact();
            assertThat(report.bytesAfter()).isLessThan(report.bytesBefore());
            assertThat(report.details().events()).isEqualTo(2 + 2 * 2 + 1);
            assertThat(q.verify().ok()).isTrue();
        }
        try (Queue q = Queue.open(root, "jobs", options(false))) {
            assertThat(q.counts()).isEqualTo(new QueueCounts(2, 2, 1));
            assertThat(q.requeueTimedOut(Duration.ofSeconds(105))).as("only the old claim (id2) timed out").isEqualTo(1);
            List<StorageRecord> order = q.claimMany(10);
            assertThat(order).extracting(StorageRecord::id).containsExactly(id(5), id(4), id(2));
            assertThat(order.get(1).data()).isEqualTo(Map.of("again", true));
            assertThat(order.get(2).data()).isEqualTo(Map.of("i", 2L, "f", 1.0));
            assertThat(q.purgeDone()).isEqualTo(1);
        }
    }

    @Test
    void anotherInstanceFollowsTheRenamedLogAndNeverWritesIntoTheOldOne() throws Exception {
        try (Queue writer = Queue.open(root, "jobs", options(false)); Queue other = Queue.open(root, "jobs", options(false))) {
            for (int i = 0; i < 20; i++) {
                writer.enqueue(Map.of("i", (long) i), id(i));
            }
            writer.claimMany(10).forEach(r -> writer.complete(r.id(), false));
            assertThat(other.counts()).isEqualTo(new QueueCounts(10, 0, 0));
            Object inodeBefore = Files.readAttributes(root.resolve("jobs/queue.log"),
                    java.nio.file.attribute.BasicFileAttributes.class).fileKey();
            writer.compact();
            Object inodeAfter = Files.readAttributes(root.resolve("jobs/queue.log"),
                    java.nio.file.attribute.BasicFileAttributes.class).fileKey();
            assertThat(inodeAfter).isNotEqualTo(inodeBefore);

            // The other instance still holds the old file open; its next calls must use the new one.
            assertThat(other.claim().orElseThrow().id()).isEqualTo(id(10));
            other.enqueue(Map.of("late", true), id(50));
            assertThat(writer.claimMany(20)).extracting(StorageRecord::id).startsWith(id(11)).endsWith(id(50)).hasSize(10);
            assertThat(other.verify().ok()).isTrue();
        }
        try (Queue fresh = Queue.open(root, "jobs")) {
            assertThat(fresh.counts()).isEqualTo(new QueueCounts(0, 11, 0));
        }
    }

    @Test
    void aLogThatRanManyJobsReopensFromALiveSizedFile() throws Exception {
        QueueOptions auto = QueueOptions.builder().compactionThresholdBytes(64 * 1024).build();
        try (Queue q = Queue.open(root, "jobs", auto)) {
            for (int round = 0; round < 20; round++) {
                List<Map<String, Object>> jobs = new ArrayList<>();
                for (int i = 0; i < 500; i++) {
                    jobs.add(Map.of("round", (long) round, "i", (long) i));
                }
                q.enqueueMany(jobs);
                List<String> ids = q.claimMany(500).stream().map(StorageRecord::id).toList();
                q.completeMany(ids, false);
            }
            q.enqueue(Map.of("last", true));
            assertThat(q.stats().bytes()).as("10,000 jobs ran, one is live").isLessThan(200 * 1024);
        }
        // A crash mid-compaction leaves a temp file: the next open removes it.
        Files.write(root.resolve("jobs/.queue.log.0123456789ab.tmp"), new byte[] {1, 2, 3});
        try (Queue q = Queue.open(root, "jobs", auto)) {
            assertThat(q.counts()).isEqualTo(new QueueCounts(1, 0, 0));
            assertThat(q.verify().ok()).isTrue();
        }
        try (Stream<Path> files = Files.list(root.resolve("jobs"))) {
            assertThat(files.map(p -> p.getFileName().toString())).containsExactlyInAnyOrder("queue.log", "queue.lock");
        }
    }

    @Test // 43
    void aRandomRunWithReopensAndCompactionsMatchesAFifoModel() throws Exception {
        long seed = Long.getLong("storh.test.seed", 43L);
        System.out.println("QueueCompactionTest random run seed: " + seed);
        Random random = new Random(seed);
        Deque<String> pending = new ArrayDeque<>();
        Map<String, Map<String, Object>> payloads = new LinkedHashMap<>();
        List<String> processing = new ArrayList<>();
        List<String> done = new ArrayList<>();
        Queue q = Queue.open(root, "jobs", options(random.nextBoolean()));
        try {
            for (int step = 0; step < 150; step++) {
                int action = random.nextInt(9);
                String at = "seed " + seed + " step " + step + " action " + action;
                switch (action) {
                    case 0, 1, 2 -> {
                        Map<String, Object> payload = Map.of("step", (long) step);
                        String newId = q.enqueue(payload);
                        pending.addLast(newId);
                        payloads.put(newId, payload);
                    }
                    case 3, 4 -> {
                        var job = q.claim();
                        assertThat(job.map(StorageRecord::id).orElse(null)).as(at).isEqualTo(pending.pollFirst());
                        job.ifPresent(r -> {
                            assertThat(r.data()).as(at).isEqualTo(payloads.get(r.id()));
                            processing.add(r.id());
                        });
                    }
                    case 5 -> {
                        if (!processing.isEmpty()) {
                            String jobId = processing.remove(random.nextInt(processing.size()));
                            boolean keep = random.nextBoolean();
                            q.complete(jobId, keep);
                            if (keep) {
                                done.add(jobId);
                            }
                        }
                    }
                    case 6 -> {
                        assertThat(q.requeueTimedOut(Duration.ZERO)).as(at).isEqualTo(processing.size());
                        pending.addAll(processing);
                        processing.clear();
                    }
                    case 7 -> {
                        assertThat(q.purgeDone()).as(at).isEqualTo(done.size());
                        done.clear();
                    }
                    default -> {
                        q.close();
                        q = Queue.open(root, "jobs", options(random.nextBoolean()));
                        if (random.nextBoolean()) {
                            q.compact();
                        }
                    }
                }
                QueueStats stats = q.stats();
                assertThat(stats.counts()).as(at).isEqualTo(new QueueCounts(pending.size(), processing.size(), done.size()));
                assertThat(stats.bytes()).as(at).isEqualTo(Files.size(root.resolve("jobs/queue.log")));
                clock.advanceSeconds(1);
            }
            assertThat(q.verify().ok()).isTrue();
        } finally {
            q.close();
        }
    }
}
