package dev.storh.queue;

import dev.storh.StorageException;
import dev.storh.fs.FramedLine;
import dev.storh.id.UuidV7;
import dev.storh.json.Jsonc;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Map;

/**
 * Encodes and decodes the lines of {@code queue.log}.
 *
 * <p>Each event is one framed line, {@code LENGTH TAB XXH32 TAB JSON LF} ({@link FramedLine}), whose
 * JSON has this fixed key order and no whitespace ({@code ts} is Unix time in whole seconds):
 *
 * <pre>
 * {"op":"enqueue","id":ID,"payload":OBJ,"ts":T}       OBJ compact canonical JSON; empty = []
 * {"op":"claim","id":ID,"ts":T}
 * {"op":"complete","id":ID,"done":true|false,"ts":T}
 * {"op":"requeue","id":ID,"ts":T}
 * {"op":"purge","id":ID,"ts":T}
 * enqueue and requeue may end with storh's extra keys, which the original ignores:
 *   ,"attempts":N      the job's attempt count from then on (claims since its enqueue)
 *   ,"retryAt":MS      Unix milliseconds before which storh does not claim the job
 * e.g. 74\t9d6bd05f\t{"op":"claim","id":"01890a5d-ac00-7000-8000-000000000001","ts":1795997943}\n
 * </pre>
 *
 * <p>Decoding applies the queue reader's rules: the LF is required, the length is all digits, the
 * checksum matches exactly, the JSON is strict (no comments) valid UTF-8, an object without
 * integer-like top-level keys, with a non-empty string {@code op} and a UUIDv7 {@code id}; a
 * missing or non-integer {@code ts} becomes the reader's clock; extra keys are ignored; the payload
 * is normalised (a non-object becomes {@code {}}, integer-like top-level keys are dropped). Failures
 * are {@link QueueLineException}s carrying the original's messages. The payload's model (its normalising,
 * copies) is {@link QueuePayloadModel}'s. Stateless and thread-safe.
 */
final class QueueEventCodec {

    static final String TORN = "Torn log queue line.";
    static final String MALFORMED = "Malformed log queue line.";
    static final String CORRUPT = "Corrupt log queue line.";
    static final String SYNTAX = "Syntax error";
    static final String NOT_AN_OBJECT = "Log queue event must be an object.";
    static final String INVALID = "Invalid log queue event.";
    static final String UNSUPPORTED = "Unsupported log queue event: ";

    /** A queue line that cannot be decoded; the message is the original's text. */
    static final class QueueLineException extends StorageException {
        private static final long serialVersionUID = 1L;

        QueueLineException(String message) {
            super(message);
        }
    }

    private QueueEventCodec() {
    }

    /**
     * @param event an event whose id is a valid UUIDv7 (ids are written unescaped)
     * @return the framed line, LF included
     * @throws StorageException when the payload cannot be encoded
     */
    static byte[] encodeLine(QueueEvent event) {
        return json(event, null, new Ascii(96)).framed();
    }

    /**
     * @param enqueue an enqueue event whose id is a valid UUIDv7
     * @param payloadJson its payload's JSON as {@link QueuePayloadJson#encodePayload} gives it
     * @return the framed line, LF included
     */
    static byte[] encodeLine(QueueEvent enqueue, byte[] payloadJson) {
        return json(enqueue, payloadJson, new Ascii(payloadJson.length + 112)).framed();
    }

    /**
     * @param event the event
     * @return its JSON bytes without LF
     * @throws StorageException when the payload cannot be encoded
     */
    static byte[] encodeJson(QueueEvent event) {
        return json(event, null, new Ascii(96)).toByteArray();
    }

    /**
     * Framed event lines, one after the other in one growing buffer: each event's JSON is built in
     * one reused scratch buffer and framed straight into place, so a batch of ten thousand events
     * costs no array per line and no copy of the whole. Not thread-safe.
     */
    static final class Lines {
        private final Ascii json = new Ascii(128);
        private byte[] bytes;
        private int length;

        /** @param capacity the first buffer size, in bytes */
        Lines(int capacity) {
            bytes = new byte[Math.max(16, capacity)];
        }

        /**
         * Appends an event's framed line.
         *
         * @param event an event whose id is a valid UUIDv7
         * @param payloadJson an enqueue's payload JSON as {@link QueuePayloadJson#encodePayload} gives it, or {@code null}
         *     to encode {@code event.payload()}
         * @throws StorageException when the payload cannot be encoded; nothing is appended then
         */
        void add(QueueEvent event, byte[] payloadJson) {
            json.length = 0;
            json(event, payloadJson, json);
            frame();
        }

