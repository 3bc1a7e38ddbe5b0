package dev.storh.log;

import dev.storh.query.Values;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;

/**
 * How many live records hold each value of each top-level field, so that a count with one
 * equality condition ({@code whereEqual("status", "published")}) is answered from memory instead of
 * decoding every segment line.
 *
 * <p><b>What is counted.</b> Only values a strict equality ({@link Values#identical}) can match exactly
 * by {@code equals}: strings, booleans, {@code null} and integers that fit a {@code Long} (in their
 * {@link Values#normalise normalised} form). Fractions, big integers, lists and objects are not
 * counted: they are never identical to a counted value, so they never add to a counted answer, and a
 * query for one of them is answered by a scan. A field that holds more than {@value #MAX_VALUES}
 * distinct counted values at once is dropped (its counts are no use for a small answer; queries on it
 * scan); more than {@value #MAX_FIELDS} fields at once give up counting altogether. Memory is thereby
 * bounded (at most {@value #MAX_FIELDS} × {@value #MAX_VALUES} counters), whatever the number of
 * records.
 *
 * <p><b>Keeping them exact.</b> The counts belong to one {@link StateIndex} and move with it: every line
 * that becomes an id's latest state adds its record's values, and the record it replaces (an
 * overwrite, a delete) takes its values away again. A rebuilt state index starts without counts
 * ({@link #unbuilt()}) unless it has no live record; the first count that needs them builds them from
 * one scan of the snapshot it reads ({@code LogCounts}). Whenever an update cannot be applied
 * exactly (the old line cannot be read back), the counts are {@link #discard discarded} and the next
 * count scans again. Not thread-safe: the owning log's state monitor guards it.
 */
final class EqualityCounts {

    /** Most distinct counted values a field may hold at once before it is dropped. */
    static final int MAX_VALUES = 64;
    /** Most counted fields at once before counting gives up. */
    static final int MAX_FIELDS = 64;

    /** The key of JSON {@code null}. */
    static final Object NULL_VALUE = new Object() {
        @Override
        public String toString() {
            return "null";
        }
    };
    /** A field that went past {@link #MAX_VALUES}. */
    private static final Map<Object, long[]> DROPPED = Map.of();

    private final Map<String, Map<Object, long[]>> fields;
    private boolean usable;
    /** Set when the records hold too many fields to count: building again would give up again. */
    private boolean overflowed;

    private EqualityCounts(boolean built) {
        this.usable = built;
        this.fields = built ? new HashMap<>() : Map.of();
    }

    /** @return counts that must be built before use */
    static EqualityCounts unbuilt() {
        return new EqualityCounts(false);
    }

    /** @return exact counts of an empty log, to be kept up to date from now on */
    static EqualityCounts empty() {
        return new EqualityCounts(true);
    }

    /** @return whether the counts are exact for the owning state index */
    boolean usable() {
        return usable;
    }

    /** @return whether building these counts (again) from a scan may give usable counts */
    boolean worthBuilding() {
        return !usable && !overflowed;
    }

    /** Gives up: the counts are no longer exact; they are built again on the next count that needs them. */
    void discard() {
        usable = false;
        fields.clear();
    }

    /**
     * @param field a top-level field
     * @param key a counter key, from {@link #key}
     * @return the number of live records whose {@code field} is identical to the value of {@code key},
     *     or -1 when these counts cannot tell (not usable, a dropped field)
     */
    long count(String field, Object key) {
        if (!usable) {
            return -1;
        }
        Map<Object, long[]> values = fields.get(field);
        if (values == null) {
            return 0;
        }
        if (values == DROPPED) {
            return -1;
        }
        long[] n = values.get(key);
        return n == null ? 0 : n[0];
    }

    /**
     * Adds one live record.
     *
     * @param keys its counted values, from {@link #keysOf}
     */
    void add(Object[] keys) {
        move(keys, 1);
    }

    /**
     * Takes one live record away.
     *
     * @param keys its counted values, from {@link #keysOf}
     */
    void remove(Object[] keys) {
        move(keys, -1);
    }

    private void move(Object[] keys, int delta) {
        if (!usable) {
            return;
        }
        for (int i = 0; i < keys.length; i += 2) {
            String field = (String) keys[i];
            Map<Object, long[]> values = fields.get(field);
            if (values == DROPPED) {
                continue;
            }
            if (values == null) {
                if (delta < 0) {
                    discard(); // taking away what was never added: the counts were wrong
                    return;
                }
                if (fields.size() >= MAX_FIELDS) {
                    discard();
                    overflowed = true;
                    return;
                }
                values = new HashMap<>();
                fields.put(field, values);
            }
            long[] n = values.get(keys[i + 1]);
            if (n == null) {
                if (delta < 0) {
                    discard();
                    return;
                }
                if (values.size() >= MAX_VALUES) {
                    fields.put(field, DROPPED);
                    continue;
                }
                values.put(keys[i + 1], new long[] {1});
            } else if ((n[0] += delta) == 0) {
                values.remove(keys[i + 1]);
            }
        }
    }

    /**
     * The counted values of a record, as the record reads back from its line.
     *
     * @param data top-level record data
     * @return field, key, field, key, … for the fields holding a counted value; {@code null} when a value
     *     is of a kind whose stored form is not known without encoding it (then decode the line instead)
     */
    static Object[] keysOf(Map<String, ?> data) {
        Object[] keys = new Object[data.size() * 2];
        int n = 0;
        for (Map.Entry<String, ?> e : data.entrySet()) {
            Object v = e.getValue();
            if (!knownForm(v)) {
                return null;
            }
            Object key = key(v);
            if (key != null) {
                keys[n++] = e.getKey();
                keys[n++] = key;
            }
        }
        return n == keys.length ? keys : java.util.Arrays.copyOf(keys, n);
    }

    /** Whether {@link Values#normalise} gives exactly what the value reads back as from a line. */
    private static boolean knownForm(Object v) {
        return v == null || v instanceof String || v instanceof Boolean || v instanceof Long || v instanceof Integer
                || v instanceof Short || v instanceof Byte || v instanceof BigInteger || v instanceof BigDecimal
                || v instanceof Double || v instanceof Float || v instanceof Map || v instanceof Collection
                || v instanceof Object[];
    }

    /**
     * @param value a value (a query value, or a record's)
     * @return its counter key, or {@code null} when values of its kind are not counted (only strings,
     *     booleans, null and 64-bit integers are)
     */
    static Object key(Object value) {
        Object v = Values.normalise(value);
        if (v == null) {
            return NULL_VALUE;
        }
        return v instanceof String || v instanceof Boolean || v instanceof Long ? v : null;
    }
}
