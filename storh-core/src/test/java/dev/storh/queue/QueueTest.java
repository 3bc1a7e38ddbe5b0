package dev.storh.queue;

import static dev.storh.queue.QueueTestSupport.append;
import static dev.storh.queue.QueueTestSupport.framed;
import static dev.storh.queue.QueueTestSupport.id;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.storh.StorageException;
import dev.storh.StorageRecord;
import dev.storh.store.RepairReport;
import dev.storh.store.VerifyReport;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The queue's numbered acceptance statements ({@code spec/log-queue.md} §5, 28–42). */
class QueueTest {

    @TempDir
    Path root;

    private final QueueTestSupport.MutableClock clock = new QueueTestSupport.MutableClock(1_795_997_943L);

    private Queue open(String name) {
        return Queue.open(root, name, QueueOptions.builder().clock(clock).build());
    }

    private Path logOf(String name) {
        return root.resolve(name).resolve("queue.log");
    }

    private static QueueCounts counts(long pending, long processing, long done) {
        return new QueueCounts(pending, processing, done);
    }

    @Test // 28
    void enqueueClaimRequeueCompletePurgeFollowTheOriginal() throws Exception {
        try (Queue q = open("jobs")) {
            q.enqueue(Map.of("task", "one"), id(0));
            q.enqueue(Map.of("task", "two"), id(1));
            assertThat(q.counts()).isEqualTo(counts(2, 0, 0));
            StorageRecord first = q.claim().orElseThrow();
            assertThat(first.id()).isEqualTo(id(0));
            assertThat(first.data()).isEqualTo(Map.of("task", "one"));
            assertThat(q.counts()).isEqualTo(counts(1, 1, 0));

            assertThat(q.requeueTimedOut(Duration.ZERO)).isEqualTo(1);
            assertThat(q.counts()).isEqualTo(counts(2, 0, 0));
            StorageRecord second = q.claim().orElseThrow();
            assertThat(second.id()).as("the requeued job went to the back").isEqualTo(id(1));

            q.complete(id(1));
            assertThat(q.counts()).isEqualTo(counts(1, 0, 1));
            assertThat(q.verify().ok()).isTrue();
            assertThat(q.health().ok()).isTrue();
            assertThat(q.stats().bytes()).isEqualTo(Files.size(logOf("jobs"))).isPositive();

            assertThat(q.purgeDone()).isEqualTo(1);
            assertThat(q.counts()).isEqualTo(counts(1, 0, 0));
            assertThat(q.claim().orElseThrow().id()).isEqualTo(id(0));
            q.complete(id(0), false);
            assertThat(q.counts()).isEqualTo(counts(0, 0, 0));

            long at = Files.size(logOf("jobs"));
            append(logOf("jobs"), "broken\n");
            VerifyReport<QueueStats> report = q.verify();
            assertThat(report.ok()).isFalse();
            assertThat(report.errors()).containsExactly("line 10 (byte " + at + " of " + logOf("jobs")
                    + "): Malformed log queue line.");
        }
    }

    @Test // 29
    void aBrokenTailIsCutOnReopenAndKeptAsideAndTheJobStaysUsable() throws Exception {
        try (Queue q = open("jobs")) {
            q.enqueue(Map.of("task", "one"), id(0));
        }
        long goodSize = Files.size(logOf("jobs"));
        append(logOf("jobs"), "broken\n");
        try (Queue q = open("jobs")) {
            assertThat(q.counts()).isEqualTo(counts(1, 0, 0));
            assertThat(Files.size(logOf("jobs"))).isEqualTo(goodSize);
            assertThat(q.claim().orElseThrow().id()).isEqualTo(id(0));
            assertThat(q.requeueTimedOut(Duration.ZERO)).isEqualTo(1);
            q.enqueue(Map.of("task", "two"), id(1));
            byte[] bytes = Files.readAllBytes(logOf("jobs"));
            String text = new String(bytes, StandardCharsets.UTF_8);
            assertThat(text).doesNotContain("broken");
            assertThat(text.indexOf('\0')).isEqualTo(-1);
            assertThat(q.verify().ok()).isTrue();
            assertThat(q.counts()).isEqualTo(counts(2, 0, 0));
        }
        // Java addition (W6): a cut that held a complete line is kept beside the log.
        try (Stream<Path> files = Files.list(root.resolve("jobs"))) {
            List<Path> cuts = files.filter(p -> p.getFileName().toString().startsWith("queue.log.cut-")).toList();
            assertThat(cuts).hasSize(1);
            assertThat(Files.readString(cuts.get(0))).isEqualTo("broken\n");
        }
    }

