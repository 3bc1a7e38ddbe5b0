package dev.storh.log;

import dev.storh.CorruptRecordException;
import dev.storh.StorageException;
import dev.storh.fs.FramedLine;
import dev.storh.id.UuidV7;
import dev.storh.json.CanonicalJson;
import dev.storh.json.Jsonc;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One line of a log segment: a framed line whose JSON is a
 * put or a delete envelope.
 *
 * <pre>
 * line     = LENGTH TAB XXH32 TAB JSON LF
 *   LENGTH = byte length of JSON in ASCII decimal; XXH32 = xxHash32(JSON bytes, seed 0), 8 lowercase hex
 *   (the checksum covers the JSON bytes only: not the length, the tabs or the LF)
 * put      JSON = {"op":"put","id":"&lt;36&gt;","data":&lt;compact data, [] when empty&gt;}
 * delete   JSON = {"op":"delete","id":"&lt;36&gt;"}
 * e.g. 59\tdbf5e364\t{"op":"delete","id":"01890a5d-ac01-7000-8000-000000000002"}\n
 * </pre>
 *
 * Data is written in the original's canonical bytes ({@link CanonicalJson}), so the checksums and the
 * original's substring pre-filter agree with what PHP writes. Reading accepts any envelope the
 * original accepts: a missing or non-object {@code data} reads as {@code {}}, and top-level data keys
 * that PHP turns into integers ({@code "0"}, {@code "-1"}) are dropped. Stateless and thread-safe.
 */
final class LogLine {

    static final String PUT = "put";
    static final String DELETE = "delete";

