package dev.storh.queue;

import dev.storh.StorageException;
import dev.storh.fs.AtomicFiles;
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
import java.util.Arrays;
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
 *   queue.log.cut-&lt;offset&gt;-&lt;ms&gt;    bytes cut from queue.log at a bad line that held complete lines
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
    private FileChannel channel;
    private Object fileKey;

    /**
     * The outcome of reading lines.
     *
     * @param end the offset just after the last good line
     * @param lines good lines read
     * @param error the original's message for the first bad line, or {@code null} when every byte
     *     up to the size at the start of the scan was read
     */
    record Scan(long end, long lines, String error) {
    }

    QueueLogFile(Path path) {
        this.path = path;
    }

    Path path() {
        return path;
    }

    /**
     * (Re)opens the file {@code queue.log} names now, creating it empty when missing (and fsyncing
     * the folder, so a new log survives a power loss: W13).
     *
     * @throws StorageException {@code "Could not open log queue file: <path>"}
     */
    void open() {
        closeChannel();
        if (Files.isDirectory(path)) {
            throw new StorageException("Could not open log queue file: " + path + " is a directory");
        }
        try {
            boolean created = !Files.exists(path);
            channel = FileChannel.open(path, StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE);
            if (created) {
                AtomicFiles.syncDirectory(path.getParent());
            }
            fileKey = Files.readAttributes(path, BasicFileAttributes.class).fileKey();
        } catch (IOException | RuntimeException e) {
            closeChannel();
            throw new StorageException("Could not open log queue file: " + path, e);
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
     * good event to {@code sink}, stopping at the first line that does not decode (a line that
     * lacks its LF at the end of the file is torn).
     *
     * @param ch the channel to read
     * @param from the offset of a line start
     * @param nowSeconds the reader's clock for events without {@code ts}
     * @param sink receives the events in file order
     * @return where reading stopped and why
     * @throws IOException on a read error
     */
    static Scan scan(FileChannel ch, long from, long nowSeconds, Consumer<QueueEvent> sink) throws IOException {
        long size = ch.size();
        byte[] buf = new byte[(int) Math.min(CHUNK, Math.max(64, size - from))];
        int len = 0;
        long bufStart = from;
        long readPos = from;
        long pos = from;
        long lines = 0;
        while (true) {
            int start = (int) (pos - bufStart);
            int lf = indexOfLf(buf, start, len);
            if (lf < 0) {
                if (readPos >= size) {
                    return new Scan(pos, lines, start < len ? QueueEventCodec.TORN : null);
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
            QueueEvent event;
            try {
                event = QueueEventCodec.decodeLine(line, nowSeconds);
            } catch (QueueEventCodec.QueueLineException e) {
                return new Scan(pos, lines, e.getMessage());
            }
            sink.accept(event);
            lines++;
            pos += line.length;
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
     * Truncates the log to {@code at} and fsyncs it. Bytes after {@code at} that contain a complete
     * line are first copied to {@code queue.log.cut-<at>-<ms>} (synced), so a corrupt line followed by
     * good ones is never silently destroyed (W6); a mere torn tail is dropped.
     *
     * @param at the offset of the first bad line
     * @return the number of bytes cut
     * @throws StorageException {@code "Could not truncate log queue file: <path>"}
     */
    long cut(long at) {
        try {
            long size = channel.size();
            if (size <= at) {
                return 0;
            }
            byte[] probe = new byte[(int) Math.min(size - at, CHUNK)];
            int n = channel.read(ByteBuffer.wrap(probe), at);
            boolean completeLine = size - at > CHUNK || indexOfLf(probe, 0, Math.max(n, 0)) >= 0;
            if (completeLine) {
                Path keep = path.resolveSibling(LOG_NAME + ".cut-" + at + "-" + System.currentTimeMillis());
                try (FileChannel out = FileChannel.open(keep, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
                    long copied = 0;
                    while (copied < size - at) {
                        copied += channel.transferTo(at + copied, size - at - copied, out);
                    }
                    out.force(true);
                }
                AtomicFiles.syncDirectory(path.getParent());
            }
            channel.truncate(at);
            channel.force(true);
            return size - at;
        } catch (IOException e) {
            throw new StorageException("Could not truncate log queue file: " + path + " at byte " + at, e);
        }
    }

    /**
     * Best-effort truncate after a failed append, so the failed batch's bytes do not linger.
     *
     * @param at the size before the append
     */
    void rollBack(long at) {
        try {
            channel.truncate(at);
            channel.force(true);
        } catch (IOException | RuntimeException ignored) {
            // The next sync re-reads the file from the start and follows whatever it holds.
        }
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
