package dev.storh.queue;

import static org.assertj.core.api.Assertions.assertThat;

import dev.storh.StorageRecord;
import dev.storh.fs.LookCountingFiles;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a durable queue write costs besides its write and its fsync: one look at {@code queue.log}'s
 * name, which tells both that the held file is still the one the name points at and where it ends;
 * the held handle is never asked its size. Another instance's events are still taken in first.
 */
class QueueAppendCostTest {

    @TempDir
    Path root;

    private static QueueOptions counted(LookCountingFiles[] seam) {
        return QueueOptions.builder().autoCompact(false).files(dir -> seam[0] = new LookCountingFiles(dir)).build();
    }

    @Test
    void enqueueClaimAndCompleteLookAtTheLogsNameOnceEachAndNeverAskTheHandle() {
        LookCountingFiles[] seam = new LookCountingFiles[1];
        try (Queue queue = Queue.open(root, "jobs", counted(seam))) {
            queue.enqueue(Map.of("n", 0L));
            seam[0].reset();
            for (long i = 1; i <= 3; i++) {
                queue.enqueue(Map.of("n", i));
            }
            StorageRecord job = queue.claim().orElseThrow();
            queue.complete(job.id());
            List<StorageRecord> more = queue.claimMany(2);
            assertThat(queue.completeMany(more.stream().map(StorageRecord::id).toList())).isEqualTo(2);
            assertThat(seam[0].handleSizes()).as("sizes asked of the held handle").isZero();
            assertThat(seam[0].looks()).as("looks per name for 3 enqueues, 2 claims and 2 completes")
                    .isEqualTo(Map.of(QueueFiles.LOG_NAME, 7));
            assertThat(job.data()).isEqualTo(Map.of("n", 0L));
        }
        try (Queue queue = Queue.open(root, "jobs", QueueOptions.builder().autoCompact(false).build())) {
            assertThat(queue.counts()).as("every write durable and replayed by a new instance")
                    .isEqualTo(new QueueCounts(1, 0, 3));
            assertThat(queue.claim().orElseThrow().data()).isEqualTo(Map.of("n", 3L));
        }
    }

    @Test
    void anotherInstancesEventsAreTakenInBeforeTheNextWrite() {
        LookCountingFiles[] seam = new LookCountingFiles[1];
        try (Queue queue = Queue.open(root, "jobs", counted(seam));
                Queue other = Queue.open(root, "jobs", QueueOptions.builder().autoCompact(false).build())) {
            queue.enqueue(Map.of("by", "first"));
            other.enqueue(Map.of("by", "other"));
            assertThat(queue.claim().orElseThrow().data()).isEqualTo(Map.of("by", "first"));
            assertThat(queue.claim().orElseThrow().data()).as("the other's job, read in before the claim")
                    .isEqualTo(Map.of("by", "other"));
            assertThat(other.counts()).isEqualTo(new QueueCounts(0, 2, 0));
        }
    }
}
