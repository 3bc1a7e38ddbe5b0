package dev.storh.mirror;

import dev.storh.json.JsonShape;
import dev.storh.json.RecordFields;
import java.util.Map;

/**
 * What {@link SqlMirror#push} and {@link SqlMirror#rebuild} did, summed over the collections visited.
 *
 * @param inserted rows written for records the table lacked
 * @param updated rows rewritten because the record's hash changed
 * @param deleted rows removed because their record no longer exists
 * @param unchanged records whose row already had the same hash
 */
public record PushResult(long inserted, long updated, long deleted, long unchanged) implements JsonShape {

    /** No change at all. */
    public static final PushResult ZERO = new PushResult(0, 0, 0, 0);

    /**
     * @param other another result
     * @return the counter-wise sum
     */
    public PushResult plus(PushResult other) {
        return new PushResult(inserted + other.inserted, updated + other.updated, deleted + other.deleted,
                unchanged + other.unchanged);
    }

    /**
     * @return {@code {"inserted":…,"updated":…,"deleted":…,"unchanged":…}} in that order
     */
    @Override
    public Map<String, Object> toMap() {
        return RecordFields.of(this);
    }
}
