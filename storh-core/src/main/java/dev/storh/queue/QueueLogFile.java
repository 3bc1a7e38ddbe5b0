package dev.storh.queue;

import dev.storh.StorageException;
import dev.storh.fs.AtomicFiles;
import dev.storh.fs.FileRanges;
import dev.storh.fs.FramedLine;
import dev.storh.fs.ReadOnlyFileSystem;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.HexFormat;
import java.util.function.Consumer;

/**
 * The files of one queue and the low-level I/O on {@code queue.log}: reading framed event lines,
 * appending with one fsync, cutting a bad tail, and replacing the whole file by rename.
 *
 * <pre>
 * &lt;root&gt;/&lt;name&gt;/
 *   queue.lock                      empty; flock(2) target of the queue lock
 *   queue.log                       framed event lines (QueueEventCodec), append-only between compactions
 *   .queue.log.&lt;12 hex&gt;.tmp         a compaction in progress (deleted on open when a writer crashed)
 *   queue.log.cut-&lt;offset&gt;-&lt;ms&gt;    bytes taken out of queue.log at &lt;offset&gt;: a bad tail that held
 *                                   complete lines, or a damaged stretch a repair or compaction removed
 * </pre>
 *
 * <p>The open channel always belongs to the file that {@code queue.log} named when it was opened.
 * {@link #isCurrent()} compares that file's identity ({@code fileKey}: device and inode on Unix)
 * with what the name points at now; holding the old file open also keeps its inode from being
 * reused, so a renamed-over file can never look current again.
 *
 * <p>Not thread-safe; every method except {@link #scan(FileChannel, long, long, Consumer)} must be
 * called under the queue lock.
 */
final class QueueLogFile implements AutoCloseable {

    static final String LOG_NAME = "queue.log";
    static final String LOCK_NAME = "queue.lock";

    private static final int CHUNK = 1 << 20;
    private static final SecureRandom RANDOM = new SecureRandom();

