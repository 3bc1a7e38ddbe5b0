package dev.storh.id;

import dev.storh.StorageException;
import java.nio.charset.StandardCharsets;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.Locale;

/**
 * UUID version 7 ids in text form, as storh writes them:
 * {@code tttttttt-tttt-7xxx-Vxxx-xxxxxxxxxxxx}, 36 characters, lowercase, a 48-bit millisecond
 * timestamp followed by 74 random bits.
 *
 * <p><b>Two sequences.</b> {@link #generate()} draws from the wall clock and is strictly
 * monotonic within this JVM: an id it returns sorts after every id it returned before, in any
 * thread. {@link #generate(long)}, for explicit timestamps (imports of old data, tests), keeps a
 * sequence of its own: calling it never changes what {@code generate()} returns, so neither a past
 * nor a future explicit timestamp can make a later clock id smaller, or drag clock ids ahead of
 * the clock. Ids of the two sequences are ordered by their timestamps only.
 *
 * <p>The 74 random bits are split as RFC 9562 section 6.2, method 1, suggests: the first 26 (the
 * {@code 7xxx-Vxxx} groups) are a counter that starts at a random value in each new millisecond
 * and is incremented for each further id in it; the last 48 (the final group) are fresh random
 * bits for every id. So ids of one burst still sort in call order, and their characters 24–25,
 * the DocStore bucket, stay uniformly random (the original increments the last byte instead,
 * which keeps a burst in one bucket). When the clock steps back, or the counter would overflow,
 * {@code generate()} advances its timestamp by one millisecond instead of producing a smaller id
 * (the original's weak spot).
 *
 * <p>Validation accepts upper and lower case, as the original does.
 */
public final class UuidV7 {

    /** Largest timestamp that fits in 48 bits. */
    public static final long MAX_TIMESTAMP_MS = (1L << 48) - 1;

    private static final long LOW_MASK = (1L << 48) - 1;
    private static final long HIGH_MASK = (1L << 26) - 1;
    private static final char[] HEX = "0123456789abcdef".toCharArray();
    /** The value of each ASCII hex digit (either case), -1 for every other character below 128. */
    private static final byte[] DIGITS = new byte[128];
    /** Lowercase hex digits as bytes. */
    private static final byte[] HEX_BYTES = "0123456789abcdef".getBytes(StandardCharsets.US_ASCII);
    private static final SecureRandom RANDOM = newRandom();

    private static final Sequence CLOCK = new Sequence();
    private static final Sequence EXPLICIT = new Sequence();

    static {
        java.util.Arrays.fill(DIGITS, (byte) -1);
        for (int i = 0; i < 16; i++) {
            DIGITS[HEX[i]] = (byte) i;
            DIGITS[Character.toUpperCase(HEX[i])] = (byte) i;
        }
    }

    private UuidV7() {
    }

    /**
     * @return the JDK's DRBG (NIST SP 800-90A Hash_DRBG, seeded and reseeded from the system's
     *     entropy source), several times faster per byte than the platform default
     *     ({@code NativePRNG} mixes every byte through SHA-1); the default when it is missing
     */
    private static SecureRandom newRandom() {
        try {
            return SecureRandom.getInstance("DRBG");
        } catch (NoSuchAlgorithmException e) {
            return new SecureRandom();
        }
    }

    /**
     * @return a new id for the current wall-clock millisecond, lowercase, greater than every id
     *     this method returned before in this JVM (calls of {@link #generate(long)} do not count);
     *     thread-safe
     */
    public static String generate() {
        return CLOCK.nextFromClock(System.currentTimeMillis());
    }

    /**
     * {@code count} new ids as {@link #generate()} returns them one by one, with one clock read and
     * one lock for all: lowercase, increasing, each greater than every id {@code generate()} or this
     * method returned before in this JVM. Thread-safe.
     *
     * @param count how many ids, at least 0
     * @return the ids in increasing order
     * @throws IllegalArgumentException when {@code count} is negative
     */
    public static String[] generateMany(int count) {
        if (count < 0) {
            throw new IllegalArgumentException("count must not be negative: " + count);
        }
        String[] ids = new String[count];
        CLOCK.nextFromClock(System.currentTimeMillis(), ids);
        return ids;
    }

    /**
     * Generates an id for a given millisecond, e.g. for imports of old data and tests. Two calls
     * in a row with the same millisecond give increasing ids (also when {@link #generate()} is
     * called in between, by this or another thread); this method never changes the ids
     * {@code generate()} returns. Thread-safe.
     *
     * @param timestampMs milliseconds since the epoch, {@code 0 .. 2^48-1}
     * @return a new lowercase id with exactly that timestamp
     * @throws StorageException {@code "UUIDv7 timestamp is outside the 48-bit range."}, or when
     *     the 26-bit counter for that millisecond is spent (over 2^25 ids in one millisecond)
     */
    public static String generate(long timestampMs) {
        checkRange(timestampMs);
        return EXPLICIT.nextAt(timestampMs);
    }

