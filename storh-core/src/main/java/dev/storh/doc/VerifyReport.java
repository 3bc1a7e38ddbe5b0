package dev.storh.doc;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The result of {@link DocStore#verify()} and {@link DocStore#health()}: {@code {"ok":true,"errors":[],"stats":{...}}}.
 *
 * @param ok whether no error was found
 * @param errors problems in the original's wording
 * @param stats the record statistics of the same scan
 */
public record VerifyReport(boolean ok, List<String> errors, StoreStats stats) {

    /**
     * @return the spec's JSON shape
     */
    public Map<String, Object> toMap() {
        Map<String, Object> map = new LinkedHashMap<>();
        map.put("ok", ok);
        map.put("errors", errors);
        map.put("stats", stats.toMap());
        return map;
    }
}
