package dev.storh.doc;

import dev.storh.json.RecordFields;
import dev.storh.store.Stats;
import java.util.Map;

/**
 * The result of {@link DocStore#stats()}, e.g.
 * {@code {"records":3000,"bytes":655976,"corrupt":0,"indexes":5}}.
 *
 * @param records valid record files
 * @param bytes total size of all record files in bytes, corrupt ones included
 * @param corrupt record files that fail validation
 * @param indexes index field definitions in the collection's index manifest
 */
public record StoreStats(long records, long bytes, long corrupt, int indexes) implements Stats {

    /**
     * @return the spec's JSON shape, keys in the original's order
     */
    @Override
    public Map<String, Object> toMap() {
        return RecordFields.of(this);
    }
}
