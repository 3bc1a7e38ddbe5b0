package dev.storh.fs;

import dev.storh.StorageException;
import java.nio.charset.StandardCharsets;
import net.jpountz.xxhash.XXHash32;
import net.jpountz.xxhash.XXHashFactory;

/**
 * The checksummed line shared by log segments and {@code queue.log}:
 *
 * <pre>
 * LENGTH TAB CHECKSUM TAB JSON LF
 *   LENGTH   byte length of JSON, ASCII decimal
 *   CHECKSUM XXH32(JSON bytes, seed 0), 8 lowercase hex digits
 *   JSON     one compact JSON object without a raw LF
 * e.g. 59\tdbf5e364\t{"op":"delete","id":"01890a5d-ac01-7000-8000-000000000002"}\n
 * </pre>
 *
 * A line whose length or checksum does not match its JSON is a torn or corrupt write and is never
 * accepted. XXH32 comes from lz4-java's {@code XXHashFactory}. Stateless and thread-safe.
 */
public final class FramedLine {

    private static final XXHash32 XXH32 = XXHashFactory.fastestJavaInstance().hash32();
    private static final byte TAB = '\t';
    private static final byte LF = '\n';

    /** How a line failed to parse. */
    public enum Problem {
        /** Not three tab-separated parts, or a non-numeric length. */
        MALFORMED,
        /** Length or checksum differs from the JSON bytes. */
        CORRUPT,
        /** No terminating LF (a torn tail). */
        TORN
    }

    /** A line that failed to parse, with its {@link Problem}. */
    public static final class FramingException extends StorageException {
        private static final long serialVersionUID = 1L;
        private final Problem problem;

        FramingException(Problem problem, String message) {
            super(message);
            this.problem = problem;
        }

        /**
         * @return what is wrong with the line
         */
        public Problem problem() {
            return problem;
        }
    }

    private FramedLine() {
    }

    /**
     * @param json compact JSON bytes without LF
     * @return XXH32 with seed 0, as 8 lowercase hex digits
     */
    public static String checksum(byte[] json) {
        return checksum(json, 0, json.length);
    }

    /**
     * @param buf bytes
     * @param off start
     * @param len length
     * @return XXH32 of the range with seed 0, as 8 lowercase hex digits
     */
    public static String checksum(byte[] buf, int off, int len) {
        int h = XXH32.hash(buf, off, len, 0);
        char[] out = new char[8];
        for (int i = 7; i >= 0; i--) {
            out[i] = HEX[h & 0xf];
            h >>>= 4;
        }
        return new String(out);
    }

    private static final char[] HEX = "0123456789abcdef".toCharArray();

    /**
     * Frames compact JSON as one line.
     *
     * @param json compact JSON bytes; a trailing LF (as {@code CanonicalJson.encodeCompact} adds) is dropped
     * @return {@code LENGTH\tCHECKSUM\tJSON\n}
     * @throws StorageException when the JSON contains a raw LF
     */
    public static byte[] encode(byte[] json) {
        return encode(json, json.length);
    }

    /**
     * {@link #encode(byte[])} of the first {@code length} bytes of {@code json}.
     *
     * @param json JSON bytes, one trailing LF allowed
     * @param length how many of them are the JSON
     * @return {@code LENGTH\tCHECKSUM\tJSON\n}
     * @throws StorageException when the JSON contains a raw LF
     */
    public static byte[] encode(byte[] json, int length) {
        byte[] line = new byte[framedLength(json, length)];
        encodeInto(json, length, line, 0);
        return line;
    }

    /**
     * @param json JSON bytes, one trailing LF allowed (not counted)
     * @param length how many of them are the JSON
     * @return the bytes {@link #encodeInto} writes for them
     */
    public static int framedLength(byte[] json, int length) {
        int len = length > 0 && json[length - 1] == LF ? length - 1 : length;
        return digits(len) + 10 + len + 1;
    }

    /**
     * {@link #encode(byte[], int)} into a buffer the caller holds (many lines one after the other,
     * without a copy per line).
     *
     * @param json JSON bytes, one trailing LF allowed
     * @param length how many of them are the JSON
     * @param into the buffer, with at least {@link #framedLength} bytes free from {@code at}
     * @param at where the line starts
     * @return the offset just past the line's LF
     * @throws StorageException when the JSON contains a raw LF; nothing is written then
     */
    public static int encodeInto(byte[] json, int length, byte[] into, int at) {
        int len = length;
        if (len > 0 && json[len - 1] == LF) {
            len--;
        }
        for (int i = 0; i < len; i++) {
            if (json[i] == LF) {
                throw new StorageException("Framed JSON must not contain a raw line feed.");
            }
        }
        int digits = digits(len);
        int rest = len;
        for (int i = at + digits - 1; i >= at; i--) {
            into[i] = (byte) ('0' + rest % 10);
            rest /= 10;
        }
        int tab = at + digits;
        into[tab] = TAB;
        int h = XXH32.hash(json, 0, len, 0);
        for (int i = tab + 8; i > tab; i--) {
            into[i] = (byte) HEX[h & 0xf];
            h >>>= 4;
        }
        into[tab + 9] = TAB;
        System.arraycopy(json, 0, into, tab + 10, len);
        int end = tab + 10 + len;
        into[end] = LF;
        return end + 1;
    }