    @Test // 30
    void eventsAppendedByAnotherWriterBecomeVisibleAndATruncatedLogEmptiesTheQueue() throws Exception {
        try (Queue q = open("jobs")) {
            q.enqueue(Map.of("n", 0L), id(0));
            append(logOf("jobs"), framed("{\"op\":\"enqueue\",\"id\":\"" + id(1) + "\",\"payload\":{\"n\":1},\"ts\":1}"));
            assertThat(q.counts().pending()).isEqualTo(2);
            assertThat(q.claim().orElseThrow().id()).isEqualTo(id(0));
            StorageRecord other = q.claim().orElseThrow();
            assertThat(other.id()).isEqualTo(id(1));
            assertThat(other.data()).isEqualTo(Map.of("n", 1L));
            try (RandomAccessFile raf = new RandomAccessFile(logOf("jobs").toFile(), "rw")) {
                raf.setLength(0);
            }
            assertThat(q.counts()).isEqualTo(counts(0, 0, 0));
        }
    }

    @Test // 31
    void replayFollowsTheStateRulesAndNormalisesPayloads() throws Exception {
        Files.createDirectories(root.resolve("jobs"));
        Path log = logOf("jobs");
        Files.write(log, new byte[0]);
        append(log, framed("{\"op\":\"enqueue\",\"id\":\"" + id(0) + "\",\"payload\":{\"a\":1},\"ts\":1}"));
        append(log, framed("{\"op\":\"complete\",\"id\":\"" + id(0) + "\",\"done\":true,\"ts\":2}"));
        append(log, framed("{\"op\":\"complete\",\"id\":\"" + id(0) + "\",\"done\":false,\"ts\":3}"));
        append(log, framed("{\"op\":\"enqueue\",\"id\":\"" + id(1) + "\",\"payload\":\"not-an-object\",\"ts\":4}"));
        append(log, framed("{\"op\":\"enqueue\",\"id\":\"" + id(2) + "\",\"payload\":{\"0\":\"drop\",\"name\":\"kept\"},\"ts\":5}"));
        try (Queue q = open("jobs")) {
            assertThat(q.counts()).isEqualTo(counts(2, 0, 0));
            StorageRecord one = q.claim().orElseThrow();
            assertThat(one.id()).isEqualTo(id(1));
            assertThat(one.data()).isEmpty();
            StorageRecord two = q.claim().orElseThrow();
            assertThat(two.id()).isEqualTo(id(2));
            assertThat(two.data()).isEqualTo(Map.of("name", "kept"));
            assertThat(q.claim()).isEmpty();
            assertThat(q.verify().ok()).isTrue();
        }
    }

    @Test // 32
    void anUnsupportedOpFailsVerifyAndIsCutOnReopen() throws Exception {
        try (Queue q = open("jobs")) {
            q.enqueue(Map.of("task", "one"), id(0));
            long at = Files.size(logOf("jobs"));
            append(logOf("jobs"), framed("{\"op\":\"unsupported\",\"id\":\"" + id(1) + "\",\"ts\":1}"));
            assertThat(q.verify().errors()).containsExactly("line 2 (byte " + at + " of " + logOf("jobs")
                    + "): Unsupported log queue event: unsupported");
        }
        try (Queue q = open("jobs")) {
            assertThat(q.counts()).isEqualTo(counts(1, 0, 0));
            assertThat(q.verify().ok()).isTrue();
        }
    }

