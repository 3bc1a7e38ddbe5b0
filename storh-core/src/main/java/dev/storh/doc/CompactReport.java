package dev.storh.doc;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The result of {@link DocStore#compact()}: {@code {"ok":true,"records":3}}.
 * A DocStore has nothing to compact (each record is its own file); the call reports the count.
 *
 * @param ok always true
 * @param records valid records
 */
public record CompactReport(boolean ok, long records) {

    /**
     * @return the spec's JSON shape
     */
    public Map<String, Object> toMap() {
        Map<String, Object> map = new LinkedHashMap<>();
        map.put("ok", ok);
        map.put("records", records);
        return map;
    }
}
