package dev.storh.queue;

import dev.storh.fs.FramedLine;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Consumer;

/**
 * Reads framed event lines of {@code queue.log} from a stream and tells good events from damage:
 * a line that does not decode is skipped when a good event follows it (damage inside the log,
 * reported in {@link Scan#damaged()}; when damage swallowed a line feed, a valid frame at the end
 * of the bad line is recovered, see {@link FramedLine#resync}). Bad bytes with no good event after
 * them are the tail: reading ends before them ({@link Scan#error()}); a line that lacks its LF at
 * the end is torn. Stateless and thread-safe.
 */
final class QueueLogScanner {

    private static final int CHUNK = 1 << 20;

    /**
     * A damaged stretch inside the log: bytes that do not decode, followed by a good event.
     *
     * @param offset the byte offset where the damage starts
     * @param length how many bytes are damaged (up to the next good event)
     * @param line the 1-based number of the line the damage starts on
     * @param problem the original's message for the first bad line of the stretch
     */
    record Damage(long offset, long length, long line, String problem) {
    }

    /**
     * The outcome of reading lines.
     *
     * @param end the offset just after the last good line (the start of a bad tail, if any)
     * @param lines good lines read
     * @param error the original's message for the first line of a bad tail (bytes after the last
     *     good event), or {@code null} when every byte up to the size at the start of the scan was read
     * @param endLine the 1-based number of the line that starts at {@code end}
     * @param damaged damaged stretches followed by good events, skipped, in file order
     */
    record Scan(long end, long lines, String error, long endLine, List<Damage> damaged) {

        /** @return a scan that read nothing from {@code from} */
        static Scan empty(long from, long firstLine) {
            return new Scan(from, 0, null, firstLine, List.of());
        }
    }

    private QueueLogScanner() {
    }

    /**
     * @param in the log's bytes from {@code from}
     * @param from the offset of a line start
     * @param size the file's size when the scan starts: reading stops there (or earlier when the
     *     stream ends, the file having shrunk)
     * @param firstLine the 1-based line number at {@code from} (for messages)
     * @param nowSeconds the reader's clock for events without {@code ts}
     * @param sink receives the events in file order
     * @return where reading stopped, why, and what was skipped
     * @throws IOException on a read error
     */
    static Scan scan(InputStream in, long from, long size, long firstLine, long nowSeconds, Consumer<QueueEvent> sink)
            throws IOException {
        byte[] buf = new byte[(int) Math.min(CHUNK, Math.max(64, size - from))];
        int len = 0;
        long bufStart = from;
        long readPos = from;
        long pos = from;
        long lines = 0;
        long lineNo = firstLine;
        long badStart = -1;
        long badLine = 0;
        String badProblem = null;
        List<Damage> damaged = new ArrayList<>();
        while (true) {
            int start = (int) (pos - bufStart);
            int lf = indexOfLf(buf, start, len);
            if (lf < 0) {
                if (readPos >= size) {
                    if (badStart >= 0) {
                        return new Scan(badStart, lines, badProblem, badLine, damaged);
                    }
                    return new Scan(pos, lines, start < len ? QueueEventCodec.TORN : null, lineNo, damaged);
                }
                System.arraycopy(buf, start, buf, 0, len - start);
                len -= start;
                bufStart = pos;
                if (len == buf.length) {
                    buf = Arrays.copyOf(buf, buf.length * 2);
                }
                int want = (int) Math.min(buf.length - len, size - readPos);
                int n = in.read(buf, len, want);
                if (n <= 0) {
                    size = readPos; // the file shrank under us: what is left is all there is
                    continue;
                }
                readPos += n;
                len += n;
                continue;
            }
            byte[] line = Arrays.copyOfRange(buf, start, lf + 1);
            QueueEvent event = null;
            int goodAt = 0;
            try {
                event = QueueEventCodec.decodeLine(line, nowSeconds);
            } catch (QueueEventCodec.QueueLineException e) {
                if (badStart < 0) {
                    badStart = pos;
                    badLine = lineNo;
                    badProblem = e.getMessage();
                }
                int p = FramedLine.resync(line, true);
                if (p > 0) {
                    try {
                        event = QueueEventCodec.decodeLine(Arrays.copyOfRange(line, p, line.length), nowSeconds);
                        goodAt = p;
                    } catch (QueueEventCodec.QueueLineException stillBad) {
                        event = null;
                    }
                }
            }
            if (event != null) {
                if (badStart >= 0) {
                    damaged.add(new Damage(badStart, pos + goodAt - badStart, badLine, badProblem));
                    badStart = -1;
                    badProblem = null;
                }
                sink.accept(event);
                lines++;
            }
            pos += line.length;
            lineNo++;
        }
    }

    /**
     * @return the index of the first LF in {@code buf[from, to)}, or -1
     */
    static int indexOfLf(byte[] buf, int from, int to) {
        for (int i = from; i < to; i++) {
            if (buf[i] == '\n') {
                return i;
            }
        }
        return -1;
    }
}
