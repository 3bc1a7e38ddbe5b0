package dev.storh.mirror;

import com.dynatrace.hash4j.hashing.HashValue128;
import com.dynatrace.hash4j.hashing.Hasher128;
import com.dynatrace.hash4j.hashing.Hashing;
import dev.storh.json.CanonicalJson;
import java.nio.charset.StandardCharsets;
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
        return CanonicalJson.compactPhpText(data);
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
