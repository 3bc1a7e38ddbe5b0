package dev.storh.queue;

import dev.storh.StorageException;
import dev.storh.json.CanonicalJson;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Map;

/**
 * A job's payload as the compact canonical JSON of its enqueue line: flat payloads of plain values
 * written straight to bytes, any other through {@code CanonicalJson} (the same bytes either way).
 * Stateless; a {@link Scratch} belongs to one thread.
 */
final class QueuePayloadJson {

    private QueuePayloadJson() {
    }

    /**
     * @param payload a payload in the JSON model
     * @return compact canonical JSON without LF; an empty payload is {@code []}, as the original writes
     * @throws StorageException when a value cannot be encoded
     */
    static byte[] encodePayload(Map<String, ?> payload) {
        return encodePayload(payload, null);
    }

    /**
     * A buffer that {@link #encodePayload(Map, Scratch)} builds JSON in, reused for the jobs of one
     * bulk enqueue. Not thread-safe.
     */
    static final class Scratch {
        /** The largest buffer kept for the next payload. */
        private static final int MAX_KEPT = 1 << 16;
        private byte[] bytes;

        /** @param capacity the first buffer size, in bytes */
        Scratch(int capacity) {
            bytes = new byte[Math.max(16, capacity)];
        }
    }

    /**
     * {@link #encodePayload(Map)}, building plain payloads in a buffer the caller keeps.
     *
     * @param payload a payload in the JSON model
     * @param scratch the buffer, or {@code null} for a fresh one
     * @return compact canonical JSON without LF; an empty payload is {@code []}
     * @throws StorageException when a value cannot be encoded
     */
    static byte[] encodePayload(Map<String, ?> payload, Scratch scratch) {
        if (payload.isEmpty()) {
            return new byte[] {'[', ']'};
        }
        byte[] plain = plainJson(payload, scratch);
        return plain != null ? plain : CanonicalJson.compactText(payload).getBytes(StandardCharsets.UTF_8);
    }

    /**
     * The bytes {@code CanonicalJson.compactText} gives a flat payload of plain values, written
     * directly: string keys, and values that are strings, integers ({@code Long}, {@code Integer},
     * {@code Short}, {@code Byte}), booleans or nulls, every string of ASCII characters that JSON
     * writes as they are ({@code 0x20..0x7f} but {@code "} and backslash).
     *
     * @param payload a non-empty payload
     * @return its JSON, or {@code null} when it holds anything else (then the general encoder writes it)
     */
    static byte[] plainJson(Map<String, ?> payload) {
        return plainJson(payload, null);
    }

    private static byte[] plainJson(Map<String, ?> payload, Scratch scratch) {
        Scratch buffer = scratch != null ? scratch : new Scratch(64 + payload.size() * 24);
        int length = writePlain(payload, buffer);
        byte[] json = length < 0 ? null : Arrays.copyOf(buffer.bytes, length);
        if (buffer.bytes.length > Scratch.MAX_KEPT) {
            buffer.bytes = new byte[256];
        }
        return json;
    }

    /** @return the bytes of the JSON written to {@code buffer}, or -1 when the payload is not plain */
    private static int writePlain(Map<String, ?> payload, Scratch buffer) {
        byte[] out = buffer.bytes;
        int at = 0;
        out[at++] = '{';
        for (Map.Entry<String, ?> e : payload.entrySet()) {
            if (!(((Object) e.getKey()) instanceof String key)) {
                return -1;
            }
            Object v = e.getValue();
            int room = key.length() + 4 + (v instanceof String text ? text.length() + 2 : 20);
            if (at + room + 1 > out.length) {
                out = Arrays.copyOf(out, Math.max(out.length * 2, at + room + 1));
                buffer.bytes = out;
            }
            if (at > 1) {
                out[at++] = ',';
            }
            at = plainString(key, out, at);
            if (at < 0) {
                return -1;
            }
            out[at++] = ':';
            if (v == null) {
                at = ascii(NULL, out, at);
            } else if (v instanceof String text) {
                at = plainString(text, out, at);
            } else if (v instanceof Long || v instanceof Integer || v instanceof Short || v instanceof Byte) {
                at = integer(((Number) v).longValue(), out, at);
            } else if (v instanceof Boolean b) {
                at = ascii(b ? TRUE : FALSE, out, at);
            } else {
                return -1;
            }
            if (at < 0) {
                return -1;
            }
        }
        if (at + 1 > out.length) {
            out = Arrays.copyOf(out, at + 1);
            buffer.bytes = out;
        }
        out[at++] = '}';
        return at;
    }

    private static final byte[] NULL = QueueEventCodec.ascii("null");
    private static final byte[] TRUE = QueueEventCodec.ascii("true");
    private static final byte[] FALSE = QueueEventCodec.ascii("false");

    private static int ascii(byte[] text, byte[] out, int at) {
        System.arraycopy(text, 0, out, at, text.length);
        return at + text.length;
    }

    /** @return the offset after {@code "text"}, or -1 when a character needs escaping or is not ASCII */
    private static int plainString(String text, byte[] out, int at) {
        int n = text.length();
        out[at++] = '"';
        for (int i = 0; i < n; i++) {
            char c = text.charAt(i);
            if (c < 0x20 || c > 0x7f || c == '"' || c == '\\') {
                return -1;
            }
            out[at++] = (byte) c;
        }
        out[at++] = '"';
        return at;
    }

    /** @return the offset after the digits of {@code value} as {@link Long#toString(long)} writes them (at most 20 bytes) */
    private static int integer(long value, byte[] out, int at) {
        if (value == Long.MIN_VALUE) {
            return ascii(QueueEventCodec.ascii(Long.toString(value)), out, at);
        }
        long rest = value;
        if (rest < 0) {
            out[at++] = '-';
            rest = -rest;
        }
        int digits = 1;
        for (long bound = 10; digits < 19 && rest >= bound; bound *= 10) {
            digits++;
        }
        int i = at + digits;
        while (rest > Integer.MAX_VALUE) {
            long q = rest / 100;
            int r = (int) (rest - q * 100);
            out[--i] = (byte) ('0' + r % 10);
            out[--i] = (byte) ('0' + r / 10);
            rest = q;
        }
        int v = (int) rest;
        while (v >= 10) {
            int q = v / 10;
            out[--i] = (byte) ('0' + (v - q * 10));
            v = q;
        }
        out[--i] = (byte) ('0' + v);
        return at + digits;
    }
}
