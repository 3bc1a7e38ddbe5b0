package dev.storh.store;

import dev.storh.json.JsonShape;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The engine-specific part of a {@link RepairReport} or {@link CompactReport}: what only that
 * engine does (a collection quarantines and reindexes, a log cuts torn tails, a queue requeues).
 */
public interface ReportDetails extends JsonShape {

    /**
     * @return the part's keys of the report's JSON shape, in order
     */
    @Override
    Map<String, Object> toMap();

    /**
     * @param ok the report's {@code ok}
     * @return a new, modifiable map: {@code ok}, then this part's keys in order; the start of the
     *     JSON shape of the repair and compact reports
     */
    default Map<String, Object> toReportMap(boolean ok) {
        Map<String, Object> map = new LinkedHashMap<>();
        map.put("ok", ok);
        map.putAll(toMap());
        return map;
    }
}