    private static int digits(int value) {
        int digits = 1;
        for (int rest = value / 10; rest > 0; rest /= 10) {
            digits++;
        }
        return digits;
    }

    /**
     * Checks one line and returns its JSON bytes.
     *
     * @param line the line bytes, with or without its LF; trailing CR/LF are ignored
     * @param requireLf whether a missing LF is an error ({@link Problem#TORN}), as the queue reader
     *     requires; the log reader accepts a complete last line without LF
     * @return the JSON bytes the line carries
     * @throws FramingException naming the problem
     */
    public static byte[] decode(byte[] line, boolean requireLf) {
        int end = line.length;
        if (requireLf && (end == 0 || line[end - 1] != LF)) {
            throw new FramingException(Problem.TORN, "Torn log line: no line feed at the end.");
        }
        while (end > 0 && (line[end - 1] == LF || line[end - 1] == '\r')) {
            end--;
        }
        int tab1 = indexOf(line, TAB, 0, end);
        int tab2 = tab1 < 0 ? -1 : indexOf(line, TAB, tab1 + 1, end);
        if (tab1 <= 0 || tab2 < 0) {
            throw new FramingException(Problem.MALFORMED, "Malformed log line: expected LENGTH\\tCHECKSUM\\tJSON.");
        }
        long length = 0;
        for (int i = 0; i < tab1; i++) {
            byte b = line[i];
            if (b < '0' || b > '9' || length > Integer.MAX_VALUE) {
                throw new FramingException(Problem.MALFORMED, "Malformed log line: length is not a number.");
            }
            length = length * 10 + (b - '0');
        }
        int jsonStart = tab2 + 1;
        int jsonLength = end - jsonStart;
        if (length != jsonLength) {
            throw new FramingException(Problem.CORRUPT, "Corrupt log line: length " + length + " but "
                    + jsonLength + " bytes of JSON.");
        }
        String expected = new String(line, tab1 + 1, tab2 - tab1 - 1, StandardCharsets.US_ASCII);
        if (!expected.equals(checksum(line, jsonStart, jsonLength))) {
            throw new FramingException(Problem.CORRUPT, "Corrupt log line: checksum mismatch.");
        }
        byte[] json = new byte[jsonLength];
        System.arraycopy(line, jsonStart, json, 0, jsonLength);
        return json;
    }

    /**
     * Finds a valid frame at the end of a damaged line: when damage swallowed the line feed between
     * two lines (a flipped byte) or a crashed writer's torn bytes were followed by another writer's
     * line, the bytes read up to the next line feed are {@code garbage + valid line}. Candidates are
     * the positions where a digit run followed by a tab starts and whose declared length matches
     * the bytes left; only those are checksummed, so the cost is linear in the line length.
     *
     * @param line a line (with its LF when it has one) that failed {@link #decode}
     * @param requireLf as for {@link #decode}
     * @return the smallest offset {@code p > 0} such that {@code line[p..]} decodes, or -1 when none does
     */
    public static int resync(byte[] line, boolean requireLf) {
        int end = line.length;
        while (end > 0 && (line[end - 1] == LF || line[end - 1] == '\r')) {
            end--;
        }
        for (int p = 1; p < end; p++) {
            if (line[p] < '0' || line[p] > '9') {
                continue;
            }
            long length = 0;
            int q = p;
            while (q < end && q - p <= 10 && line[q] >= '0' && line[q] <= '9') {
                length = length * 10 + (line[q] - '0');
                q++;
            }
            // LENGTH TAB 8-hex TAB JSON
            if (q >= end || line[q] != TAB || q + 9 >= end || line[q + 9] != TAB || end - (q + 10) != length) {
                continue;
            }
            try {
                decode(java.util.Arrays.copyOfRange(line, p, line.length), requireLf);
                return p;
            } catch (FramingException e) {
                // not a frame; keep looking
            }
        }
        return -1;
    }

    private static int indexOf(byte[] buf, byte b, int from, int to) {
        for (int i = from; i < to; i++) {
            if (buf[i] == b) {
                return i;
            }
        }
        return -1;
    }
}
