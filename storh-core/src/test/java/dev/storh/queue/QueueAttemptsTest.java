package dev.storh.queue;

import static dev.storh.queue.QueueTestSupport.id;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.storh.StorageException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Attempt counts, delayed retries, releases and the enqueue callback: storh's additions that a
 * consumer with retries needs, stored as extra keys the original's reader ignores.
 */
class QueueAttemptsTest {

    @TempDir
    Path root;

    private final QueueTestSupport.MutableClock clock = new QueueTestSupport.MutableClock(1_795_997_943L);

    private Queue open() {
        return Queue.open(root, "jobs", QueueOptions.builder().clock(clock).autoCompact(false).build());
    }

    private String logText() throws Exception {
        return Files.readString(root.resolve("jobs").resolve("queue.log"), StandardCharsets.UTF_8);
    }

    @Test
    void everyClaimCountsAnAttemptAndClaimJobsReportsTimes() {
        try (Queue q = open()) {
            q.enqueue(Map.of("task", "one"), id(0));
            QueueJob first = q.claimJobs(5).get(0);
            assertThat(first.id()).isEqualTo(id(0));
            assertThat(first.payload()).containsEntry("task", "one");
            assertThat(first.attempts()).isEqualTo(1);
            assertThat(first.enqueuedAt().getEpochSecond()).isEqualTo(1_795_997_943L);
            clock.advanceSeconds(7);
            assertThat(q.requeueTimedOut(Duration.ZERO)).isEqualTo(1);
            QueueJob second = q.claimJobs(5).get(0);
            assertThat(second.attempts()).isEqualTo(2);
            assertThat(second.claimedAt().getEpochSecond()).isEqualTo(1_795_997_950L);
            assertThat(second.enqueuedAt().getEpochSecond()).isEqualTo(1_795_997_943L);
        }
        // the count comes from the claim events, so a fresh instance agrees
        try (Queue q = open()) {
            q.requeueTimedOut(Duration.ZERO);
            assertThat(q.claimJobs(1).get(0).attempts()).isEqualTo(3);
        }
    }

    @Test
    void reEnqueueResetsTheAttempts() {
        try (Queue q = open()) {
            q.enqueue(Map.of("n", 1L), id(0));
            q.claimJobs(1);
            q.enqueue(Map.of("n", 2L), id(0));
            QueueJob job = q.claimJobs(1).get(0);
            assertThat(job.attempts()).isEqualTo(1);
            assertThat(job.payload()).containsEntry("n", 2L);
        }
    }

    @Test
    void retryDelaysTheJobAndSurvivesReopen() throws Exception {
        try (Queue q = open()) {
            q.enqueue(Map.of("task", "a"), id(0));
            q.enqueue(Map.of("task", "b"), id(1));
            assertThat(q.claimJobs(1).get(0).id()).isEqualTo(id(0));
            assertThat(q.retry(id(0), Duration.ofSeconds(30))).isTrue();
            assertThat(q.counts()).isEqualTo(new QueueCounts(2, 0, 0));
            // a is delayed: only b is claimable
            List<QueueJob> claimed = q.claimJobs(10);
            assertThat(claimed).extracting(QueueJob::id).containsExactly(id(1));
            assertThat(q.claimJobs(10)).isEmpty();
            assertThat(q.retry(id(0), Duration.ZERO)).as("a is pending, not processing").isFalse();
        }
        assertThat(logText()).contains("\"op\":\"requeue\",\"id\":\"" + id(0) + "\",\"ts\":1795997943,\"retryAt\":1795997973000}");
        try (Queue q = open()) {
            assertThat(q.claimJobs(10)).as("the delay is in the log").isEmpty();
            clock.advanceSeconds(30);
            QueueJob again = q.claimJobs(10).get(0);
            assertThat(again.id()).isEqualTo(id(0));
            assertThat(again.attempts()).isEqualTo(2);
            assertThat(q.verify().ok()).isTrue();
        }
    }

    @Test
    void releaseGivesTheAttemptBack() throws Exception {
        try (Queue q = open()) {
            q.enqueueMany(List.of(Map.of("n", 1L), Map.of("n", 2L)));
            List<String> ids = q.claimJobs(2).stream().map(QueueJob::id).toList();
            assertThat(q.release(List.of(ids.get(0), ids.get(0), id(9)))).isEqualTo(1);
            assertThat(q.release(List.of())).isZero();
            assertThat(q.counts()).isEqualTo(new QueueCounts(1, 1, 0));
            assertThat(q.claimJobs(1).get(0).attempts()).as("released claims do not count").isEqualTo(1);
        }
        assertThat(logText()).contains("\"op\":\"requeue\"").contains(",\"attempts\":0}");
        try (Queue q = open()) {
            assertThat(q.verify().ok()).isTrue();
            assertThat(q.counts()).isEqualTo(new QueueCounts(0, 2, 0));
        }
    }

