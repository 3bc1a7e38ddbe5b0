package dev.storh.log;

import dev.storh.query.RecordQuery;

/**
 * The id bounds of a {@link RecordQuery} that a log uses to skip segments and seek:
 * the exclusive cursor, and the inclusive lower and upper ids of its
 * time range. The query itself still decides every match through {@link RecordQuery#matchesId}.
 *
 * @param after the cursor, exclusive, or {@code null}
 * @param lower the smallest id in the time range, or {@code null}
 * @param upper the largest id in the time range, or {@code null}
 */
record QueryBounds(String after, String lower, String upper) {

    /**
     * @param q a query
     * @return its bounds
     */
    static QueryBounds of(RecordQuery q) {
        return new QueryBounds(q.after(), q.fromId(), q.untilId());
    }

    /**
     * @return the id a seek starts from: the larger of the cursor and the lower bound, or {@code null}
     */
    String seekId() {
        if (after == null) {
            return lower;
        }
        return lower == null || after.compareTo(lower) > 0 ? after : lower;
    }

    /**
     * @param min a segment's smallest id
     * @param max its largest id
     * @return whether no id in {@code [min, max]} can match
     */
    boolean excludes(String min, String max) {
        if (min == null || max == null) {
            return false;
        }
        return (after != null && max.compareTo(after) <= 0) || (lower != null && max.compareTo(lower) < 0)
                || (upper != null && min.compareTo(upper) > 0);
    }
}
