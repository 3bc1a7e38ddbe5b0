package dev.storh.queue;

import dev.storh.StorageException;
import dev.storh.fs.GroupCommit;
import dev.storh.id.UuidV7;
import dev.storh.observe.Observed;
import dev.storh.observe.StoreOperation;
import dev.storh.store.StoreKind;
import java.time.Duration;
import java.util.List;

/**
 * The write path of a queue instance: enqueue, claim and complete calls go through a group commit
 * (one caller takes the lock, syncs, runs every waiting call against the state and appends all
 * their events with one fsync, while the others block), and requeues of processing jobs (retry,
 * release) are written as one batch each. A call's results are published only once its batch is
 * durable; a failed batch fails every call in it. Thread-safe.
 */
final class QueueCommits {

    private final String name;
    private final QueueJournal journal;
    private final QueueOptions options;
    private final GroupCommit<QueueOp> commits;

    QueueCommits(String name, QueueJournal journal, QueueOptions options) {
        this.name = name;
        this.journal = journal;
        this.options = options;
        this.commits = new GroupCommit<>(this::writeBatch, options.maxBatch());
    }

    /**
     * Runs one call in the next group commit and waits until its events are durable.
     *
     * @param op the call; its results are filled in
     * @throws dev.storh.StorageException the batch's failure, or the call's own (a complete of a job
     *     that is not processing)
     */
    void submit(QueueOp op) {
        commits.submit(op);
        if (op.error != null) {
            throw op.error;
        }
    }

    /**
     * @param limit the most jobs to claim, at least 1
     * @param withJobs whether the results include the {@link QueueJob}s (attempts and times), not only the records
     * @return the claim, run and durable, its results filled in
     * @throws StorageException {@code "Queue claim limit must be at least 1."} naming the limit, or the batch's failure
     */
    QueueOp claim(int limit, boolean withJobs) {
        if (limit < 1) {
            throw new StorageException("Queue claim limit must be at least 1. Got: " + limit);
        }
        QueueOp op = QueueOp.claim(limit, withJobs);
        Observed.run(options.observer(), StoreKind.QUEUE, name, StoreOperation.CLAIM, () -> submit(op));
        return op;
    }

    /** The group commit writer: one lock, one sync, one append and one fsync for every waiting call. */
    private void writeBatch(List<QueueOp> ops) {
        journal.locked(() -> {
            journal.sync(true);
            long nowMs = options.clock().millis();
            long now = Math.floorDiv(nowMs, 1000L);
            QueueState state = journal.state();
            QueueOp.Batch batch = new QueueOp.Batch();
            long bytes = 0;
            for (QueueOp op : ops) {
                bytes += op.estimatedBytes(state);
            }
            batch.reserve(bytes);
            try {
                for (QueueOp op : ops) {
                    op.run(state, batch, now, nowMs);
                }
            } catch (RuntimeException | Error e) {
                journal.forget(); // events applied but never written: re-read the log next time
                throw e;
            }
            journal.commit(batch);
            return null;
        });
    }

    /**
     * Puts a processing job back to pending, not claimable before {@code delay} has passed.
     *
     * @return whether the job was processing
     * @throws dev.storh.StorageException naming the id, or a negative delay
     */
    boolean retry(String id, Duration delay) {
        UuidV7.assertValid(id);
        if (delay == null || delay.isNegative()) {
            throw new StorageException("Queue retry delay must not be negative or null, got " + delay + " for job " + id);
        }
        return requeueProcessing(List.of(id), false, delay.toMillis()) == 1;
    }

    /**
     * Puts processing jobs back to pending, at the back of the line, in one batch; ids that are not
     * processing, and repeats, are skipped.
     *
     * @param ids job ids, validated
     * @param uncountClaim whether the last claim no longer counts as an attempt (release)
     * @param delayMs how long the jobs are not claimable, 0 for at once
     * @return how many jobs were requeued
     */
    int requeueProcessing(List<String> ids, boolean uncountClaim, long delayMs) {
        return journal.locked(() -> {
            journal.sync(true);
            long nowMs = options.clock().millis();
            long now = Math.floorDiv(nowMs, 1000L);
            QueueState state = journal.state();
            QueueOp.Batch batch = new QueueOp.Batch();
            for (String id : ids) {
                QueueState.Job job = state.find(id);
                if (job == null || job.status != QueueState.Status.PROCESSING) {
                    continue; // a repeated id finds its job pending again
                }
                int attempts = uncountClaim ? Math.max(0, job.attempts - 1) : -1;
                batch.apply(state, job, QueueEvent.requeue(job.id, now, attempts, delayMs > 0 ? nowMs + delayMs : 0));
            }
            journal.commit(batch);
            return (int) batch.events;
        });
    }
}