    @Test // 33
    void missingLogAndFoldersInPlaceOfFilesAreClearErrors() throws Exception {
        try (Queue q = open("jobs")) {
            q.enqueue(Map.of("task", "one"), id(0));
            Files.delete(logOf("jobs"));
            VerifyReport<QueueStats> report = q.verify();
            assertThat(report.ok()).isFalse();
            assertThat(report.errors()).singleElement().satisfies(e -> assertThat(e)
                    .startsWith("Could not read log queue file.").contains(logOf("jobs").toString())
                    .contains("NoSuchFileException"));
            assertThat(q.counts()).as("the deleted log held everything").isEqualTo(counts(0, 0, 0));
        }
        Files.createDirectories(root.resolve("locked/queue.lock"));
        assertThatThrownBy(() -> open("locked")).isInstanceOf(StorageException.class)
                .hasMessageContaining("queue lock").hasMessageContaining("locked/queue.lock");
        Files.createDirectories(root.resolve("logdir/queue.log"));
        assertThatThrownBy(() -> open("logdir")).isInstanceOf(StorageException.class)
                .hasMessageContaining("queue file").hasMessageContaining("logdir/queue.log");
    }

    @Test // 34
    void completingAPendingJobChangesNothingAndBadEventsFailVerify() throws Exception {
        try (Queue q = open("jobs")) {
            q.enqueue(Map.of("task", "one"), id(0));
            long size = Files.size(logOf("jobs"));
            assertThatThrownBy(() -> q.complete(id(0))).isInstanceOf(StorageException.class)
                    .hasMessageContaining(id(0)).hasMessageContaining("pending");
            assertThatThrownBy(() -> q.complete(id(9))).isInstanceOf(StorageException.class)
                    .hasMessageContaining(id(9)).hasMessageContaining("no such job");
            assertThat(q.counts()).isEqualTo(counts(1, 0, 0));
            assertThat(Files.size(logOf("jobs"))).isEqualTo(size);
            assertThat(q.completeMany(List.of())).isZero();
            q.claim();
            assertThat(q.requeueTimedOut(Duration.ofSeconds(3600))).isZero();
            long at = Files.size(logOf("jobs"));
            append(logOf("jobs"), framed("{\"op\":\"claim\",\"id\":\"not-a-uuid\",\"ts\":1}"));
            assertThat(q.verify().errors()).containsExactly("line 3 (byte " + at + " of " + logOf("jobs")
                    + "): Invalid log queue event.");
        }
    }

    @Test // 35
    void bulkOperationsKeepOrderAndSkipWhatIsNotProcessing() {
        try (Queue q = open("jobs")) {
            List<String> ids = q.enqueueMany(List.of(Map.of("id", id(0), "payload", Map.of("task", "one")),
                    Map.of("task", "two"), Map.of("task", "three")));
            assertThat(ids).hasSize(3);
            assertThat(ids.get(0)).isEqualTo(id(0));
            assertThat(ids.get(1)).isLessThan(ids.get(2));
            assertThat(q.counts()).isEqualTo(counts(3, 0, 0));
            List<StorageRecord> claimed = q.claimMany(2);
            assertThat(claimed).extracting(StorageRecord::id).containsExactly(ids.get(0), ids.get(1));
            assertThat(claimed.get(1).data()).isEqualTo(Map.of("task", "two"));
            assertThat(q.counts()).isEqualTo(counts(1, 2, 0));
            assertThat(q.completeMany(List.of(ids.get(0), id(99)))).isEqualTo(1);
            assertThat(q.counts()).isEqualTo(counts(1, 1, 1));
            assertThat(q.completeMany(List.of(ids.get(1)), false)).isEqualTo(1);
            assertThat(q.counts()).isEqualTo(counts(1, 0, 1));
            assertThat(q.claimMany(10)).extracting(StorageRecord::id).containsExactly(ids.get(2));
            assertThat(q.claimMany(10)).isEmpty();
            assertThatThrownBy(() -> q.claimMany(0)).isInstanceOf(StorageException.class).hasMessageContaining("limit");
        }
    }

