package dev.storh.mirror;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What {@link SqlMirror#push} and {@link SqlMirror#rebuild} did, summed over the collections visited.
 *
 * @param inserted rows written for records the table lacked
 * @param updated rows rewritten because the record's hash changed
 * @param deleted rows removed because their record no longer exists
 * @param unchanged records whose row already had the same hash
 */
public record PushResult(long inserted, long updated, long deleted, long unchanged) {

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
    public Map<String, Object> toMap() {
        Map<String, Object> map = new LinkedHashMap<>();
        map.put("inserted", inserted);
        map.put("updated", updated);
        map.put("deleted", deleted);
        map.put("unchanged", unchanged);
        return map;
    }
}
