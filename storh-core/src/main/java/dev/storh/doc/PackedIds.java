package dev.storh.doc;

import dev.storh.id.UuidV7;

/**
 * Lowercase UUIDv7 ids packed as two longs each ({@code [hi, lo, hi, lo, ...]}), so a listing of a
 * million record files costs 16 MB instead of a string and a path per file. Packing keeps the
 * order: ids compare as strings exactly as their two halves compare as unsigned numbers.
 */
final class PackedIds {

    /** Length of an id in its canonical text form. */
    static final int LENGTH = 36;

    private static final char[] HEX = "0123456789abcdef".toCharArray();

    private PackedIds() {
    }

    /**
     * @param id a name
     * @return whether it is a valid UUIDv7 in lowercase, the only form {@link #unpack} gives back
     */
    static boolean packable(String id) {
        if (id.length() != LENGTH || !UuidV7.isValid(id)) {
            return false;
        }
        for (int i = 0; i < LENGTH; i++) {
            char c = id.charAt(i);
            if (c >= 'A' && c <= 'F') {
                return false;
            }
        }
        return true;
    }

    /**
     * @param id a {@link #packable} id
     * @param into receives its two halves
     * @param at where the first half goes
     */
    static void pack(String id, long[] into, int at) {
        long hi = 0;
        long lo = 0;
        int digits = 0;
        for (int i = 0; i < LENGTH; i++) {
            char c = id.charAt(i);
            if (c == '-') {
                continue;
            }
            long v = c <= '9' ? c - '0' : c - 'a' + 10;
            if (digits < 16) {
                hi = hi << 4 | v;
            } else {
                lo = lo << 4 | v;
            }
            digits++;
        }
        into[at] = hi;
        into[at + 1] = lo;
    }

    /**
     * @param hi the first half
     * @param lo the second half
     * @return the id in its canonical lowercase text form
     */
    static String unpack(long hi, long lo) {
        char[] out = new char[LENGTH];
        int pos = 0;
        for (int i = 0; i < 32; i++) {
            if (i == 8 || i == 12 || i == 16 || i == 20) {
                out[pos++] = '-';
            }
            long half = i < 16 ? hi : lo;
            int shift = (15 - (i & 15)) * 4;
            out[pos++] = HEX[(int) (half >>> shift) & 0xF];
        }
        return new String(out);
    }

    /**
     * @param ids packed ids, sorted
     * @param hi the first half sought
     * @param lo the second half sought
     * @return whether the id is among them
     */
    static boolean contains(long[] ids, long hi, long lo) {
        int low = 0;
        int high = ids.length / 2 - 1;
        while (low <= high) {
            int mid = (low + high) >>> 1;
            int c = compare(ids[2 * mid], ids[2 * mid + 1], hi, lo);
            if (c == 0) {
                return true;
            }
            if (c < 0) {
                low = mid + 1;
            } else {
                high = mid - 1;
            }
        }
        return false;
    }

    private static int compare(long hi1, long lo1, long hi2, long lo2) {
        int c = Long.compareUnsigned(hi1, hi2);
        return c != 0 ? c : Long.compareUnsigned(lo1, lo2);
    }
}
