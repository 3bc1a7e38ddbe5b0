package dev.storh.queue;

import dev.storh.json.RecordFields;
import dev.storh.store.ReportDetails;
import java.util.Map;

/**
 * The queue's part of a {@link dev.storh.store.CompactReport} from {@link Queue#compact()}:
 * {@code queue.log} rewritten to the events of live jobs only (the original never compacts). The
 * whole report reads e.g. {@code {"ok":true,"bytesBefore":31457280,"bytesAfter":1048576,"events":9000}}.
 *
 * @param bytesBefore size of {@code queue.log} before, in bytes
 * @param bytesAfter size after, in bytes
 * @param events event lines in the rewritten file
 */
public record QueueCompact(long bytesBefore, long bytesAfter, long events) implements ReportDetails {

    /**
     * @return keys bytesBefore, bytesAfter, events
     */
    @Override
    public Map<String, Object> toMap() {
        return RecordFields.of(this);
    }
}
