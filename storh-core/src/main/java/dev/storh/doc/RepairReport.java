package dev.storh.doc;

import dev.storh.doc.index.ReindexReport;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The result of {@link DocStore#repair()}:
 * {@code {"ok":true,"quarantined":2,"reindexed":{"fields":2,"entries":3}}}.
 *
 * @param ok always true: failures throw
 * @param quarantined corrupt record files moved to {@code .storh/corrupt/}
 * @param removedTempFiles orphan temp files removed (not part of the original's JSON shape)
 * @param reindexed the rebuild that followed
 */
public record RepairReport(boolean ok, long quarantined, long removedTempFiles, ReindexReport reindexed) {

    /**
     * @return the spec's JSON shape
     */
    public Map<String, Object> toMap() {
        Map<String, Object> map = new LinkedHashMap<>();
        map.put("ok", ok);
        map.put("quarantined", quarantined);
        map.put("reindexed", reindexed.toMap());
        return map;
    }
}
