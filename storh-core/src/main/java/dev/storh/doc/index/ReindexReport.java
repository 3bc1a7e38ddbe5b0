package dev.storh.doc.index;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The result of a rebuild: {@code {"fields":2,"entries":3}}.
 *
 * @param fields index definitions
 * @param entries records read
 */
public record ReindexReport(int fields, long entries) {

    /**
     * @return the spec's JSON shape
     */
    public Map<String, Object> toMap() {
        Map<String, Object> map = new LinkedHashMap<>();
        map.put("fields", (long) fields);
        map.put("entries", entries);
        return map;
    }
}