    private static final byte[] PUT_PREFIX = "{\"op\":\"put\",\"id\":\"".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] DATA_KEY = "\",\"data\":".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] DELETE_PREFIX = "{\"op\":\"delete\",\"id\":\"".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] OP_PUT_HEAD = "{\"op\":\"put\",".getBytes(StandardCharsets.US_ASCII);
    private static final int ID_LENGTH = 36;
    /** Where a canonical put's data starts in its JSON. */
    private static final int DATA_START = PUT_PREFIX.length + ID_LENGTH + DATA_KEY.length;

    /**
     * A decoded envelope.
     *
     * @param op the operation, {@code put} or {@code delete} for lines storh writes (others are read as live)
     * @param id the record id as written
     * @param data the top-level data, integer-like keys dropped; {@code null} when not decoded
     * @param canonical whether the JSON is in the canonical put or delete shape
     * @param json the line's JSON bytes
     */
    record Envelope(String op, String id, Map<String, Object> data, boolean canonical, byte[] json) {
        boolean isDelete() {
            return DELETE.equals(op);
        }

        /**
         * @return a canonical put's counted values read from its bytes ({@link LineValues}), or
         *     {@code null} when they must be read from the decoded data
         */
        Object[] countedValues() {
            return canonical && PUT.equals(op) ? LineValues.keysOf(json, DATA_START, json.length - 1) : null;
        }

        /**
         * @param file the segment, for messages
         * @param offset the line offset, for messages
         * @return the data, decoding it now for a canonical line read without data
         * @throws dev.storh.CorruptRecordException when the data is not valid JSON
         */
        Map<String, Object> data(Path file, long offset) {
            if (data != null) {
                return data;
            }
            try {
                return decodeData(json, DATA_START, json.length - 1);
            } catch (StorageException e) {
                throw corrupt("Segmented log line is not valid JSON: " + e.getMessage(), file, offset, e);
            }
        }
    }

    private LogLine() {
    }

    /**
     * @param id a valid lowercase id
     * @param data the record data
     * @return the framed put line
     * @throws StorageException when the data cannot be encoded, naming the field
     */
    static byte[] encodePut(String id, Map<String, ?> data) {
        byte[] record = CanonicalJson.recordBytes(id, data); // {"id":"<id>","data":<data>}\n
        int head = OP_PUT_HEAD.length;
        byte[] json = new byte[head + record.length - 2]; // drop the record's '{' and its LF
        System.arraycopy(OP_PUT_HEAD, 0, json, 0, head);
        System.arraycopy(record, 1, json, head, record.length - 2);
        return FramedLine.encode(json);
    }

    /**
     * @param id a valid lowercase id
     * @return the framed delete (tombstone) line
     */
    static byte[] encodeDelete(String id) {
        return FramedLine.encode(("{\"op\":\"delete\",\"id\":\"" + id + "\"}").getBytes(StandardCharsets.UTF_8));
    }

    /**
     * Checks the framing of a line and reads its envelope.
     *
     * @param line the line bytes, with or without its LF
     * @param file the segment, for messages
     * @param offset the line's byte offset in the segment, for messages
     * @param withData whether to decode the data of canonical put lines (other lines are always decoded)
     * @return the envelope
     * @throws CorruptRecordException {@code "Malformed segmented log line."}, {@code "Corrupt segmented
     *     log line."}, {@code "Segmented log line does not contain a record envelope."} or a JSON syntax
     *     error, each naming {@code <file>:<offset>}
     */
    static Envelope decode(byte[] line, Path file, long offset, boolean withData) {
        byte[] json;
        try {
            json = FramedLine.decode(line, false);
        } catch (FramedLine.FramingException e) {
            String what = e.problem() == FramedLine.Problem.CORRUPT ? "Corrupt" : "Malformed";
            throw corrupt(what + " segmented log line.", file, offset, e);
        }
        try {
            Envelope fast = canonical(json, withData);
            if (fast != null) {
                return fast;
            }
            Object value = Jsonc.decodeStrict(new String(json, StandardCharsets.UTF_8));
            if (!(value instanceof Map<?, ?> map) || !(map.get("id") instanceof String id)
                    || !(map.get("op") instanceof String op)) {
                throw corrupt("Segmented log line does not contain a record envelope.", file, offset, null);
            }
            return new Envelope(op, id, dataOf(map.get("data")), false, json);
        } catch (CorruptRecordException e) {
            throw e;
        } catch (StorageException e) {
            throw corrupt("Segmented log line is not valid JSON: " + e.getMessage(), file, offset, e);
        }
    }

    private static Envelope canonical(byte[] json, boolean withData) {
        int n = json.length;
        if (startsWith(json, PUT_PREFIX) && n > PUT_PREFIX.length + ID_LENGTH + DATA_KEY.length
                && json[n - 1] == '}' && regionEquals(json, PUT_PREFIX.length + ID_LENGTH, DATA_KEY)) {
            String id = new String(json, PUT_PREFIX.length, ID_LENGTH, StandardCharsets.ISO_8859_1);
            if (!UuidV7.isValid(id)) {
                return null;
            }
            Map<String, Object> data = null;
            if (withData) {
                data = decodeData(json, DATA_START, n - 1);
            }
            return new Envelope(PUT, id, data, true, json);
        }
        if (n == DELETE_PREFIX.length + ID_LENGTH + 2 && startsWith(json, DELETE_PREFIX)
                && json[n - 2] == '"' && json[n - 1] == '}') {
            String id = new String(json, DELETE_PREFIX.length, ID_LENGTH, StandardCharsets.ISO_8859_1);
            return UuidV7.isValid(id) ? new Envelope(DELETE, id, Map.of(), true, json) : null;
        }
        return null;
    }

    /**
     * @param json a canonical put line's JSON
     * @param from where its data starts
     * @param to where its data ends (exclusive)
     * @return the data as the strict decoder reads the UTF-8 text, integer-like keys dropped: straight
     *     from the bytes ({@link LineData}) when they are of the plain shape the log writes, else by the decoder
     * @throws StorageException when the data is not valid JSON
     */
    static Map<String, Object> decodeData(byte[] json, int from, int to) {
        Map<String, Object> plain = LineData.decode(json, from, to);
        return dataOf(plain != null ? plain : Jsonc.decodeStrict(new String(json, from, to - from, StandardCharsets.UTF_8)));
    }

    /** PHP's view of record data: an object keeps its string keys; anything else is empty. */
    @SuppressWarnings("unchecked")
    static Map<String, Object> dataOf(Object value) {
        if (!(value instanceof Map)) {
            return new LinkedHashMap<>();
        }
        Map<String, Object> map = (Map<String, Object>) value;
        for (Iterator<String> keys = map.keySet().iterator(); keys.hasNext();) {
            if (isIntegerLike(keys.next())) {
                keys.remove();
            }
        }
        return map;
    }

    /**
     * @param key a top-level data key
     * @return whether PHP would turn it into an integer key (see {@link dev.storh.json.Jsonc#isIntegerLike})
     */
    static boolean isIntegerLike(String key) {
        return dev.storh.json.Jsonc.isIntegerLike(key);
    }


    private static CorruptRecordException corrupt(String message, Path file, long offset, Throwable cause) {
        return new CorruptRecordException(message + " At " + file + ":" + offset, file, cause);
    }

    private static boolean startsWith(byte[] b, byte[] prefix) {
        return b.length >= prefix.length && regionEquals(b, 0, prefix);
    }

    private static boolean regionEquals(byte[] b, int from, byte[] expected) {
        if (from + expected.length > b.length) {
            return false;
        }
        for (int i = 0; i < expected.length; i++) {
            if (b[from + i] != expected[i]) {
                return false;
            }
        }
        return true;
    }
}
