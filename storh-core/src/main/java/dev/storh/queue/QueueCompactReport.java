package dev.storh.queue;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The result of {@link Queue#compact()}: {@code queue.log} rewritten to the events of live jobs only
 * (a Java addition; the original never compacts, W4), e.g.
 * {@code {"bytesBefore":31457280,"bytesAfter":1048576,"events":9000}}.
 *
 * @param bytesBefore size of {@code queue.log} before, in bytes
 * @param bytesAfter size after, in bytes
 * @param events event lines in the rewritten file
 */
public record QueueCompactReport(long bytesBefore, long bytesAfter, long events) {

    /**
     * @return keys bytesBefore, bytesAfter, events
     */
    public Map<String, Object> toMap() {
        Map<String, Object> map = new LinkedHashMap<>();
        map.put("bytesBefore", bytesBefore);
        map.put("bytesAfter", bytesAfter);
        map.put("events", events);
        return map;
    }
}
