package dev.storh.bench.harness;

import dev.storh.StorageRecord;
import dev.storh.queue.Queue;
import dev.storh.queue.QueueOptions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * Section {@code queue}: {@code queue} one job at a time, then {@code queue-bulk} in batches, as
 * the original's benchmark lists them. Automatic compaction is off, so every event stays
 * in the log as in the original's run (3.8 MB after 10k jobs) and no compaction lands inside a
 * timed write. Done jobs are kept.
 *
 * <p>With {@code --threads=T}, a fresh queue {@code queue-tT} times N enqueues, N claims and N
 * completes, each from T threads at once ({@code queue.enqueue_tT}, {@code claim_tT},
 * {@code complete_tT}): concurrent single-record writes share fsyncs (group commit).
 */
final class QueueWorkload {

    /** The options of every queue of the section: no automatic compaction. */
    private static final QueueOptions OPTIONS = QueueOptions.builder().autoCompact(false).build();

    private QueueWorkload() {
    }

    static void run(SectionRun b) throws Exception {
        int n = b.n();
        Rows rows = b.rows();
        try (Queue queue = Queue.open(b.dir(), "queue", OPTIONS)) {
            b.timeEach("enqueue", n, (i) -> queue.enqueue(rows.row(i)));
            List<String> claimed = new ArrayList<>(n);
            b.timeEach("claim", n,
                    (i) -> claimed.add(queue.claim().orElseThrow(() -> new IllegalStateException("queue ran dry")).id()));
            b.time("complete", n, () -> {
                for (String id : claimed) {
                    queue.complete(id);
                }
                return null;
            });
            b.time("requeue", 1, () -> queue.requeueTimedOut(Duration.ZERO));
        }
        try (Queue bulk = Queue.open(b.dir(), "queue-bulk", OPTIONS)) {
            b.time("bulk_enqueue", n, () -> bulk.enqueueMany(rows.rows(n)));
            List<StorageRecord> jobs = b.time("bulk_claim", n, () -> bulk.claimMany(n));
            List<String> ids = jobs.stream().map(StorageRecord::id).toList();
            b.time("bulk_complete", n, () -> bulk.completeMany(ids));
        }
        for (int threads : b.threads()) {
            try (Queue concurrent = Queue.open(b.dir(), "queue-t" + threads, OPTIONS)) {
                try (SectionRun.ConcurrentWork work =
                        SectionRun.concurrently(threads, n, i -> concurrent.enqueue(rows.row(i)))) {
                    b.time("enqueue_t" + threads, n, work);
                }
                AtomicReferenceArray<String> claimed = new AtomicReferenceArray<>(n);
                try (SectionRun.ConcurrentWork work = SectionRun.concurrently(threads, n, i -> {
                    Optional<StorageRecord> job = concurrent.claim();
                    claimed.set(i, job.orElseThrow(() -> new IllegalStateException("queue ran dry")).id());
                })) {
                    b.time("claim_t" + threads, n, work);
                }
                try (SectionRun.ConcurrentWork work =
                        SectionRun.concurrently(threads, n, i -> concurrent.complete(claimed.get(i)))) {
                    b.time("complete_t" + threads, n, work);
                }
            }
        }
    }
}
