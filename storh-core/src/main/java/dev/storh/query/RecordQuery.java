package dev.storh.query;

import dev.storh.StorageException;
import dev.storh.id.UuidV7;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.function.BiConsumer;

/**
 * An immutable filter for streaming records: ids strictly after a
 * cursor, ids inside a time range, equality on top-level fields, a limit, and an optional handler
 * that receives corrupt records instead of failing the stream.
 *
 * <pre>
 * RecordQuery.all().after(lastId).timeRangeMs(from, until).whereEqual("kind", "page").limit(50)
 * </pre>
 *
 * Id filters are applied to file names before any file is read, so a corrupt file outside the
 * requested range never disturbs the stream (the original parses everything first).
 * Each method returns a new query; instances are thread-safe.
 *
 * @param after the cursor, lowercase, or {@code null}
 * @param fromId the smallest id of the time range (inclusive), or {@code null}
 * @param untilId the largest id of the time range (inclusive), or {@code null}
 * @param equalities the equality conditions in the order they were added, each a top-level field
 *     and its value in the JSON model (normalised as by {@link #whereEqual}); unmodifiable, empty
 *     when none
 * @param limit the limit, or 0 when unlimited
 * @param errorHandler the error handler, or {@code null}
 */
public record RecordQuery(String after, String fromId, String untilId, List<Map.Entry<String, Object>> equalities,
        long limit, BiConsumer<String, StorageException> errorHandler) {

    private static final RecordQuery ALL = new RecordQuery(null, null, null, List.of(), 0, null);

    /**
     * The query of these parts as they are; {@link #all()} and the methods that derive a query
     * normalise and check each part first, and are the usual way to build one.
     *
     * @throws IllegalArgumentException when {@code limit} is negative
     * @throws NullPointerException when {@code equalities} or one of its entries is null
     */
    public RecordQuery {
        equalities = List.copyOf(equalities);
        if (limit < 0) {
            throw new IllegalArgumentException("limit must be at least 0, got " + limit);
        }
    }

    /**
     * @return the query that matches every record
     */
    public static RecordQuery all() {
        return ALL;
    }

    /**
     * @param id a valid UUIDv7 cursor (either case)
     * @return a query for records with ids strictly greater than {@code id}
     * @throws StorageException when the id is invalid
     */
    public RecordQuery after(String id) {
        return new RecordQuery(UuidV7.normalize(id), fromId, untilId, equalities, limit, errorHandler);
    }

    /**
     * @param fromMs first millisecond, inclusive
     * @param untilMs last millisecond, inclusive
     * @return a query for records whose id timestamp lies in {@code [fromMs, untilMs]}
     * @throws StorageException when a bound is outside 48 bits
     */
    public RecordQuery timeRangeMs(long fromMs, long untilMs) {
        return new RecordQuery(after, UuidV7.minForTimestampMs(fromMs), UuidV7.maxForTimestampMs(untilMs),
                equalities, limit, errorHandler);
    }

    /**
     * @param field a top-level field name
     * @param value a scalar (String, number, Boolean) or {@code null}; {@code null} matches only an
     *     explicit {@code null}, never a missing field; numbers match by type ({@code 1} is not {@code 1.0})
     * @return a query that also requires {@code data[field] == value}
     */
    public RecordQuery whereEqual(String field, Object value) {
        Objects.requireNonNull(field, "field");
        List<Map.Entry<String, Object>> next = new ArrayList<>(equalities);
        next.add(new java.util.AbstractMap.SimpleImmutableEntry<>(field, normalise(value)));
        return new RecordQuery(after, fromId, untilId, List.copyOf(next), limit, errorHandler);
    }

    /**
     * @param n the most records to return, at least 1
     * @return a limited query
     * @throws IllegalArgumentException when {@code n < 1}
     */
    public RecordQuery limit(long n) {
        if (n < 1) {
            throw new IllegalArgumentException("limit must be at least 1, got " + n);
        }
        return new RecordQuery(after, fromId, untilId, equalities, n, errorHandler);
    }

    /**
     * @param handler receives the id taken from the file name and the error for each corrupt record,
     *     which is then skipped; without a handler the stream throws
     * @return a query that continues past corrupt records
     */
    public RecordQuery continueOnError(BiConsumer<String, StorageException> handler) {
        return new RecordQuery(after, fromId, untilId, equalities, limit, Objects.requireNonNull(handler, "handler"));
    }

    /**
     * @param id an id taken from a file name
     * @return whether the id passes the cursor and time range
     */
    public boolean matchesId(String id) {
        return (after == null || compareLowered(id, after) > 0)
                && (fromId == null || compareLowered(id, fromId) >= 0)
                && (untilId == null || compareLowered(id, untilId) <= 0);
    }

    /**
     * @return the sign of {@code id.toLowerCase(Locale.ROOT).compareTo(bound)}, without making the
     *     lowercase copy while the characters compared are ASCII
     */
    private static int compareLowered(String id, String bound) {
        int n = Math.min(id.length(), bound.length());
        for (int i = 0; i < n; i++) {
            char c = id.charAt(i);
            if (c >= 0x80) {
                return id.toLowerCase(Locale.ROOT).compareTo(bound);
            }
            int d = (c >= 'A' && c <= 'Z' ? c + ('a' - 'A') : c) - bound.charAt(i);
            if (d != 0) {
                return d;
            }
        }
        return id.length() - bound.length();
    }

    /**
     * @param data a record's data
     * @return whether every equality condition holds
     */
    public boolean matchesData(Map<String, Object> data) {
        for (int i = 0; i < equalities.size(); i++) {
            Map.Entry<String, Object> condition = equalities.get(i);
            Object expected = condition.getValue();
            Object actual = data.get(condition.getKey());
            if (expected instanceof String) {
                // no other kind normalises to a string: identical to a string is an equal string (one map look)
                if (!expected.equals(actual)) {
                    return false;
                }
            } else if (actual == null && !data.containsKey(condition.getKey()) || !Values.identical(actual, expected)) {
                return false;
            }
        }
        return true;
    }

    /**
     * @return whether the query reads record data (equality conditions present)
     */
    public boolean hasDataConditions() {
        return !equalities.isEmpty();
    }

    private static Object normalise(Object v) {
        return Values.normalise(v);
    }

    @Override
    public String toString() {
        return "RecordQuery[after=" + after + ", from=" + fromId + ", until=" + untilId + ", equals=" + equalities
                + ", limit=" + limit + "]";
    }
}
