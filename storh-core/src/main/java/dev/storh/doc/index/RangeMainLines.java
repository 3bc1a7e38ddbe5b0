package dev.storh.doc.index;

import dev.storh.fs.StoreFiles;
import java.io.IOException;

/**
 * Single lines of a range index's main file read at byte offsets, for {@link RangeSeek}: where the first
 * line at or after an offset starts, the line that starts at an offset, the last line, each from a read of
 * {@link #PROBE} bytes that grows only for a longer line. Every line read is checked to be a plain entry
 * of a seekable key; anything else is {@link RangeSeek.Unprovable}. Stateless.
 */
final class RangeMainLines {

    /** Bytes read at a time when looking for a line. */
    static final int PROBE = 512;

    /** A line of the main file: where it starts and ends (after its newline) and what it holds. */
    record Located(long start, long end, RangeFiles.Line line) {
    }

    private RangeMainLines() {
    }

    /** @return where the first line starting at or after {@code from} (> 0) starts, {@code -1} when none does */
    static long lineStartFrom(StoreFiles.Input in, long size, long from) throws IOException {
        long at = from - 1; // the newline before a line starting at from
        while (at < size) {
            byte[] bytes = readAt(in, at, (int) Math.min(PROBE, size - at));
            for (int j = 0; j < bytes.length; j++) {
                if (bytes[j] == '\n') {
                    long start = at + j + 1;
                    return start < size ? start : -1;
                }
            }
            at += bytes.length;
        }
        return -1;
    }

    /** @return the line starting at {@code start}, decoded and checked to be of the seek's class */
    static Located lineFrom(StoreFiles.Input in, long size, long start) throws IOException {
        byte[] bytes = readAt(in, start, (int) Math.min(PROBE, size - start));
        int end = 0;
        while (true) {
            while (end < bytes.length && bytes[end] != '\n') {
                end++;
            }
            if (end < bytes.length) {
                break;
            }
            if (start + bytes.length >= size) {
                throw new RangeSeek.Unprovable("main file does not end with a newline");
            }
            int had = bytes.length;
            bytes = java.util.Arrays.copyOf(bytes, (int) Math.min(size - start, 2L * had));
            fill(in, bytes, had, start + had);
        }
        RangeFiles.Line line = RangeFiles.lineAt(bytes, 0, end);
        if (line == null || !line.remove().isEmpty() || RangeKeyOrder.of(line.key()) == null
                || !RangeKeyOrder.of(line.key()).matches(line.key(), line.value())) {
            throw new RangeSeek.Unprovable("a line of the main file is not a plain entry of a seekable key");
        }
        return new Located(start, start + end + 1, line);
    }

    /** @return the main file's last line */
    static RangeFiles.Line lastLine(StoreFiles.Input in, long size) throws IOException {
        int window = (int) Math.min(size, PROBE);
        while (true) {
            byte[] bytes = readAt(in, size - window, window);
            if (bytes[bytes.length - 1] != '\n') {
                throw new RangeSeek.Unprovable("main file does not end with a newline");
            }
            for (int j = bytes.length - 2; j >= 0; j--) {
                if (bytes[j] == '\n') {
                    return lineFrom(in, size, size - window + j + 1).line();
                }
            }
            if (window == size) {
                return lineFrom(in, size, 0).line();
            }
            window = (int) Math.min(size, 2L * window);
        }
    }

    static byte[] readAt(StoreFiles.Input in, long from, int length) throws IOException {
        byte[] bytes = new byte[length];
        fill(in, bytes, 0, from);
        return bytes;
    }

    /** Fills {@code bytes} from index {@code at} on with the file's bytes from {@code position}. */
    static void fill(StoreFiles.Input in, byte[] bytes, int at, long position) throws IOException {
        int done = at;
        while (done < bytes.length) {
            int n = in.read(bytes, done, bytes.length - done, position + done - at);
            if (n < 0) {
                throw new RangeSeek.Unprovable("main file shorter than it was");
            }
            done += n;
        }
    }
}
