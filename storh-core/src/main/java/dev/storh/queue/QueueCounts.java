package dev.storh.queue;

import dev.storh.json.JsonShape;
import dev.storh.json.RecordFields;
import java.util.Map;

/**
 * The result of {@link Queue#counts()}, e.g.
 * {@code {"pending":60,"processing":15,"done":20}}.
 *
 * @param pending jobs waiting to be claimed
 * @param processing jobs claimed and not yet completed or requeued
 * @param done jobs completed with {@code keepDone} and not yet purged
 */
public record QueueCounts(long pending, long processing, long done) implements JsonShape {

    /**
     * @return the spec's JSON shape, keys in the original's order
     */
    @Override
    public Map<String, Object> toMap() {
        return RecordFields.of(this);
    }
}