    /**
     * @param id any text, {@code null} allowed
     * @return whether it is a UUIDv7 in 8-4-4-4-12 form, version {@code 7}, variant {@code 8-b},
     *     in either case
     */
    public static boolean isValid(String id) {
        if (id == null || id.length() != 36 || id.charAt(8) != '-' || id.charAt(13) != '-' || id.charAt(18) != '-'
                || id.charAt(23) != '-' || id.charAt(14) != '7') {
            return false;
        }
        char variant = id.charAt(19);
        if (variant != '8' && variant != '9' && (variant | 0x20) != 'a' && (variant | 0x20) != 'b') {
            return false;
        }
        return hexRun(id, 0, 8) && hexRun(id, 9, 13) && hexRun(id, 15, 18) && hexRun(id, 20, 23) && hexRun(id, 24, 36);
    }

    /** @return whether the characters {@code from .. to-1} are all hex digits, either case */
    private static boolean hexRun(String id, int from, int to) {
        for (int i = from; i < to; i++) {
            char c = id.charAt(i);
            if (c >= DIGITS.length || DIGITS[c] < 0) {
                return false;
            }
        }
        return true;
    }

    /**
     * @param id the id to check
     * @return the same id
     * @throws StorageException {@code "Invalid UUIDv7 value."} naming the value
     */
    public static String assertValid(String id) {
        if (!isValid(id)) {
            throw new StorageException("Invalid UUIDv7 value." + (id == null ? "" : " Got: \"" + printable(id) + "\""));
        }
        return id;
    }

    /**
     * @param id a valid UUIDv7, either case
     * @return its timestamp in milliseconds since the epoch
     * @throws StorageException when the id is invalid
     */
    public static long timestampMs(String id) {
        assertValid(id);
        long ms = 0;
        for (int i = 0; i < 13; i++) {
            if (i != 8) {
                ms = ms << 4 | DIGITS[id.charAt(i)];
            }
        }
        return ms;
    }

    /**
     * @param timestampMs milliseconds, {@code 0 .. 2^48-1}
     * @return the smallest id with that timestamp, {@code <ts>-7000-8000-000000000000}
     * @throws StorageException when the timestamp is outside 48 bits (the original emits a
     *     malformed id instead)
     */
    public static String minForTimestampMs(long timestampMs) {
        checkRange(timestampMs);
        return timestampPrefix(timestampMs) + "-7000-8000-000000000000";
    }

    /**
     * @param timestampMs milliseconds, {@code 0 .. 2^48-1}
     * @return the largest id with that timestamp, {@code <ts>-7fff-bfff-ffffffffffff}
     * @throws StorageException when the timestamp is outside 48 bits
     */
    public static String maxForTimestampMs(long timestampMs) {
        checkRange(timestampMs);
        return timestampPrefix(timestampMs) + "-7fff-bfff-ffffffffffff";
    }

    /**
     * @param id a valid id
     * @return the id in lowercase, the form storh writes and sorts by
     */
    public static String normalize(String id) {
        return assertValid(id).toLowerCase(Locale.ROOT);
    }

    private static void checkRange(long timestampMs) {
        if (timestampMs < 0 || timestampMs > MAX_TIMESTAMP_MS) {
            throw new StorageException("UUIDv7 timestamp is outside the 48-bit range.");
        }
    }

    /**
     * The state of one id sequence: the last millisecond used and its 26-bit counter (e0 low
     * nibble, e1, e2 low 6 bits, e3) and 48 random bits (e4..e9). Guarded by its own monitor.
     */
    private static final class Sequence {
        /** Random longs drawn from {@link #RANDOM} at once (4 KiB): one call per 512 ids of a burst. */
        private static final int DRAWN = 512;

        private long lastMs = -1;
        private long counterHigh;
        private long counterLow;
        private final long[] random = new long[DRAWN];
        private final byte[] drawn = new byte[DRAWN * Long.BYTES];
        private int used = DRAWN;
        /** The millisecond {@link #prefix} shows, or -1. */
        private long prefixMs = -1;
        /** The first 13 characters of an id at {@link #prefixMs}, as bytes. */
        private final byte[] prefix = new byte[13];

