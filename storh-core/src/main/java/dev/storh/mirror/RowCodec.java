package dev.storh.mirror;

import com.dynatrace.hash4j.hashing.HashValue128;
import com.dynatrace.hash4j.hashing.Hasher128;
import com.dynatrace.hash4j.hashing.Hashing;
import dev.storh.json.CanonicalJson;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The {@code data} and {@code hash} column values of a record.
 *
 * <p>The data text is the record's data as compact canonical JSON (no whitespace, members in the
 * record's order, shortest round-trip floats that always show a fraction or exponent, raw UTF-8).
 * Objects are written the way the PHP original sees them, so that a record mirrored by either
 * implementation has the same text and hash: an empty object is {@code []}, and an object whose
 * keys are exactly {@code "0".."n-1"} in order (how a list-shaped record is held in Java) is a
 * JSON array. Reading such a row back ({@link SqlMirror#pull}) therefore gives a list there. The hash is XXH3-128 (seed 0) of the text's
 * UTF-8 bytes, as 32 lowercase hex digits, high 64 bits first. Stateless and thread-safe.
 */
final class RowCodec {

    private static final Hasher128 XXH3 = Hashing.xxh3_128();
    private static final byte[] DIGITS = "0123456789abcdef".getBytes(StandardCharsets.ISO_8859_1);

    private RowCodec() {
    }

    /** @return the canonical data text of record data */
    static String dataText(Map<String, ?> data) {
        return CanonicalJson.compactText(phpShape(data));
    }

    /** @return the value with empty and list-shaped maps turned into lists (copied only where needed) */
    private static Object phpShape(Object value) {
        if (value instanceof Map<?, ?> map) {
            @SuppressWarnings("unchecked")
            Map<String, Object> m = (Map<String, Object>) map;
            if (m.isEmpty() || listShaped(m)) {
                return phpShape(new ArrayList<>(m.values()));
            }
            Map<String, Object> copy = null;
            for (Map.Entry<String, Object> e : m.entrySet()) {
                Object shaped = phpShape(e.getValue());
                if (shaped != e.getValue() && copy == null) {
                    copy = new LinkedHashMap<>(m);
                }
                if (copy != null) {
                    copy.put(e.getKey(), shaped);
                }
            }
            return copy == null ? m : copy;
        }
        if (value instanceof List<?> list) {
            List<Object> copy = null;
            for (int i = 0; i < list.size(); i++) {
                Object item = list.get(i);
                Object shaped = phpShape(item);
                if (shaped != item && copy == null) {
                    copy = new ArrayList<>(list);
                }
                if (copy != null) {
                    copy.set(i, shaped);
                }
            }
            return copy == null ? list : copy;
        }
        return value;
    }

    /** @return the 32-hex-digit hash of a data text */
    static String hash(String dataText) {
        HashValue128 h = XXH3.hashBytesTo128Bits(dataText.getBytes(StandardCharsets.UTF_8));
        byte[] hex = new byte[32];
        hexDigits(h.getMostSignificantBits(), hex, 0);
        hexDigits(h.getLeastSignificantBits(), hex, 16);
        return new String(hex, StandardCharsets.ISO_8859_1);
    }

    private static void hexDigits(long bits, byte[] into, int from) {
        for (int i = 15; i >= 0; i--) {
            into[from + i] = DIGITS[(int) bits & 0xf];
            bits >>>= 4;
        }
    }

    static boolean listShaped(Map<String, ?> data) {
        int i = 0;
        for (String key : data.keySet()) {
            if (!isIndex(key, i++)) {
                return false;
            }
        }
        return true;
    }

    /** @return whether {@code key} is {@code Integer.toString(index)} (decimal digits, no sign, no leading zero) */
    private static boolean isIndex(String key, int index) {
        int n = key.length();
        if (n == 0 || n > 10 || n > 1 && key.charAt(0) == '0') {
            return false;
        }
        long value = 0;
        for (int k = 0; k < n; k++) {
            char c = key.charAt(k);
            if (c < '0' || c > '9') {
                return false;
            }
            value = value * 10 + (c - '0');
        }
        return value == index;
    }

    /**
     * @param parsed a JSON object or array read back from a {@code data} column
     * @return the record data it stands for (an array becomes keys {@code "0".."n-1"})
     */
    @SuppressWarnings("unchecked")
    static Map<String, Object> recordData(Object parsed) {
        if (parsed instanceof Map<?, ?> map) {
            return (Map<String, Object>) map;
        }
        Map<String, Object> data = new LinkedHashMap<>();
        List<?> list = (List<?>) parsed;
        for (int i = 0; i < list.size(); i++) {
            data.put(Integer.toString(i), list.get(i));
        }
        return data;
    }
}