        /**
         * Appends a claim's framed line, as {@link #add} does for {@code QueueEvent.claim(id, ts)}.
         *
         * @param id a valid UUIDv7
         * @param ts the claim time, Unix seconds
         */
        void addClaim(String id, long ts) {
            json.length = 0;
            json.bytes(HEADS[QueueEvent.Op.CLAIM.ordinal()]).id(id).bytes(QUOTED_TS).number(ts).bracket();
            frame();
        }

        /**
         * Appends a complete's framed line, as {@link #add} does for {@code QueueEvent.complete(id, done, ts)}.
         *
         * @param id a valid UUIDv7
         * @param done whether the job is kept as done
         * @param ts the completion time, Unix seconds
         */
        void addComplete(String id, boolean done, long ts) {
            json.length = 0;
            json.bytes(HEADS[QueueEvent.Op.COMPLETE.ordinal()]).id(id).bytes(done ? DONE_TRUE : DONE_FALSE).number(ts).bracket();
            frame();
        }

        /**
         * Grows the buffer, when needed, so that {@code more} bytes fit without growing again; a
         * hint only (a batch larger than the hint still fits).
         *
         * @param more bytes about to be added
         */
        void reserve(long more) {
            long need = length + more;
            if (need > bytes.length && need <= Integer.MAX_VALUE - 16) {
                bytes = Arrays.copyOf(bytes, (int) need);
            }
        }

        private void frame() {
            int need = FramedLine.framedLength(json.bytes, json.length);
            if (length + need > bytes.length) {
                bytes = Arrays.copyOf(bytes, Math.max(bytes.length * 2, length + need));
            }
            length = FramedLine.encodeInto(json.bytes, json.length, bytes, length);
        }

        /** @return the buffer; its first {@link #length()} bytes are the lines */
        byte[] bytes() {
            return bytes;
        }

        /** @return the bytes of the lines appended so far */
        int length() {
            return length;
        }
    }

    private static final byte[] ENQUEUE_HEAD = ascii("{\"op\":\"enqueue\",\"id\":\"");
    private static final byte[] PAYLOAD = ascii("\",\"payload\":");
    private static final byte[] TS = ascii(",\"ts\":");
    private static final byte[] QUOTED_TS = ascii("\",\"ts\":");
    private static final byte[] DONE_TRUE = ascii("\",\"done\":true,\"ts\":");
    private static final byte[] DONE_FALSE = ascii("\",\"done\":false,\"ts\":");
    private static final byte[] ATTEMPTS = ascii(",\"attempts\":");
    private static final byte[] RETRY_AT = ascii(",\"retryAt\":");

    /** Per op (by ordinal): {@code {"op":"<op>","id":"}. */
    private static final byte[][] HEADS = heads();

    private static byte[][] heads() {
        QueueEvent.Op[] ops = QueueEvent.Op.values();
        byte[][] heads = new byte[ops.length][];
        for (QueueEvent.Op op : ops) {
            heads[op.ordinal()] = ascii("{\"op\":\"" + op.wire() + "\",\"id\":\"");
        }
        return heads;
    }

    static byte[] ascii(String text) {
        return text.getBytes(StandardCharsets.US_ASCII);
    }

    /**
     * Writes an event's JSON into {@code json}.
     *
     * @param payloadJson an enqueue's payload JSON, or {@code null} to encode {@code event.payload()}
     * @return {@code json}
     */
    private static Ascii json(QueueEvent event, byte[] payloadJson, Ascii json) {
        if (event.op() == QueueEvent.Op.ENQUEUE) {
            byte[] payload = payloadJson != null ? payloadJson : QueuePayloadJson.encodePayload(event.payload());
            json.bytes(ENQUEUE_HEAD).id(event.id()).bytes(PAYLOAD).bytes(payload).bytes(TS).number(event.ts());
            extraKeys(event, json);
            return json.bracket();
        }
        json.bytes(HEADS[event.op().ordinal()]).id(event.id());
        if (event.op() == QueueEvent.Op.COMPLETE) {
            json.bytes(event.done() ? DONE_TRUE : DONE_FALSE).number(event.ts());
        } else {
            json.bytes(QUOTED_TS).number(event.ts());
            extraKeys(event, json);
        }
        return json.bracket();
    }

    private static void extraKeys(QueueEvent event, Ascii json) {
        if (event.attempts() >= 0) {
            json.bytes(ATTEMPTS).number(event.attempts());
        }
        if (event.retryAtMs() > 0) {
            json.bytes(RETRY_AT).number(event.retryAtMs());
        }
    }

    /**
     * One event's JSON built as bytes, without intermediate strings: its keys, op, id and numbers are
     * ASCII (an id is a validated UUIDv7), the payload comes encoded. Not thread-safe.
     */
    private static final class Ascii {
        private byte[] bytes;
        private int length;
        /** The last non-negative number {@link #number} wrote, or -1, and its digits. */
        private long lastNumber = -1;
        private byte[] lastDigits;

        Ascii(int capacity) {
            bytes = new byte[capacity];
        }

