package dev.storh.queue;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The result of {@link Queue#counts()}, e.g.
 * {@code {"pending":60,"processing":15,"done":20}}.
 *
 * @param pending jobs waiting to be claimed
 * @param processing jobs claimed and not yet completed or requeued
 * @param done jobs completed with {@code keepDone} and not yet purged
 */
public record QueueCounts(long pending, long processing, long done) {

    /**
     * @return the spec's JSON shape, keys in the original's order
     */
    public Map<String, Object> toMap() {
        Map<String, Object> map = new LinkedHashMap<>();
        map.put("pending", pending);
        map.put("processing", processing);
        map.put("done", done);
        return map;
    }
}
