package dev.storh.queue;

import static dev.storh.queue.QueueTestSupport.id;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.storh.LockTimeoutException;
import dev.storh.StorageException;
import dev.storh.fs.CollectionLock;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A requeue with nothing processing answers without the lock and without reading the log, yet never
 * misses a claim another instance or process made since.
 */
class QueueNoOpPathTest {

    @TempDir
    Path root;

    private Queue open() {
        return Queue.open(root, "jobs", QueueOptions.builder().lockTimeout(Duration.ofMillis(200)).build());
    }

    @Test
    void aRequeueWithNothingProcessingDoesNotWaitForTheLock() throws Exception {
        try (Queue queue = open()) {
            queue.enqueue(Map.of("n", 1L), id(1));
            CountDownLatch held = new CountDownLatch(1);
            CountDownLatch release = new CountDownLatch(1);
            Thread holder = new Thread(() -> {
                try (CollectionLock lock = CollectionLock.open(root.resolve("jobs").resolve(QueueFiles.LOCK_NAME))) {
                    lock.lock(Duration.ofSeconds(10));
                    try {
                        held.countDown();
                        release.await();
                    } finally {
                        lock.unlock();
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            holder.start();
            held.await();
            try {
                assertThat(queue.requeueTimedOut(Duration.ZERO)).isZero();
                assertThatThrownBy(queue::counts).as("other calls do wait for the lock")
                        .isInstanceOf(LockTimeoutException.class);
            } finally {
                release.countDown();
                holder.join();
            }
        }
    }

    @Test
    void aClaimByAnotherInstanceIsSeenByTheNextRequeue() {
        try (Queue producer = open(); Queue worker = open()) {
            producer.enqueue(Map.of("n", 1L), id(1));
            assertThat(producer.requeueTimedOut(Duration.ZERO)).isZero();
            assertThat(worker.claim().orElseThrow().id()).isEqualTo(id(1));
            assertThat(producer.requeueTimedOut(Duration.ZERO)).as("the log grew: the slow path runs").isEqualTo(1);
            assertThat(worker.counts()).isEqualTo(new QueueCounts(1, 0, 0));
            worker.claim();
            worker.compact(); // a new file behind the name
            assertThat(producer.requeueTimedOut(Duration.ZERO)).isEqualTo(1);
        }
    }

    @Test
    void aClosedQueueStillRefusesTheRequeue() {
        Queue queue = open();
        queue.close();
        assertThatThrownBy(() -> queue.requeueTimedOut(Duration.ZERO)).isInstanceOf(StorageException.class)
                .hasMessageContaining("closed");
    }
}