    private final Path path;
    private final boolean readOnly;
    private FileChannel channel;
    private Object fileKey;

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
    }

    /**
     * @param path {@code queue.log}
     * @param readOnly whether the file system is read-only: the file is then opened for reading only
     */
    QueueLogFile(Path path, boolean readOnly) {
        this.path = path;
        this.readOnly = readOnly;
    }

    Path path() {
        return path;
    }

    /**
     * (Re)opens the file {@code queue.log} names now, creating it empty when missing (and fsyncing
     * the folder, so a new log survives a power loss: W13); on a read-only file system it is opened
     * for reading and must exist.
     *
     * @throws StorageException {@code "Could not open log queue file: <path>"}
     */
    void open() {
        closeChannel();
        if (Files.isDirectory(path)) {
            throw new StorageException("Could not open log queue file: " + path + " is a directory");
        }
        try {
            boolean created = !readOnly && !Files.exists(path);
            channel = readOnly ? FileChannel.open(path, StandardOpenOption.READ)
                    : FileChannel.open(path, StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE);
            if (created) {
                AtomicFiles.syncDirectory(path.getParent());
            }
            fileKey = Files.readAttributes(path, BasicFileAttributes.class).fileKey();
        } catch (IOException | RuntimeException e) {
            closeChannel();
            throw new StorageException("Could not open log queue file: " + path
                    + (readOnly ? " (" + ReadOnlyFileSystem.READ_ONLY + ")" : ""), e);
        }
    }

    /**
     * @return whether the open channel is the file {@code queue.log} names now (false when none is
     *     open, the name is gone, or a compaction renamed a new file over it); without file keys
     *     (some platforms) only an open channel is checked
     */
    boolean isCurrent() {
        if (channel == null || !channel.isOpen()) {
            return false;
        }
        try {
            Object now = Files.readAttributes(path, BasicFileAttributes.class).fileKey();
            return now == null || now.equals(fileKey);
        } catch (NoSuchFileException e) {
            return false;
        } catch (IOException e) {
            throw new StorageException("Could not open log queue file: " + path, e);
        }
    }

    /**
     * @return the open file's size in bytes
     */
    long size() {
        try {
            return channel.size();
        } catch (IOException e) {
            throw new StorageException("Could not open log queue file: " + path, e);
        }
    }

    FileChannel channel() {
        return channel;
    }

    /**
     * Reads event lines from {@code from} up to the size at the start of the call and hands each
     * good event to {@code sink}. A line that does not decode is skipped when a good event follows
     * it (damage inside the log, reported in {@link Scan#damaged()}; when damage swallowed a line
     * feed, a valid frame at the end of the bad line is recovered, see {@link FramedLine#resync}).
     * Bad bytes with no good event after them are the tail: reading ends before them
     * ({@link Scan#error()}); a line that lacks its LF at the end of the file is torn.
     *
     * @param ch the channel to read
     * @param from the offset of a line start
     * @param firstLine the 1-based line number at {@code from} (for messages)
     * @param nowSeconds the reader's clock for events without {@code ts}
     * @param sink receives the events in file order
     * @return where reading stopped, why, and what was skipped
     * @throws IOException on a read error
     */
    static Scan scan(FileChannel ch, long from, long firstLine, long nowSeconds, Consumer<QueueEvent> sink)
            throws IOException {
        long size = ch.size();
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
                int n = ch.read(ByteBuffer.wrap(buf, len, want), readPos);
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

    private static int indexOfLf(byte[] buf, int from, int to) {
        for (int i = from; i < to; i++) {
            if (buf[i] == '\n') {
                return i;
            }
        }
        return -1;
    }

    /**
     * Appends bytes at {@code at} (the end of the last good line) and fsyncs the data
     * ({@code fdatasync}: the new size is flushed with it). This write is the commit point of
     * every queue operation.
     *
     * @param bytes whole event lines
     * @param at the offset to write at
     * @throws IOException on a write or sync error; the caller cuts back to {@code at}
     */
    void append(byte[] bytes, long at) throws IOException {
        ByteBuffer buffer = ByteBuffer.wrap(bytes);
        long position = at;
        while (buffer.hasRemaining()) {
            int n = channel.write(buffer, position);
            if (n <= 0 && buffer.hasRemaining()) {
                throw new IOException("write made no progress");
            }
            position += n;
        }
        channel.force(false);
    }

    /**
     * What {@link #cut} removed.
     *
     * @param bytes bytes cut from the end
     * @param keptIn the side file holding them, or {@code null} when they were only a torn line
     */
    record Cut(long bytes, Path keptIn) {
    }

    /**
     * Truncates the log to {@code at} and fsyncs it. Bytes after {@code at} that contain a complete
     * line are first copied to {@code queue.log.cut-<at>-<ms>} (synced), so a corrupt line is never
     * silently destroyed (W6); a mere torn tail (no line feed) is dropped.
     *
     * @param at the offset of the first bad line of the tail
     * @return what was cut
     * @throws StorageException {@code "Could not truncate log queue file: <path>"}
     */
    Cut cut(long at) {
        try {
            long size = channel.size();
            if (size <= at) {
                return new Cut(0, null);
            }
            byte[] probe = new byte[(int) Math.min(size - at, CHUNK)];
            int n = channel.read(ByteBuffer.wrap(probe), at);
            boolean completeLine = size - at > CHUNK || indexOfLf(probe, 0, Math.max(n, 0)) >= 0;
            Path keep = null;
            if (completeLine) {
                keep = path.resolveSibling(LOG_NAME + ".cut-" + at + "-" + System.currentTimeMillis());
                FileRanges.copyAside(channel, new FileRanges.Range(at, size - at), keep);
            }
            channel.truncate(at);
            channel.force(true);
            return new Cut(size - at, keep);
        } catch (IOException e) {
            throw new StorageException("Could not truncate log queue file: " + path + " at byte " + at, e);
        }
    }

    /**
     * Truncates back to {@code at} after a failed append, so the failed batch's bytes do not linger.
     *
     * @param at the size before the append
     * @throws IOException when the truncate or its fsync fails (the caller adds it to the append's
     *     error; the next sync re-reads the file from the start and follows whatever it holds)
     */
    void rollBack(long at) throws IOException {
        if (channel == null) {
            throw new IOException("no open channel on " + path);
        }
        channel.truncate(at);
        channel.force(true);
    }

    /**
     * Copies damaged stretches aside, one synced file {@code queue.log.cut-<offset>-<ms>} each, so
     * nothing the log held is destroyed when the stretches leave the log.
     *
     * @param damaged stretches of the open file
     * @return a description per stretch: {@code "<path>:<offset>: <n> bytes (<problem>), kept in <file>"}
     * @throws StorageException naming the side file when it cannot be written
     */
    List<String> keepAside(List<Damage> damaged) {
        List<String> kept = new ArrayList<>();
        long ms = System.currentTimeMillis();
        for (Damage d : damaged) {
            Path keep = path.resolveSibling(LOG_NAME + ".cut-" + d.offset() + "-" + ms);
            FileRanges.copyAside(channel, new FileRanges.Range(d.offset(), d.length()), keep);
            kept.add(path + ":" + d.offset() + ": " + d.length() + " bytes on line " + d.line() + " (" + d.problem()
                    + "), kept in " + keep.getFileName());
        }
        return kept;
    }

    /**
     * Rewrites {@code queue.log} without the damaged stretches, by temp file and rename (as a
     * compaction does: other instances notice the new file and re-read it), then reopens it. Every
     * other byte is kept as it is, in order. Call {@link #keepAside} first.
     *
     * @param damaged stretches of the open file, in file order
     * @param end the offset where the good part of the file ends (a bad tail was cut before)
     * @throws StorageException naming the temp or log path
     */
    void rewriteWithout(List<Damage> damaged, long end) {
        List<FileRanges.Range> ranges = new ArrayList<>();
        damaged.forEach(d -> ranges.add(new FileRanges.Range(d.offset(), d.length())));
        FileRanges.rewriteWithout(path, channel, ranges, end);
        open();
    }

    /**
     * Replaces {@code queue.log} with new content: temp file in the same folder, fsync, rename over
     * {@code queue.log}, folder fsync; then reopens the channel on the new file. A crash leaves the
     * old or the new log, plus possibly a temp file that {@link #deleteLeftovers} removes.
     *
     * @param content whole event lines
     * @throws StorageException naming the temp or log path
     */
    void replace(byte[] content) {
        byte[] random = new byte[6];
        RANDOM.nextBytes(random);
        Path temp = path.resolveSibling("." + LOG_NAME + "." + HexFormat.of().formatHex(random) + ".tmp");
        AtomicFiles.writeVia(temp, path, content);
        open();
    }

    /**
     * Deletes compaction temp files left by a crashed writer; call under the queue lock.
     *
     * @param dir the queue folder
     */
    static void deleteLeftovers(Path dir) {
        try (DirectoryStream<Path> temps = Files.newDirectoryStream(dir, "." + LOG_NAME + ".*.tmp")) {
            for (Path temp : temps) {
                AtomicFiles.deleteQuietly(temp);
            }
        } catch (IOException ignored) {
            // Nothing to clean, or the folder cannot be listed; opening the log reports real problems.
        }
    }

    private void closeChannel() {
        if (channel != null) {
            try {
                channel.close();
            } catch (IOException ignored) {
                // Read-only use from here on is impossible anyway.
            }
            channel = null;
            fileKey = null;
        }
    }

    @Override
    public void close() {
        closeChannel();
    }
}
