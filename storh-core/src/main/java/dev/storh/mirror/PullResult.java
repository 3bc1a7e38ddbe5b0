package dev.storh.mirror;

import dev.storh.json.JsonShape;
import dev.storh.json.RecordFields;
import java.util.Map;

/**
 * What {@link SqlMirror#pull} did, summed over the collections visited.
 *
 * @param written rows written into the store (new records, or records whose data differed)
 * @param unchanged rows whose record already held the same data
 */
public record PullResult(long written, long unchanged) implements JsonShape {

    /**
     * @param other another result
     * @return the counter-wise sum
     */
    public PullResult plus(PullResult other) {
        return new PullResult(written + other.written, unchanged + other.unchanged);
    }

    /**
     * @return {@code {"written":…,"unchanged":…}}
     */
    @Override
    public Map<String, Object> toMap() {
        return RecordFields.of(this);
    }
}
