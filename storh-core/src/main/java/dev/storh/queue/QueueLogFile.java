package dev.storh.queue;

import dev.storh.StorageException;
import dev.storh.fs.AtomicFiles;
import dev.storh.fs.FileRanges;
import dev.storh.fs.ReadOnlyFileSystem;
import dev.storh.fs.StoreFiles;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * The bytes of one queue's {@code queue.log}, reached only through the queue folder's byte seam
 * ({@link StoreFiles}, names from {@link QueueFiles}): reading event lines from an offset,
 * appending after the recorded end with one {@code fdatasync}, cutting a bad tail or a failed
 * append, keeping damaged bytes aside, and replacing the whole file by temp file and rename.
 *
 * <p>A writer holds the log open for appending ({@link StoreFiles#append}); a read-only instance
 * holds it open for reading, and so does a writer whose log cannot be opened for appending (an
 * immutable file): its reads go on, its writes refuse until a reopen for a write succeeds. The
 * held file always belongs to the file that {@code queue.log} named when it was opened. {@link #isCurrent()} compares that file's identity
 * ({@link StoreFiles#identity}: device and inode on Unix) with what the name points at now; holding
 * the old file open also keeps its inode from being reused, so a renamed-over file can never look
 * current again.
 *
 * <p>Not thread-safe; every method but {@link #unchangedSince} must be called under the queue lock.
 */
final class QueueLogFile implements AutoCloseable {

    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(QueueLogFile.class);

    private static final String LOG_NAME = QueueFiles.LOG_NAME;

    private static final int PROBE = 1 << 20;

    private final StoreFiles files;
    private final boolean readOnly;
    /** The log held open for appending (writers), or null. */
    private StoreFiles.Output out;
    /** The log held open for reading (read-only instances), or null. */
    private InputStream pin;
    private Object identity;
    /** Why the held file could not be opened for appending (it is held for reading), or null. */
    private IOException appendRefused;

    /**
     * What {@link #cut} removed.
     *
     * @param bytes bytes cut from the end
     * @param keptIn the side file holding them, or {@code null} when they were only a torn line
     */
    record Cut(long bytes, Path keptIn) {
    }

    /**
     * @param files the seam rooted at the queue folder
     * @param readOnly whether the file system is read-only: the file is then opened for reading only
     */
    QueueLogFile(StoreFiles files, boolean readOnly) {
        this.files = files;
        this.readOnly = readOnly;
    }

    /** @return where {@code queue.log} is, for messages */
    Path path() {
        return files.path(LOG_NAME);
    }

    /**
     * (Re)opens the file {@code queue.log} names now, creating it empty when missing (and fsyncing
     * the folder, so a new log survives a power loss: W13); on a read-only file system, or when an
     * existing log cannot be opened for appending, it is opened for reading and must exist.
     *
     * @throws StorageException {@code "Could not open log queue file: <path>"}
     */
    void open() {
        closeHandles();
        try {
            Optional<StoreFiles.Entry> entry = files.stat(LOG_NAME);
            if (entry.isPresent() && entry.get().kind() == StoreFiles.Entry.Kind.DIRECTORY) {
                throw new StorageException("Could not open log queue file: " + path() + " is a directory");
            }
            if (readOnly) {
                pin = files.open(LOG_NAME);
            } else {
                try {
                    out = files.append(LOG_NAME);
                } catch (IOException e) {
                    if (entry.isEmpty()) {
                        throw e;
                    }
                    pin = files.open(LOG_NAME); // it can be read (an immutable file): reads go on, writes refuse
                    appendRefused = e;
                }
                if (entry.isEmpty()) {
                    files.syncDirectory("");
                }
            }
            identity = files.identity(LOG_NAME);
        } catch (StorageException e) {
            closeHandles();
            throw e;
        } catch (IOException | RuntimeException e) {
            closeHandles();
            throw new StorageException("Could not open log queue file: " + path()
                    + (readOnly ? " (" + ReadOnlyFileSystem.READ_ONLY + ")" : ""), e);
        }
    }

    /**
     * @return whether the held file is the one {@code queue.log} names now (false when none is
     *     held, the name is gone, or a compaction renamed a new file over it); without identities
     *     (some seams) only a held file is checked
     */
    boolean isCurrent() {
        if (out == null && pin == null) {
            return false;
        }
        try {
            Object now = files.identity(LOG_NAME);
            return now == null || now.equals(identity);
        } catch (NoSuchFileException e) {
            return false;
        } catch (IOException e) {
            throw new StorageException("Could not open log queue file: " + path(), e);
        }
    }

    /**
     * {@link #isCurrent()} and {@link #size()} in one look at the name (one {@code stat} on a local
     * disk): the held file's size when {@code queue.log} still names it.
     *
     * @return the size, or -1 when no file is held, the name is gone or names another file; without
     *     identities (some seams) the held file's own size
     */
    long currentSize() {
        if (out == null && pin == null) {
            return -1;
        }
        StoreFiles.Identified now;
        try {
            now = files.identified(LOG_NAME);
        } catch (NoSuchFileException e) {
            return -1;
        } catch (IOException e) {
            throw new StorageException("Could not open log queue file: " + path(), e);
        }
        if (now.key() == null) {
            return size();
        }
        return now.key().equals(identity) ? now.size() : -1;
    }

    /** @return the identity of the held file, or null when none is held or the seam has none */
    Object heldIdentity() {
        return identity;
    }

    /**
     * The one method that may be called without the queue lock: it only asks the seam.
     *
     * @param offset a size the log had
     * @param held the identity of the file that had it
     * @return whether {@code queue.log} names that file and has that size now; false when it cannot be read
     */
    boolean unchangedSince(long offset, Object held) {
        try {
            StoreFiles.Identified now = files.identified(LOG_NAME);
            return now.size() == offset && held.equals(now.key());
        } catch (IOException | RuntimeException e) {
            return false;
        }
    }

    /**
     * @return the held file's size in bytes
     */
    long size() {
        try {
            return out != null ? out.size() : sizeNamed();
        } catch (IOException e) {
            throw new StorageException("Could not open log queue file: " + path(), e);
        }
    }

    /**
     * @return the size of the file {@code queue.log} names now, 0 when it is missing
     * @throws IOException when it cannot be read
     */
    long sizeNamed() throws IOException {
        return files.stat(LOG_NAME).map(StoreFiles.Entry::size).orElse(0L);
    }

    /**
     * Reads the held file's event lines from {@code from} up to its size now (see
     * {@link QueueLogScanner}); nothing is opened when there is nothing new.
     *
     * @param from the offset of a line start
     * @param firstLine the 1-based line number at {@code from}
     * @param nowSeconds the reader's clock for events without {@code ts}
     * @param sink receives the events in file order
     * @return where reading stopped, why, and what was skipped
     * @throws IOException on a read error
     */
    QueueLogScanner.Scan read(long from, long firstLine, long nowSeconds, Consumer<QueueEvent> sink) throws IOException {
        long size = size();
        if (size <= from) {
            return QueueLogScanner.Scan.empty(from, firstLine);
        }
        try (InputStream in = files.open(LOG_NAME, from)) {
            return QueueLogScanner.scan(in, from, size, firstLine, nowSeconds, sink);
        }
    }

    /**
     * Reads whatever {@code queue.log} names now from the start, independent of the held file (verify).
     *
     * @param nowSeconds the reader's clock for events without {@code ts}
     * @param sink receives the events in file order
     * @return where reading stopped, why, and what was skipped
     * @throws IOException when the log is missing, is a folder, or cannot be read
     */
    QueueLogScanner.Scan readNamed(long nowSeconds, Consumer<QueueEvent> sink) throws IOException {
        StoreFiles.Entry entry = files.stat(LOG_NAME).orElseThrow(() -> new NoSuchFileException(path().toString()));
        if (entry.kind() == StoreFiles.Entry.Kind.DIRECTORY) {
            throw new IOException(path() + " is a directory");
        }
        try (InputStream in = files.open(LOG_NAME)) {
            return QueueLogScanner.scan(in, 0, entry.size(), 1, nowSeconds, sink);
        }
    }

    /**
     * Appends bytes after {@code at} (the end of the last good line; anything the file holds past
     * it is cut first) and fsyncs the data ({@code fdatasync}: the new size is flushed with it).
     * This write is the commit point of every queue operation.
     *
     * @param bytes whole event lines in their first {@code length} bytes
     * @param length how many bytes to append
     * @param at the offset to write at
     * @param endKnown whether the caller saw, under the lock it still holds, that the file ends at
     *     {@code at} (then the handle is not asked again)
     * @throws IOException on a write or sync error; the caller cuts back to {@code at}
     */
    void append(byte[] bytes, int length, long at, boolean endKnown) throws IOException {
        StoreFiles.Output log = writable();
        if (!endKnown && log.size() != at) {
            log.truncate(at);
        }
        log.write(bytes, 0, length);
        log.syncData();
    }

    /**
     * Truncates the log to {@code at} and fsyncs it. Bytes after {@code at} that contain a complete
     * line are first copied to {@code queue.log.cut-<at>-<ms>} (synced), so a corrupt line is never
     * silently destroyed (W6); a mere torn tail (no line feed) is dropped. When the truncate fails
     * the side file is removed again (the log is as it was); when only the fsync of the cut fails the
     * cut stands and is returned (logged).
     *
     * @param at the offset of the first bad line of the tail
     * @return what was cut
     * @throws StorageException {@code "Could not truncate log queue file: <path>"}, or naming the side file
     */
    Cut cut(long at) {
        try {
            StoreFiles.Output log = writable();
            long size = log.size();
            if (size <= at) {
                return new Cut(0, null);
            }
            boolean completeLine = size - at > PROBE || holdsLineFeed(at, (int) (size - at));
            String keep = null;
            if (completeLine) {
                keep = QueueFiles.cutName(at, System.currentTimeMillis());
                FileRanges.copyAside(files, LOG_NAME, new FileRanges.Range(at, size - at), keep);
            }
            try {
                log.truncate(at);
            } catch (IOException | RuntimeException e) {
                if (keep != null) {
                    AtomicFiles.deleteQuietly(files, keep); // the log still holds the bytes
                }
                throw e;
            }
            try {
                log.sync();
            } catch (IOException | RuntimeException e) {
                // The cut is done and its bytes are kept aside; a cut lost to a power loss is made again.
                LOG.warn("Cut {} at byte {}, but could not fsync the cut: {}", path(), at, e.toString());
            }
            return new Cut(size - at, keep == null ? null : files.path(keep));
        } catch (IOException e) {
            throw new StorageException("Could not truncate log queue file: " + path() + " at byte " + at, e);
        }
    }

    private boolean holdsLineFeed(long at, int length) throws IOException {
        try (InputStream in = files.open(LOG_NAME, at)) {
            byte[] probe = in.readNBytes(length);
            return QueueLogScanner.indexOfLf(probe, 0, probe.length) >= 0;
        }
    }

    /**
     * Truncates back to {@code at} after a failed append, so the failed batch's bytes do not linger.
     *
     * @param at the size before the append
     * @throws IOException when the truncate or its fsync fails
     */
    void rollBack(long at) throws IOException {
        StoreFiles.Output log = writable();
        log.truncate(at);
        log.sync();
    }

    private StoreFiles.Output writable() throws IOException {
        if (out == null) {
            throw appendRefused != null ? new IOException("could not open " + path() + " for appending: "
                    + appendRefused.getMessage(), appendRefused) : new IOException("no open log on " + path());
        }
        return out;
    }

    /** @return whether the held file is open for appending (a writer whose log could be opened so) */
    boolean appendable() {
        return out != null;
    }

    /**
     * Copies damaged stretches aside, one synced file {@code queue.log.cut-<offset>-<ms>} each, so
     * nothing the log held is destroyed when the stretches leave the log.
     *
     * @param damaged stretches of the held file
     * @return a description per stretch: {@code "<path>:<offset>: <n> bytes (<problem>), kept in <file>"}
     * @throws StorageException naming the side file when it cannot be written
     */
    List<String> keepAside(List<QueueLogScanner.Damage> damaged) {
        List<String> kept = new ArrayList<>();
        long ms = System.currentTimeMillis();
        for (QueueLogScanner.Damage d : damaged) {
            String keep = QueueFiles.cutName(d.offset(), ms);
            FileRanges.copyAside(files, LOG_NAME, new FileRanges.Range(d.offset(), d.length()), keep);
            kept.add(path() + ":" + d.offset() + ": " + d.length() + " bytes on line " + d.line() + " (" + d.problem()
                    + "), kept in " + keep);
        }
        return kept;
    }

    /**
     * Rewrites {@code queue.log} without the damaged stretches, by temp file and rename (as a
     * compaction does: other instances notice the new file and re-read it), then reopens it. Every
     * other byte is kept as it is, in order. Call {@link #keepAside} first.
     *
     * @param damaged stretches of the held file, in file order
     * @param end the offset where the good part of the file ends (a bad tail was cut before)
     * @throws StorageException naming the temp or log path
     */
    void rewriteWithout(List<QueueLogScanner.Damage> damaged, long end) {
        List<FileRanges.Range> ranges = new ArrayList<>();
        damaged.forEach(d -> ranges.add(new FileRanges.Range(d.offset(), d.length())));
        FileRanges.rewriteWithout(files, LOG_NAME, QueueFiles.newTempName(), ranges, end);
        open();
    }

    /**
     * Replaces {@code queue.log} with new content: temp file in the same folder, fsync, rename over
     * {@code queue.log}, folder fsync; then reopens the new file. A crash leaves the old or the new
     * log, plus possibly a temp file that {@link #deleteLeftovers} removes.
     *
     * @param content whole event lines
     * @throws StorageException naming the temp or log path
     */
    void replace(byte[] content) {
        AtomicFiles.writeVia(files, QueueFiles.newTempName(), LOG_NAME, content);
        open();
    }

    /**
     * Deletes compaction temp files left by a crashed writer.
     */
    void deleteLeftovers() {
        try {
            for (String name : files.list("")) {
                if (QueueFiles.isTemp(name)) {
                    AtomicFiles.deleteQuietly(files, name);
                }
            }
        } catch (IOException ignored) {
            // Nothing to clean, or the folder cannot be listed; opening the log reports real problems.
        }
    }

    private void closeHandles() {
        try {
            if (out != null) {
                out.close();
            }
            if (pin != null) {
                pin.close();
            }
        } catch (IOException ignored) {
            // Nothing was pending in the handle: every append is synced before it returns.
        }
        out = null;
        pin = null;
        identity = null;
        appendRefused = null;
    }

    @Override
    public void close() {
        closeHandles();
    }
}
