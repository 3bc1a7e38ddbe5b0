package dev.storh.log;

import dev.storh.store.ReportDetails;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * The log's part of a {@link dev.storh.store.RepairReport} from {@link SegmentedLog#repair()}; with it
 * the report's JSON shape is {@code {"ok":true,"stats":{…},"bytesCut":0[,"removed":[…]]}}. The
 * report's {@code removed} lines name each damaged stretch taken out of a segment, e.g.
 * {@code "/data/events/segments/seg-000001.ndjson:142: 109 bytes (Corrupt segmented log line. At
 * ...:142), kept in .storh/corrupt/seg-000001.ndjson.142-1795997943000.bad"}.
 *
 * @param bytesCut bytes of torn tails cut from segment ends
 * @param stats statistics after the repair
 */
public record LogRepair(long bytesCut, LogStats stats) implements ReportDetails {

    /**
     * @throws NullPointerException when stats is null
     */
    public LogRepair {
        Objects.requireNonNull(stats, "stats");
    }

    /**
     * @return {@code stats, bytesCut}
     */
    @Override
    public Map<String, Object> toMap() {
        Map<String, Object> map = new LinkedHashMap<>();
        map.put("stats", stats.toMap());
        map.put("bytesCut", bytesCut);
        return map;
    }
}
