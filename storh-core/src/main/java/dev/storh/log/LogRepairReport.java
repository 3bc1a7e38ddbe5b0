package dev.storh.log;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The result of {@link SegmentedLog#repair()}: {@code {"ok":true,"stats":{…}}}.
 * Repair failures are thrown, not reported, so {@code ok} is always true.
 *
 * @param ok always {@code true}
 * @param bytesCut bytes of torn tails cut from segment ends
 * @param stats statistics after the repair
 */
public record LogRepairReport(boolean ok, long bytesCut, LogStats stats) {

    /**
     * @return the spec's JSON shape {@code ok, stats}, plus {@code bytesCut}
     */
    public Map<String, Object> toMap() {
        Map<String, Object> map = new LinkedHashMap<>();
        map.put("ok", ok);
        map.put("stats", stats.toMap());
        map.put("bytesCut", bytesCut);
        return map;
    }
}
