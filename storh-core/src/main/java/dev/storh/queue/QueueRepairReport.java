package dev.storh.queue;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The result of {@link Queue#repair(java.time.Duration)}, e.g.
 * {@code {"ok":true,"requeued":1}}.
 *
 * @param ok always true when returned (a repair that fails throws)
 * @param requeued processing jobs that had passed the timeout and went back to pending
 * @param truncatedBytes bytes cut from the end of {@code queue.log} at its first undecodable line
 *     (a Java addition, not in the JSON shape; the cut bytes are kept in {@code queue.log.cut-*}
 *     when they held a complete line)
 */
public record QueueRepairReport(boolean ok, int requeued, long truncatedBytes) {

    /**
     * @return the spec's JSON shape: ok, requeued
     */
    public Map<String, Object> toMap() {
        Map<String, Object> map = new LinkedHashMap<>();
        map.put("ok", ok);
        map.put("requeued", (long) requeued);
        return map;
    }
}