    @Test
    void badArgumentsNameTheProblemAndWriteNothing() throws Exception {
        try (Queue q = open()) {
            q.enqueue(Map.of("n", 1L), id(0));
            long before = Files.size(root.resolve("jobs").resolve("queue.log"));
            assertThatThrownBy(() -> q.retry("nope", Duration.ZERO)).isInstanceOf(StorageException.class)
                    .hasMessageContaining("nope");
            assertThatThrownBy(() -> q.retry(id(0), Duration.ofSeconds(-1))).isInstanceOf(StorageException.class)
                    .hasMessageContaining(id(0)).hasMessageContaining("negative");
            assertThatThrownBy(() -> q.release(List.of(id(0), "bad-id"))).isInstanceOf(StorageException.class)
                    .hasMessageContaining("bad-id");
            assertThatThrownBy(() -> q.claimJobs(0)).isInstanceOf(StorageException.class).hasMessageContaining("limit");
            assertThat(q.retry(id(5), Duration.ZERO)).isFalse();
            assertThat(Files.size(root.resolve("jobs").resolve("queue.log"))).isEqualTo(before);
        }
    }

    @Test
    void compactionKeepsAttemptsAndRetryTimes() {
        try (Queue q = open()) {
            q.enqueue(Map.of("n", 1L), id(0));
            q.enqueue(Map.of("n", 2L), id(1));
            q.enqueue(Map.of("n", 3L), id(2));
            q.claimJobs(3);
            q.requeueTimedOut(Duration.ZERO);
            q.claimJobs(3);
            // id0: retried with a delay (2 attempts); id1: processing (2 attempts); id2: pending (2 attempts)
            q.retry(id(0), Duration.ofSeconds(60));
            q.requeueTimedOut(Duration.ZERO);
            q.claimJobs(1); // takes id1 (id0 is delayed)
            q.compact();
            assertThat(q.verify().ok()).isTrue();
        }
        try (Queue q = open()) {
            assertThat(q.counts()).isEqualTo(new QueueCounts(2, 1, 0));
            QueueJob next = q.claimJobs(3).get(0);
            assertThat(next.id()).isEqualTo(id(2));
            assertThat(next.attempts()).isEqualTo(3);
            q.requeueTimedOut(Duration.ZERO);
            clock.advanceSeconds(60);
            List<QueueJob> all = new ArrayList<>(q.claimJobs(3));
            all.sort((a, b) -> a.id().compareTo(b.id()));
            assertThat(all).extracting(QueueJob::attempts).containsExactly(3, 4, 4);
        }
    }

    @Test
    void theOriginalsReaderRulesStillHold() {
        // an event with the extra keys decodes as the event it is; unusable extra values read as absent
        QueueEvent e = QueueEventCodec.decodeJson(("{\"op\":\"requeue\",\"id\":\"" + id(0)
                + "\",\"ts\":5,\"attempts\":\"x\",\"retryAt\":-3}").getBytes(StandardCharsets.UTF_8), 0);
        assertThat(e.attempts()).isEqualTo(-1);
        assertThat(e.retryAtMs()).isZero();
        QueueEvent plain = QueueEvent.requeue(id(0), 5);
        assertThat(new String(QueueEventCodec.encodeJson(plain), StandardCharsets.US_ASCII))
                .isEqualTo("{\"op\":\"requeue\",\"id\":\"" + id(0) + "\",\"ts\":5}");
        QueueEvent extra = QueueEvent.enqueue(id(0), new java.util.LinkedHashMap<>(), 5, 2, 7000);
        byte[] json = QueueEventCodec.encodeJson(extra);
        assertThat(new String(json, StandardCharsets.US_ASCII))
                .isEqualTo("{\"op\":\"enqueue\",\"id\":\"" + id(0) + "\",\"payload\":[],\"ts\":5,\"attempts\":2,\"retryAt\":7000}");
        QueueEvent back = QueueEventCodec.decodeJson(json, 0);
        assertThat(back.attempts()).isEqualTo(2);
        assertThat(back.retryAtMs()).isEqualTo(7000);
    }

    @Test
    void enqueueListenersRunAfterLocalWritesAndFailuresDoNotBreakTheCaller() throws Exception {
        try (Queue q = open()) {
            AtomicInteger calls = new AtomicInteger();
            CountDownLatch fromOtherThread = new CountDownLatch(1);
            Runnable counting = calls::incrementAndGet;
            q.addEnqueueListener(() -> {
                throw new IllegalStateException("listener bug");
            });
            q.addEnqueueListener(counting);
            q.addEnqueueListener(fromOtherThread::countDown);
            q.enqueue(Map.of("n", 1L));
            q.enqueueMany(List.of(Map.of("n", 2L), Map.of("n", 3L)));
            assertThat(calls.get()).isEqualTo(2);
            String claimed = q.claimJobs(1).get(0).id();
            q.release(List.of(claimed));
            assertThat(calls.get()).isEqualTo(3);
            q.claimJobs(1);
            q.retry(claimed, Duration.ofSeconds(5));
            assertThat(calls.get()).as("a delayed retry is not claimable yet").isEqualTo(3);
            q.removeEnqueueListener(counting);
            Thread t = new Thread(() -> q.enqueue(Map.of("n", 4L)));
            t.start();
            assertThat(fromOtherThread.await(10, TimeUnit.SECONDS)).isTrue();
            t.join();
            assertThat(calls.get()).isEqualTo(3);
            // another instance's enqueue is not signalled here
            try (Queue other = open()) {
                other.enqueue(Map.of("n", 5L));
            }
            assertThat(calls.get()).isEqualTo(3);
        }
    }
}