    @Test // 36
    void thirteenThousandJobsGoThroughTheBulkCallsInOrder() {
        try (Queue q = open("jobs")) {
            List<Map<String, Object>> jobs = new ArrayList<>();
            for (int i = 0; i < 13_000; i++) {
                jobs.add(Map.of("i", (long) i));
            }
            List<String> ids = q.enqueueMany(jobs);
            List<StorageRecord> claimed = q.claimMany(13_000);
            assertThat(claimed).extracting(StorageRecord::id).containsExactlyElementsOf(ids);
            assertThat(claimed.get(12_999).data()).isEqualTo(Map.of("i", 12_999L));
            assertThat(q.completeMany(ids)).isEqualTo(13_000);
            assertThat(q.purgeDone()).isEqualTo(13_000);
            assertThat(q.counts()).isEqualTo(counts(0, 0, 0));
        }
    }

    /**
     * Generated ids of a bulk enqueue (drawn in blocks) are valid, lowercase, increasing in job
     * order and after every id generated before, whether the input's size is known (a list) or not
     * (a plain iterable), with given ids in between; the queue's file replays to the same jobs.
     */
    @Test
    void bulkEnqueueIdsIncreaseInJobOrderForListsAndPlainIterables() {
        try (Queue q = open("jobs")) {
            List<Map<String, Object>> jobs = new ArrayList<>();
            for (int i = 0; i < 3_000; i++) {
                jobs.add(i % 1000 == 7 ? Map.of("id", id(i), "payload", Map.of("i", (long) i)) : Map.of("i", (long) i));
            }
            Iterable<Map<String, Object>> plain = jobs::iterator;
            for (Iterable<Map<String, Object>> input : List.of(jobs, plain)) {
                String before = dev.storh.id.UuidV7.generate();
                List<String> ids = q.enqueueMany(input);
                assertThat(ids).hasSize(3_000);
                String previous = before;
                for (int i = 0; i < ids.size(); i++) {
                    String id = ids.get(i);
                    assertThat(dev.storh.id.UuidV7.isValid(id)).isTrue();
                    if (i % 1000 == 7) {
                        assertThat(id).isEqualTo(id(i));
                        continue;
                    }
                    assertThat(id).as("job %d", i).isGreaterThan(previous).isEqualTo(id.toLowerCase(java.util.Locale.ROOT));
                    previous = id;
                }
                assertThat(dev.storh.id.UuidV7.generate()).isGreaterThan(previous);
            }
            List<StorageRecord> claimed = q.claimMany(10_000);
            assertThat(claimed).hasSize(3_000 + 2_997); // the three given ids were enqueued twice: pending once
            assertThat(claimed.get(2).data()).isEqualTo(Map.of("i", 2L));
        }
        try (Queue reopened = open("jobs")) {
            assertThat(reopened.counts()).isEqualTo(counts(0, 5_997, 0));
        }
    }

    @Test // 38
    void aTornTailWithoutLineFeedIsCutOnReopen() throws Exception {
        try (Queue q = open("jobs")) {
            q.enqueue(Map.of("job", "first"), id(0));
            q.enqueue(Map.of("job", "second"), id(1));
            q.claim();
        }
        append(logOf("jobs"), "{\"op\":\"enqueue\"");
        try (Queue q = open("jobs")) {
            assertThat(q.counts()).isEqualTo(counts(1, 1, 0));
            assertThat(q.verify().ok()).isTrue();
            StorageRecord next = q.claim().orElseThrow();
            assertThat(next.id()).isEqualTo(id(1));
            assertThat(next.data()).isEqualTo(Map.of("job", "second"));
        }
        try (Stream<Path> files = Files.list(root.resolve("jobs"))) {
            assertThat(files.map(p -> p.getFileName().toString()))
                    .as("a torn tail holds no complete line, so nothing is kept aside").noneMatch(n -> n.contains(".cut-"));
        }
    }

