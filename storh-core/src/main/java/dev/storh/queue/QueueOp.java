package dev.storh.queue;

import dev.storh.StorageException;
import dev.storh.StorageRecord;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * One {@link Queue} call waiting in the group commit (enqueue, claim or complete), with its
 * result. The group commit's writer runs every waiting call against the state under the queue lock,
 * collects their event lines in one {@link Batch} and appends them with one fsync; results are
 * read by the callers only when that append succeeded. Not thread-safe on its own.
 */
final class QueueOp {

    /** Event lines being built under the lock, applied to the state as they are added. */
    static final class Batch {
        final QueueEventCodec.Lines out = new QueueEventCodec.Lines(512);
        long events;

        /** Applies an event to the state and adds its line. */
        void apply(QueueState state, QueueEvent event) {
            state.apply(event);
            out.add(event, null);
            events++;
        }

        /** Applies an event to a job the caller looked up in the state and adds its line. */
        void apply(QueueState state, QueueState.Job job, QueueEvent event) {
            state.apply(job, event);
            out.add(event, null);
            events++;
        }

        /**
         * Applies an enqueue to the state and adds its line, written with the payload's JSON given.
         *
         * @return the enqueued job
         */
        QueueState.Job apply(QueueState state, QueueEvent enqueue, byte[] payloadJson) {
            QueueState.Job job = state.apply(enqueue);
            out.add(enqueue, payloadJson);
            events++;
            return job;
        }

        /** Claims a pending job and adds the claim's line. */
        void claim(QueueState state, QueueState.Job job, long now) {
            state.claim(job, now);
            out.addClaim(job.id, now);
            events++;
        }

        /** Completes a known job and adds the complete's line. */
        void complete(QueueState state, QueueState.Job job, boolean done, long now) {
            state.complete(job, done, now);
            out.addComplete(job.id, done, now);
            events++;
        }

        /** Makes sure the lines buffer holds at least {@code bytes} more without growing. */
        void reserve(long bytes) {
            out.reserve(bytes);
        }
    }

    enum Kind { ENQUEUE, CLAIM, COMPLETE }

    final Kind kind;
    /** For an enqueue: the checked jobs, in order. */
    List<QueueJobInput.Checked> enqueued;
    int limit;
    List<String> ids;
    boolean keepDone;
    boolean single;
    /** For a claim: whether {@link #claimedJobs} is filled in too. */
    private boolean withJobs;
    List<StorageRecord> claimed = List.of();
    List<QueueJob> claimedJobs = List.of();
    int completed;
    StorageException error;

    private QueueOp(Kind kind) {
        this.kind = kind;
    }

    static QueueOp enqueue(List<QueueJobInput.Checked> jobs) {
        QueueOp op = new QueueOp(Kind.ENQUEUE);
        op.enqueued = jobs;
        return op;
    }

    static QueueOp claim(int limit, boolean withJobs) {
        QueueOp op = new QueueOp(Kind.CLAIM);
        op.limit = limit;
        op.withJobs = withJobs;
        return op;
    }

    static QueueOp complete(List<String> ids, boolean keepDone, boolean single) {
        QueueOp op = new QueueOp(Kind.COMPLETE);
        op.ids = ids;
        op.keepDone = keepDone;
        op.single = single;
        return op;
    }

    /**
     * @param state the state the call runs against
     * @return about how many bytes this call's lines take (a little more, rather than less)
     */
    long estimatedBytes(QueueState state) {
        switch (kind) {
            case ENQUEUE: {
                long bytes = 0;
                for (QueueJobInput.Checked checked : enqueued) {
                    bytes += checked.payloadJson().length + LINE_BYTES;
                }
                return bytes;
            }
            case CLAIM:
                return Math.min(limit, state.counts().pending()) * LINE_BYTES;
            case COMPLETE:
                return (long) ids.size() * LINE_BYTES;
            default:
                return 0;
        }
    }

    /** A framed line's bytes apart from an enqueue's payload: a little more than a claim or complete line takes. */
    private static final long LINE_BYTES = 112;

    /**
     * Picks, applies and encodes this call's events; results are published only if the batch commits.
     *
     * @param now the time, Unix seconds (event stamps)
     * @param nowMs the time, Unix milliseconds (retry times)
     */
    void run(QueueState state, Batch batch, long now, long nowMs) {
        switch (kind) {
            case ENQUEUE: {
                state.expect(enqueued.size());
                for (QueueJobInput.Checked checked : enqueued) {
                    QueueEvent event = QueueEvent.enqueue(checked.id(), checked.payload(), now);
                    batch.apply(state, event, checked.payloadJson()).knownShape(checked.flat());
                }
                break;
            }
            case CLAIM: {
                List<QueueState.Job> picked = state.claimable(limit, nowMs);
                List<StorageRecord> records = new ArrayList<>(picked.size());
                List<QueueJob> jobs = withJobs ? new ArrayList<>(picked.size()) : List.of();
                for (QueueState.Job job : picked) {
                    batch.claim(state, job, now);
                    Map<String, Object> data = job.payload == null ? new LinkedHashMap<>() : job.handOut();
                    StorageRecord record = new StorageRecord(job.id, data);
                    records.add(record);
                    if (withJobs) {
                        jobs.add(new QueueJob(record, job.attempts, Instant.ofEpochSecond(job.enqueueTs),
                                Instant.ofEpochSecond(now)));
                    }
                }
                claimed = records;
                claimedJobs = jobs;
                break;
            }
            case COMPLETE: {
                // a repeated id finds its job done or forgotten by the first complete, so it is skipped
                for (String id : ids) {
                    QueueState.Job job = state.find(id);
                    if (job == null || job.status != QueueState.Status.PROCESSING) {
                        if (single) {
                            error = new StorageException("Cannot complete job " + id + ": "
                                    + (job == null ? "no such job" : "it is " + job.status.name().toLowerCase(Locale.ROOT)
                                            + ", not processing (claimed)") + ", nothing written");
                        }
                        continue;
                    }
                    batch.complete(state, job, keepDone, now);
                    completed++;
                }
                break;
            }
            default:
                throw new IllegalStateException("Unknown op " + kind);
        }
    }
}
