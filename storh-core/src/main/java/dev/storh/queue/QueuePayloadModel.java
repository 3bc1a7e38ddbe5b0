package dev.storh.queue;

import dev.storh.json.Jsonc;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A job payload in the JSON model, as the queue keeps it: normalised as the original reads it, read
 * back from its encoded bytes, copied without decoding them when that gives the same model, and handed
 * out so that no caller reaches the queue state's own objects. Stateless and thread-safe.
 */
final class QueuePayloadModel {

    private QueuePayloadModel() {
    }

    /**
     * The original's payload reading: a non-object becomes {@code {}}, and top-level
     * keys PHP would turn into integers are dropped; nested values are kept as they are.
     *
     * @param payload a decoded value
     * @return a mutable map
     */
    @SuppressWarnings("unchecked")
    static Map<String, Object> normalisePayload(Object payload) {
        if (!(payload instanceof Map)) {
            return new LinkedHashMap<>();
        }
        Map<String, Object> map = (Map<String, Object>) payload;
        boolean clean = true;
        for (String key : map.keySet()) {
            if (isIntegerLike(key)) {
                clean = false;
                break;
            }
        }
        if (clean) {
            return map;
        }
        Map<String, Object> kept = new LinkedHashMap<>();
        map.forEach((k, v) -> {
            if (!isIntegerLike(k)) {
                kept.put(k, v);
            }
        });
        return kept;
    }

    /**
     * Turns an encoded payload back into the model a replay would produce ({@code Long} for every
     * integer, {@code Double} for every fraction), so in-memory state equals replayed state.
     *
     * @param payloadJson compact payload JSON as {@link QueuePayloadJson#encodePayload} wrote it
     * @return the decoded, normalised payload
     */
    static Map<String, Object> reread(byte[] payloadJson) {
        if (payloadJson.length == 2 && payloadJson[0] == '[') {
            return new LinkedHashMap<>();
        }
        return normalisePayload(Jsonc.decodeStrict(payloadJson));
    }

    /**
     * The model a replay reads back from a payload {@link QueuePayloadJson#encodePayload} has just encoded, built without
     * decoding the bytes: a copy of its maps (string keys, in their order) and lists, every integer as a
     * {@code Long}, strings, booleans and nulls as they are. A payload of 1 to {@link PayloadMap#MAX_KEYS}
     * keys becomes a {@link PayloadMap} at its top level (immutable; nested maps are {@code LinkedHashMap}s).
     *
     * @param payload a payload that encoded without error
     * @return the copy, or {@code null} when it holds a value whose read-back form only decoding tells
     *     (a fraction, a big or atomic number, an array, a character): then {@link #reread} the bytes
     */
    @SuppressWarnings("unchecked")
    static Map<String, Object> replayCopy(Map<String, ?> payload) {
        int size = payload.size();
        if (size == 0 || size > PayloadMap.MAX_KEYS) {
            Object copy = plainCopy(payload);
            return copy == NOT_PLAIN ? null : (Map<String, Object>) copy;
        }
        String[] keys = new String[size];
        Object[] values = new Object[size];
        boolean flat = true;
        int i = 0;
        for (Map.Entry<String, ?> e : payload.entrySet()) {
            Object v = plainCopy(e.getValue());
            if (i == size || !(((Object) e.getKey()) instanceof String key) || v == NOT_PLAIN) {
                return null;
            }
            flat &= !(v instanceof Map || v instanceof List);
            keys[i] = key;
            values[i++] = v;
        }
        return i == size ? new PayloadMap(keys, values, flat) : null;
    }

    private static final Object NOT_PLAIN = new Object();

    private static Object plainCopy(Object value) {
        if (value == null || value instanceof String || value instanceof Boolean || value instanceof Long) {
            return value;
        }
        if (value instanceof Integer || value instanceof Short || value instanceof Byte) {
            return ((Number) value).longValue();
        }
        if (value instanceof Map<?, ?> m) {
            Map<String, Object> copy = new LinkedHashMap<>(Math.max(4, m.size() * 2));
            for (Map.Entry<?, ?> e : m.entrySet()) {
                Object v = plainCopy(e.getValue());
                if (!(e.getKey() instanceof String key) || v == NOT_PLAIN) {
                    return NOT_PLAIN;
                }
                copy.put(key, v);
            }
            return copy;
        }
        if (value instanceof List<?> l) {
            java.util.ArrayList<Object> copy = new java.util.ArrayList<>(l.size());
            for (Object item : l) {
                Object v = plainCopy(item);
                if (v == NOT_PLAIN) {
                    return NOT_PLAIN;
                }
                copy.add(v);
            }
            return copy;
        }
        return NOT_PLAIN;
    }

    /**
     * A payload of the state as a caller may get it in a {@link dev.storh.StorageRecord}, whose data
     * map is unmodifiable at its top level: the map itself when it holds no map or list (the state
     * never changes a payload in place), else a deep copy, so no caller reaches the state's objects.
     *
     * @param payload a payload held by the state
     * @return it, or a deep copy of it
     */
    @SuppressWarnings("unchecked")
    static Map<String, Object> handOut(Map<String, Object> payload) {
        return isFlat(payload) ? payload : (Map<String, Object>) deepCopy(payload);
    }

    /**
     * @param payload a payload held by the state
     * @return whether it holds no map or list at its top level, so {@link #handOut} gives it as it is
     */
    static boolean isFlat(Map<String, Object> payload) {
        if (payload instanceof PayloadMap known) {
            return known.flat();
        }
        for (Object value : payload.values()) {
            if (value instanceof Map || value instanceof List) {
                return false;
            }
        }
        return true;
    }

    /**
     * @param value a value in the JSON model
     * @return a deep copy: maps and lists are copied, leaves shared (they are immutable)
     */
    @SuppressWarnings("unchecked")
    static Object deepCopy(Object value) {
        if (value instanceof Map<?, ?> m) {
            Map<String, Object> copy = new LinkedHashMap<>(Math.max(4, m.size() * 2));
            ((Map<String, Object>) m).forEach((k, v) -> copy.put(k, deepCopy(v)));
            return copy;
        }
        if (value instanceof List<?> l) {
            java.util.ArrayList<Object> copy = new java.util.ArrayList<>(l.size());
            l.forEach(v -> copy.add(deepCopy(v)));
            return copy;
        }
        return value;
    }

    /**
     * @param key an object key
     * @return whether PHP turns it into an integer array key (delegates to {@link Jsonc#isIntegerLike})
     */
    static boolean isIntegerLike(String key) {
        return Jsonc.isIntegerLike(key);
    }
}