        Ascii text(String ascii) {
            int n = ascii.length();
            room(n);
            for (int i = 0; i < n; i++) {
                char c = ascii.charAt(i);
                if (c > 0x7f) {
                    throw new IllegalArgumentException("Not ASCII: " + ascii);
                }
                bytes[length++] = (byte) c;
            }
            return this;
        }

        /**
         * An id: a validated UUIDv7, so 36 ASCII characters, copied as bytes in one go (a string of
         * ASCII characters only is stored one byte per character, so this is an array copy).
         */
        @SuppressWarnings("deprecation")
        Ascii id(String id) {
            int n = id.length();
            room(n);
            id.getBytes(0, n, bytes, length);
            length += n;
            return this;
        }

        Ascii bracket() {
            room(1);
            bytes[length++] = '}';
            return this;
        }

        Ascii bytes(byte[] more) {
            room(more.length);
            System.arraycopy(more, 0, bytes, length, more.length);
            length += more.length;
            return this;
        }

        /**
         * Writes a number as {@link Long#toString(long)} does. The last non-negative number written
         * is kept as digits: the events of one batch share their {@code ts}.
         */
        Ascii number(long value) {
            if (value < 0) {
                return text(Long.toString(value));
            }
            if (value == lastNumber) {
                return bytes(lastDigits);
            }
            int digits = 1;
            for (long rest = value / 10; rest > 0; rest /= 10) {
                digits++;
            }
            room(digits);
            long rest = value;
            for (int i = length + digits - 1; i >= length; i--) {
                bytes[i] = (byte) ('0' + rest % 10);
                rest /= 10;
            }
            lastDigits = Arrays.copyOfRange(bytes, length, length + digits);
            lastNumber = value;
            length += digits;
            return this;
        }

        byte[] framed() {
            return FramedLine.encode(bytes, length);
        }

        byte[] toByteArray() {
            return Arrays.copyOf(bytes, length);
        }

        private void room(int more) {
            if (length + more > bytes.length) {
                bytes = Arrays.copyOf(bytes, Math.max(bytes.length * 2, length + more));
            }
        }
    }

    /**
     * Decodes one line.
     *
     * @param line the line bytes including its LF
     * @param nowSeconds the reader's clock, used when {@code ts} is missing or not an integer
     * @return the event
     * @throws QueueLineException with the original's message
     */
    static QueueEvent decodeLine(byte[] line, long nowSeconds) {
        byte[] json;
        try {
            json = FramedLine.decode(line, true);
        } catch (FramedLine.FramingException e) {
            switch (e.problem()) {
                case TORN: throw new QueueLineException(TORN);
                case CORRUPT: throw new QueueLineException(CORRUPT);
                default: throw new QueueLineException(MALFORMED);
            }
        }
        return decodeJson(json, nowSeconds);
    }

    /**
     * @param json the JSON bytes of one event
     * @param nowSeconds the reader's clock
     * @return the event
     * @throws QueueLineException with the original's message
     */
    static QueueEvent decodeJson(byte[] json, long nowSeconds) {
        Object value;
        try {
            String text = StandardCharsets.UTF_8.newDecoder().decode(ByteBuffer.wrap(json)).toString();
            value = Jsonc.decodeStrict(text);
        } catch (CharacterCodingException | StorageException e) {
            throw new QueueLineException(SYNTAX);
        }
        Map<String, Object> map = Jsonc.asObject(value).orElseThrow(() -> new QueueLineException(NOT_AN_OBJECT));
        Object op = map.get("op");
        Object id = map.get("id");
        if (!(op instanceof String opText) || opText.isEmpty() || !(id instanceof String idText)
                || !UuidV7.isValid(idText)) {
            throw new QueueLineException(INVALID);
        }
        QueueEvent.Op kind = QueueEvent.Op.fromWire(opText);
        if (kind == null) {
            throw new QueueLineException(UNSUPPORTED + opText);
        }
        long ts = map.get("ts") instanceof Long l ? l : nowSeconds;
        Map<String, Object> payload = kind == QueueEvent.Op.ENQUEUE ? QueuePayloadModel.normalisePayload(map.get("payload")) : null;
        int attempts = -1;
        long retryAt = 0;
        if (kind == QueueEvent.Op.ENQUEUE || kind == QueueEvent.Op.REQUEUE) {
            // storh's extra keys; anything unusable reads as absent, as the original ignores them
            if (map.get("attempts") instanceof Long a && a >= 0 && a <= Integer.MAX_VALUE) {
                attempts = (int) (long) a;
            }
            if (map.get("retryAt") instanceof Long r && r > 0) {
                retryAt = r;
            }
        }
        return new QueueEvent(kind, idText, payload, Boolean.TRUE.equals(map.get("done")), ts, attempts, retryAt);
    }
}
