package dev.storh.queue;

import dev.storh.StorageRecord;
import java.time.Instant;
import java.util.Map;
import java.util.Objects;

/**
 * A claimed job with what the queue knows about it, as {@link Queue#claimJobs(int)} returns it.
 *
 * @param record the job's id and a copy of its payload ({@code {}} when it had none)
 * @param attempts how many times the job has been claimed since it was enqueued, this claim
 *     included (so 1 on the first delivery); claims that were later released unprocessed
 *     ({@link Queue#release}) do not count, claims lost to a crash and requeued after their
 *     timeout do. Kept in the queue's events, so it survives restarts and compaction.
 * @param enqueuedAt when the job was last enqueued, whole seconds (the writer's clock)
 * @param claimedAt when this claim was made, whole seconds
 */
public record QueueJob(StorageRecord record, int attempts, Instant enqueuedAt, Instant claimedAt) {

    /**
     * @throws NullPointerException if record or a time is {@code null}
     */
    public QueueJob {
        Objects.requireNonNull(record, "record");
        Objects.requireNonNull(enqueuedAt, "enqueuedAt");
        Objects.requireNonNull(claimedAt, "claimedAt");
    }

    /**
     * @return the job id, a UUIDv7
     */
    public String id() {
        return record.id();
    }

    /**
     * @return the job's payload, unmodifiable at its top level
     */
    public Map<String, Object> payload() {
        return record.data();
    }
}
