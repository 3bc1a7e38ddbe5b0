package dev.storh.queue;

import dev.storh.store.ReportDetails;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The queue's part of a {@link dev.storh.store.RepairReport} from {@link Queue#repair(java.time.Duration)}:
 * the whole report reads e.g. {@code {"ok":true,"requeued":1}}, plus {@code "removed"} when damaged
 * stretches left the log.
 *
 * @param requeued processing jobs that had passed the timeout and went back to pending
 * @param truncatedBytes bytes cut from the end of {@code queue.log} at its bad tail (not in the JSON
 *     shape; the cut bytes are kept in {@code queue.log.cut-*} when they held a complete line)
 */
public record QueueRepairDetails(int requeued, long truncatedBytes) implements ReportDetails {

    /**
     * @return {@code {"requeued": <long>}}
     */
    @Override
    public Map<String, Object> toMap() {
        Map<String, Object> map = new LinkedHashMap<>();
        map.put("requeued", (long) requeued);
        return map;
    }
}