    @Test // 39
    void stateDriftIsReportedAndRepaired() {
        try (Queue q = open("jobs")) {
            q.enqueue(Map.of("job", "first"), id(0));
            q.enqueue(Map.of("job", "second"), id(1));
            q.claim();
            q.maintenance.dropPendingForTesting();
            VerifyReport<QueueStats> report = q.verify();
            assertThat(report.ok()).isFalse();
            assertThat(report.errors()).containsExactly("Log queue state drift.");
            RepairReport<QueueRepair> repair = q.repair(Duration.ofSeconds(3600));
            assertThat(repair.ok()).isTrue();
            assertThat(repair.details().requeued()).isZero();
            assertThat(q.counts()).isEqualTo(counts(1, 1, 0));
            assertThat(q.claim().orElseThrow().id()).isEqualTo(id(1));
            assertThat(q.verify().ok()).isTrue();
        }
    }

    @Test // 40
    void aRequeuedJobGoesToTheBackAlsoAfterReopen() {
        try (Queue q = open("jobs")) {
            q.enqueue(Map.of("job", "A"), id(0));
            q.enqueue(Map.of("job", "B"), id(1));
            q.claim();
            assertThat(q.requeueTimedOut(Duration.ZERO)).isEqualTo(1);
        }
        try (Queue q = open("jobs")) {
            assertThat(q.claim().orElseThrow().id()).isEqualTo(id(1));
            assertThat(q.claim().orElseThrow().id()).isEqualTo(id(0));
        }
    }

    @Test // 41
    void purgeAndRepairHonourTheirAges() {
        try (Queue q = open("jobs")) {
            q.enqueue(Map.of("job", "A"), id(0));
            q.claim();
            q.complete(id(0));
            assertThat(q.purgeDone(Duration.ofSeconds(1000))).isZero();
            clock.advanceSeconds(999);
            assertThat(q.purgeDone(Duration.ofSeconds(1000))).isZero();
            assertThat(q.purgeDone()).isEqualTo(1);
            q.enqueue(Map.of("job", "B"), id(1));
            q.claim();
            assertThat(q.repair(Duration.ofSeconds(10)).details().requeued()).isZero();
            clock.advanceSeconds(10);
            assertThat(q.repair(Duration.ofSeconds(10)).details().requeued()).isEqualTo(1);
            assertThat(q.verify().ok()).isTrue();
            assertThat(q.counts()).isEqualTo(counts(1, 0, 0));
        }
    }

    @Test // 42
    void producerWorkerAndJanitorInstancesSeeEachOther() {
        try (Queue producer = open("jobs"); Queue worker = open("jobs"); Queue janitor = open("jobs")) {
            List<Map<String, Object>> jobs = new ArrayList<>();
            for (int i = 0; i < 10; i++) {
                jobs.add(Map.of("i", (long) i));
            }
            List<String> ids = producer.enqueueMany(jobs);
            List<StorageRecord> claimed = worker.claimMany(6);
            assertThat(claimed).extracting(StorageRecord::id).containsExactlyElementsOf(ids.subList(0, 6));
            assertThat(worker.completeMany(ids.subList(0, 4))).isEqualTo(4);
            assertThat(producer.counts()).isEqualTo(counts(4, 2, 4));
            assertThat(janitor.requeueTimedOut(Duration.ZERO)).isEqualTo(2);
            assertThat(producer.counts().pending()).isEqualTo(6);
            assertThat(producer.verify().ok()).isTrue();
            assertThat(worker.verify().ok()).isTrue();
            assertThat(janitor.verify().ok()).isTrue();
        }
    }

