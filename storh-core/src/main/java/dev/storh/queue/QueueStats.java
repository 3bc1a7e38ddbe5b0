package dev.storh.queue;

import dev.storh.json.RecordFields;
import dev.storh.store.Stats;
import java.util.Map;

/**
 * The result of {@link Queue#stats()}, e.g.
 * {@code {"pending":60,"processing":15,"done":20,"bytes":18825}}.
 *
 * @param pending jobs waiting to be claimed
 * @param processing jobs claimed and not yet completed or requeued
 * @param done jobs completed with {@code keepDone} and not yet purged
 * @param bytes the size of {@code queue.log} in bytes
 */
public record QueueStats(long pending, long processing, long done, long bytes) implements Stats {

    /**
     * @return the counts part
     */
    public QueueCounts counts() {
        return new QueueCounts(pending, processing, done);
    }

    /**
     * @return jobs in any state: pending, processing and done
     */
    @Override
    public long records() {
        return pending + processing + done;
    }

    /**
     * @return the spec's JSON shape, keys in the original's order
     */
    @Override
    public Map<String, Object> toMap() {
        return RecordFields.of(this);
    }
}
