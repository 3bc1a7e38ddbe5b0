package dev.storh.queue;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The result of {@link Queue#repair(java.time.Duration)}, e.g.
 * {@code {"ok":true,"requeued":1}}.
 *
 * @param ok always true when returned (a repair that fails throws)
 * @param requeued processing jobs that had passed the timeout and went back to pending
 * @param truncatedBytes bytes cut from the end of {@code queue.log} at its bad tail (a Java
 *     addition, not in the JSON shape; the cut bytes are kept in {@code queue.log.cut-*} when they
 *     held a complete line)
 * @param removed what left the log, one entry per stretch, e.g. {@code "/q/jobs/queue.log:812: 45
 *     bytes on line 10 (Corrupt log queue line.), kept in queue.log.cut-812-1795997943000"}; empty
 *     when the log was clean (a Java addition)
 */
public record QueueRepairReport(boolean ok, int requeued, long truncatedBytes, List<String> removed) {

    /**
     * @throws NullPointerException when removed is null
     */
    public QueueRepairReport {
        removed = List.copyOf(removed);
    }

    /**
     * A report with nothing removed.
     *
     * @param ok always true
     * @param requeued requeued jobs
     * @param truncatedBytes bytes cut from the tail
     */
    public QueueRepairReport(boolean ok, int requeued, long truncatedBytes) {
        this(ok, requeued, truncatedBytes, List.of());
    }

    /**
     * @return the spec's JSON shape: ok, requeued; plus {@code removed} when something was removed
     */
    public Map<String, Object> toMap() {
        Map<String, Object> map = new LinkedHashMap<>();
        map.put("ok", ok);
        map.put("requeued", (long) requeued);
        if (!removed.isEmpty()) {
            map.put("removed", removed);
        }
        return map;
    }
}