    @Test
    void reEnqueueMovesAJobToTheBackInEveryInstance() {
        // W16: the original's writer claims A first while fresh instances claim B first.
        try (Queue q = open("jobs")) {
            q.enqueue(Map.of("v", 1L), id(0));
            q.enqueue(Map.of("v", 1L), id(1));
            q.enqueue(Map.of("v", 2L), id(0));
            StorageRecord first = q.claim().orElseThrow();
            assertThat(first.id()).isEqualTo(id(1));
            StorageRecord second = q.claim().orElseThrow();
            assertThat(second.id()).isEqualTo(id(0));
            assertThat(second.data()).isEqualTo(Map.of("v", 2L));
        }
    }

    @Test
    void badInputIsRejectedBeforeAnythingIsWritten() throws Exception {
        try (Queue q = open("jobs")) {
            q.enqueue(Map.of("ok", true), id(0));
            long size = Files.size(logOf("jobs"));
            assertThatThrownBy(() -> q.enqueue(Map.of("x", 1L), "nope")).isInstanceOf(StorageException.class)
                    .hasMessageContaining("Invalid UUIDv7 value.").hasMessageContaining("nope");
            assertThatThrownBy(() -> q.enqueue(Map.of("1", "a"))).isInstanceOf(StorageException.class)
                    .hasMessageContaining("\"1\"").hasMessageContaining("integer");
            assertThatThrownBy(() -> q.enqueue(Map.of("f", Double.NaN))).isInstanceOf(StorageException.class)
                    .hasMessageContaining("payload");
            assertThatThrownBy(() -> q.enqueue(null)).isInstanceOf(StorageException.class).hasMessageContaining("null");
            assertThatThrownBy(() -> q.enqueueMany(List.of(Map.of("a", 1L), Map.of("id", "bad", "payload", Map.of()))))
                    .isInstanceOf(StorageException.class).hasMessageContaining("job 1 in enqueueMany")
                    .hasMessageContaining("bad");
            assertThatThrownBy(() -> q.completeMany(List.of(id(0), "zzz"))).isInstanceOf(StorageException.class)
                    .hasMessageContaining("zzz");
            assertThatThrownBy(() -> q.requeueTimedOut(Duration.ofSeconds(-1))).isInstanceOf(StorageException.class)
                    .hasMessageContaining("timeout");
            assertThat(Files.size(logOf("jobs"))).isEqualTo(size);
            assertThat(q.counts()).isEqualTo(counts(1, 0, 0));
        }
        assertThatThrownBy(() -> open("../escape")).isInstanceOf(StorageException.class)
                .hasMessageContaining("Invalid queue name");
    }

    @Test
    void uppercaseIdsAreStoredLowercaseAndStillFound() {
        try (Queue q = open("jobs")) {
            String upper = id(5).toUpperCase();
            assertThat(q.enqueue(Map.of("x", 1L), upper)).isEqualTo(id(5));
            q.claim();
            q.complete(upper);
            assertThat(q.counts()).isEqualTo(counts(0, 0, 1));
        }
    }

    @Test
    void claimedPayloadsAreCopiesSoCallersCannotChangeTheQueue() {
        try (Queue q = open("jobs")) {
            Map<String, Object> nested = new java.util.LinkedHashMap<>();
            nested.put("list", new ArrayList<>(List.of(1L)));
            q.enqueue(Map.of("nested", nested, "n", 1), id(0));
            nested.put("changed", true);
            StorageRecord job = q.claim().orElseThrow();
            assertThat(job.data()).isEqualTo(Map.of("nested", Map.of("list", List.of(1L)), "n", 1L));
            @SuppressWarnings("unchecked")
            Map<String, Object> inner = (Map<String, Object>) job.data().get("nested");
            inner.put("changed", true);
            assertThat(q.verify().ok()).isTrue();
        }
    }

    @Test
    void aClosedQueueRefusesCalls() {
        Queue q = open("jobs");
        q.close();
        q.close();
        assertThatThrownBy(q::counts).isInstanceOf(StorageException.class).hasMessageContaining("closed");
    }
}
