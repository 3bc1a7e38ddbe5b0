package dev.storh.log;

import dev.storh.json.RecordFields;
import dev.storh.store.Stats;
import java.util.Map;

/**
 * The result of {@link SegmentedLog#stats()}, e.g.
 * {@code {"segments":1,"records":1,"deleted":1,"bytes":412}}.
 *
 * @param segments manifest entries, the active one included
 * @param records live ids (latest line is a put)
 * @param deleted ids whose latest line is a tombstone (kept until compaction)
 * @param bytes total size in bytes of the {@code .ndjson} files the manifest references
 */
public record LogStats(long segments, long records, long deleted, long bytes) implements Stats {

    /**
     * @return the spec's JSON shape: {@code segments, records, deleted, bytes}
     */
    @Override
    public Map<String, Object> toMap() {
        return RecordFields.of(this);
    }
}