        /** The next id at {@code max(now, last)}, moving one millisecond on when the counter is spent. */
        synchronized String nextFromClock(long nowMs) {
            long ms = Math.max(nowMs, lastMs);
            if (ms == lastMs) {
                if (!increment()) {
                    ms++;
                    fresh();
                }
            } else {
                fresh();
            }
            lastMs = ms;
            return formatted(ms);
        }

        /** Fills {@code ids} with the next ids, as many calls of {@link #nextFromClock(long)} with {@code nowMs} would. */
        synchronized void nextFromClock(long nowMs, String[] ids) {
            for (int i = 0; i < ids.length; i++) {
                ids[i] = nextFromClock(nowMs);
            }
        }

        /** The next id at exactly {@code ms}: increasing after a call with the same millisecond. */
        synchronized String nextAt(long ms) {
            if (ms == lastMs) {
                if (!increment()) {
                    throw new StorageException("UUIDv7 random bits exhausted for timestamp " + ms);
                }
            } else {
                fresh();
            }
            lastMs = ms;
            return formatted(ms);
        }

        /** The id of {@code ms} and the current counter and tail, its timestamp characters written once per millisecond. */
        private String formatted(long ms) {
            if (ms != prefixMs) {
                writePrefix(ms, prefix);
                prefixMs = ms;
            }
            byte[] out = new byte[36];
            System.arraycopy(prefix, 0, out, 0, 13);
            writeRest(counterHigh, counterLow, out);
            return new String(out, StandardCharsets.ISO_8859_1);
        }

        /** A new millisecond: the counter starts in its lower half, leaving 2^25 increments of headroom. */
        private void fresh() {
            counterHigh = nextRandom() & (HIGH_MASK >>> 1);
            counterLow = nextRandom() & LOW_MASK;
        }

        /** @return 64 bits of {@link #RANDOM}'s output, each used once */
        private long nextRandom() {
            if (used == DRAWN) {
                RANDOM.nextBytes(drawn);
                java.nio.ByteBuffer.wrap(drawn).asLongBuffer().get(random);
                java.util.Arrays.fill(drawn, (byte) 0);
                used = 0;
            }
            long r = random[used];
            random[used++] = 0;
            return r;
        }

        /** Next id in the same millisecond: counter + 1, new random tail; false when the counter is spent. */
        private boolean increment() {
            if (counterHigh >= HIGH_MASK) {
                return false;
            }
            counterHigh++;
            counterLow = nextRandom() & LOW_MASK;
            return true;
        }
    }

    static String format(long ms, long high, long low) {
        byte[] out = new byte[36];
        writePrefix(ms, out);
        writeRest(high, low, out);
        return new String(out, StandardCharsets.ISO_8859_1);
    }

    /** Writes the 13 timestamp characters {@code tttttttt-tttt} of {@code ms} into {@code out[0..12]}. */
    private static void writePrefix(long ms, byte[] out) {
        for (int i = 0, shift = 44; i < 13; i++) {
            if (i == 8) {
                out[i] = '-';
                continue;
            }
            out[i] = HEX_BYTES[(int) (ms >>> shift) & 0xf];
            shift -= 4;
        }
    }

    /** Writes characters 13..35, {@code -7xxx-Vxxx-xxxxxxxxxxxx}, of the counter and tail into {@code out}. */
    private static void writeRest(long high, long low, byte[] out) {
        out[13] = '-';
        out[14] = '7';
        out[15] = HEX_BYTES[(int) (high >>> 22) & 0xf];
        out[16] = HEX_BYTES[(int) (high >>> 18) & 0xf];
        out[17] = HEX_BYTES[(int) (high >>> 14) & 0xf];
        out[18] = '-';
        out[19] = HEX_BYTES[0x8 | ((int) (high >>> 12) & 0x3)];
        out[20] = HEX_BYTES[(int) (high >>> 8) & 0xf];
        out[21] = HEX_BYTES[(int) (high >>> 4) & 0xf];
        out[22] = HEX_BYTES[(int) high & 0xf];
        out[23] = '-';
        for (int i = 0; i < 12; i++) {
            out[24 + i] = HEX_BYTES[(int) (low >>> (44 - 4 * i)) & 0xf];
        }
    }

    private static String timestampPrefix(long ms) {
        byte[] out = new byte[13];
        writePrefix(ms, out);
        return new String(out, StandardCharsets.ISO_8859_1);
    }

    private static String printable(String s) {
        String cut = s.length() > 64 ? s.substring(0, 64) + "…" : s;
        StringBuilder b = new StringBuilder(cut.length());
        for (int i = 0; i < cut.length(); i++) {
            char c = cut.charAt(i);
            b.append(c < 0x20 ? String.format("\\u%04x", (int) c) : String.valueOf(c));
        }
        return b.toString();
    }
}
