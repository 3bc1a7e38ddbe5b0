package dev.storh.log;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The result of {@link SegmentedLog#repair()}: {@code {"ok":true,"stats":{…}}}.
 * Repair failures are thrown, not reported, so {@code ok} is always true.
 *
 * @param ok always {@code true}
 * @param bytesCut bytes of torn tails cut from segment ends
 * @param stats statistics after the repair
 * @param removed one line per damaged stretch taken out of a segment, e.g.
 *     {@code "/data/events/segments/seg-000001.ndjson:142: 109 bytes (Corrupt segmented log line. At
 *     ...:142), kept in .storh/corrupt/seg-000001.ndjson.142-1795997943000.bad"}; empty when none
 */
public record LogRepairReport(boolean ok, long bytesCut, LogStats stats, List<String> removed) {

    /**
     * @throws NullPointerException when removed is null
     */
    public LogRepairReport {
        removed = List.copyOf(removed);
    }

    /**
     * A report with nothing removed.
     *
     * @param ok always true
     * @param bytesCut bytes cut from torn tails
     * @param stats statistics after the repair
     */
    public LogRepairReport(boolean ok, long bytesCut, LogStats stats) {
        this(ok, bytesCut, stats, List.of());
    }

    /**
     * @return the spec's JSON shape {@code ok, stats}, plus {@code bytesCut}, plus {@code removed} when
     *     something was removed
     */
    public Map<String, Object> toMap() {
        Map<String, Object> map = new LinkedHashMap<>();
        map.put("ok", ok);
        map.put("stats", stats.toMap());
        map.put("bytesCut", bytesCut);
        if (!removed.isEmpty()) {
            map.put("removed", removed);
        }
        return map;
    }
}
