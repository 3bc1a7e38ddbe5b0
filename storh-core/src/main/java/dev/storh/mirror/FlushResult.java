package dev.storh.mirror;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What {@link SqlMirror#flush} did.
 *
 * @param upserted listed ids whose record exists: their row was (re)written
 * @param deleted listed ids the store does not hold: any row with that id was removed (counted
 *     whether or not a row existed)
 */
public record FlushResult(long upserted, long deleted) {

    /**
     * @return {@code {"upserted":…,"deleted":…}}
     */
    public Map<String, Object> toMap() {
        Map<String, Object> map = new LinkedHashMap<>();
        map.put("upserted", upserted);
        map.put("deleted", deleted);
        return map;
    }
}
