package dev.storh.mirror;

import dev.storh.json.JsonShape;
import dev.storh.json.RecordFields;
import java.util.Map;

/**
 * What {@link SqlMirror#flush} did.
 *
 * @param upserted listed ids whose record exists: their row was (re)written
 * @param deleted listed ids the store does not hold: any row with that id was removed (counted
 *     whether or not a row existed)
 */
public record FlushResult(long upserted, long deleted) implements JsonShape {

    /**
     * @return {@code {"upserted":…,"deleted":…}}
     */
    @Override
    public Map<String, Object> toMap() {
        return RecordFields.of(this);
    }
}
