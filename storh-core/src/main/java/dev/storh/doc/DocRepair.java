package dev.storh.doc;

import dev.storh.doc.index.ReindexReport;
import dev.storh.store.ReportDetails;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * A collection's part of a {@link dev.storh.store.RepairReport}: what {@link DocStore#repair()}
 * quarantined, swept and rebuilt. The report's JSON shape is
 * {@code {"ok":true,"quarantined":2,"reindexed":{"fields":2,"entries":3}}}. Immutable.
 *
 * @param quarantined corrupt record files moved to {@code .storh/corrupt/}
 * @param removedTempFiles orphan temp files removed (not part of the JSON shape)
 * @param reindexed the index rebuild that followed
 */
public record DocRepair(long quarantined, long removedTempFiles, ReindexReport reindexed) implements ReportDetails {

    /**
     * @throws NullPointerException when reindexed is null
     */
    public DocRepair {
        Objects.requireNonNull(reindexed, "reindexed");
    }

    /**
     * @return {@code quarantined} and {@code reindexed}, in that order
     */
    @Override
    public Map<String, Object> toMap() {
        Map<String, Object> map = new LinkedHashMap<>();
        map.put("quarantined", quarantined);
        map.put("reindexed", reindexed.toMap());
        return map;
    }
}
