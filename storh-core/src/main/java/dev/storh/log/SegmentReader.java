package dev.storh.log;

import dev.storh.fs.StoreFiles;
import java.io.IOException;
import java.util.Arrays;

/**
 * Reads the lines of one segment in byte order with positional reads, from a start offset up to a
 * limit (the file size when the reader was made), through a buffer that grows for longer
 * lines. A final fragment without LF is reported as unterminated; the caller decides whether it is
 * a torn tail or an invisible in-flight write. Not thread-safe; does not own the file.
 */
final class SegmentReader {

    private final StoreFiles.Input file;
    private final long limit;
    private byte[] buf;
    private long bufStart;
    private int bufLen;
    private long position;

    private long lineOffset;
    private byte[] line;
    private boolean terminated;

    /**
     * @param file an open segment
     * @param start the offset of the first line to read
     * @param limit read nothing at or past this offset
     * @param bufferBytes initial buffer size (it grows for longer lines); never more than the bytes
     *     from {@code start} to {@code limit}, so a small segment gets a small buffer (one read, no
     *     zeroing of a large array per segment)
     */
    SegmentReader(StoreFiles.Input file, long start, long limit, int bufferBytes) {
        this.buf = new byte[(int) Math.max(64, Math.min(bufferBytes, limit - start))];
        this.file = file;
        this.position = start;
        this.bufStart = start;
        this.limit = limit;
    }

    /**
     * @return whether a line (possibly unterminated) was read
     * @throws IOException on a read error
     */
    boolean next() throws IOException {
        if (position >= limit) {
            return false;
        }
        long scanFrom = position;
        while (true) {
            int end = bufLen;
            for (int i = (int) (scanFrom - bufStart); i < end; i++) {
                if (buf[i] == '\n') {
                    return take((int) (position - bufStart), i + 1, true);
                }
            }
            scanFrom = bufStart + bufLen;
            if (!fill()) {
                int start = (int) (position - bufStart);
                return bufLen > start && take(start, bufLen, false);
            }
        }
    }

    private boolean take(int from, int to, boolean withLf) {
        line = Arrays.copyOfRange(buf, from, to);
        lineOffset = position;
        terminated = withLf;
        position += line.length;
        return true;
    }

    /** Compacts the buffer to the current line start and reads more; false at the limit or EOF. */
    private boolean fill() throws IOException {
        int keep = (int) (bufStart + bufLen - position);
        int start = (int) (position - bufStart);
        if (start > 0) {
            System.arraycopy(buf, start, buf, 0, keep);
            bufStart = position;
            bufLen = keep;
        }
        if (bufLen == buf.length) {
            buf = Arrays.copyOf(buf, buf.length * 2);
        }
        long want = Math.min(buf.length - bufLen, limit - (bufStart + bufLen));
        if (want <= 0) {
            return false;
        }
        int read = file.read(buf, bufLen, (int) want, bufStart + bufLen);
        if (read <= 0) {
            return false;
        }
        bufLen += read;
        return true;
    }

    /**
     * @return the byte offset of the line last read
     */
    long lineOffset() {
        return lineOffset;
    }

    /**
     * @return the line last read, including its LF when terminated
     */
    byte[] line() {
        return line;
    }

    /**
     * @return whether the line last read ends with LF
     */
    boolean terminated() {
        return terminated;
    }

    /**
     * @return the offset just past the line last read
     */
    long position() {
        return position;
    }
}
