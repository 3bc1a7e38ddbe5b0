package dev.storh.fs;

import dev.storh.StorageException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.List;

/**
 * Byte ranges of an append-only file (a log segment, {@code queue.log}) moved out of it without
 * destroying them: a range is copied to a side file of its own, then the file is rewritten without the
 * ranges by temp file and atomic rename. Every byte goes through a {@link StoreFiles} seam (the
 * {@link Path} forms use the local file system). Stateless and thread-safe; callers hold the store's lock.
 */
public final class FileRanges {

    private static final SecureRandom RANDOM = new SecureRandom();
    private static final int CHUNK = 1 << 16;

    /**
     * A range of bytes.
     *
     * @param offset where it starts
     * @param length how many bytes
     */
    public record Range(long offset, long length) {
    }

    /** Where the copied bytes come from: a stream of a file's bytes from an offset. */
    @FunctionalInterface
    private interface Source {
        InputStream from(long offset) throws IOException;
    }

    private FileRanges() {
    }

    /**
     * Copies a range to a new file and fsyncs it (the folder too).
     *
     * @param in the file to read
     * @param range the bytes to copy
     * @param target the side file to create; it must not exist
     * @throws StorageException {@code "Could not keep damaged bytes aside: <target>"}; the side file is removed
     */
    public static void copyAside(FileChannel in, Range range, Path target) {
        StoreFiles files = LocalFiles.unrooted();
        copyAside(files, positional(in), range, files.nameOf(target));
    }

    /**
     * Copies a range of one file to a new file through a byte seam: create, write, fsync, folder fsync.
     *
     * @param files the seam
     * @param source the file to read
     * @param range the bytes to copy
     * @param target the side file to create, in an existing folder; it must not exist
     * @throws StorageException {@code "Could not keep damaged bytes aside: <target>"}; the side file is removed
     */
    public static void copyAside(StoreFiles files, String source, Range range, String target) {
        copyAside(files, offset -> files.open(source, offset), range, target);
    }

    private static void copyAside(StoreFiles files, Source in, Range range, String target) {
        StoreFiles.Output out = null;
        try {
            if (files.exists(target)) {
                throw new FileAlreadyExistsException(files.path(target).toString());
            }
            out = files.create(target);
            copy(in, range.offset(), range.length(), out);
        } catch (IOException | RuntimeException e) {
            closeQuietly(out);
            if (!(e instanceof FileAlreadyExistsException)) {
                AtomicFiles.deleteQuietly(files, target);
            }
            throw keptAsideFailure(files, target, e);
        }
        StoreFiles.Output written = out;
        try {
            // the copy's bytes and its folder entry become durable side by side (one journal commit where
            // the file system merges them); the caller cuts the bytes from their file only after both
            SyncPool.forEach(List.of(Boolean.TRUE, Boolean.FALSE), data -> {
                if (data) {
                    syncAndClose(files, written, target);
                } else {
                    AtomicFiles.syncDirectory(files, AtomicFiles.parentName(target));
                }
            });
        } catch (StorageException e) {
            AtomicFiles.deleteQuietly(files, target);
            throw e;
        }
    }

    private static void syncAndClose(StoreFiles files, StoreFiles.Output out, String target) {
        try (out) {
            out.sync();
        } catch (IOException | RuntimeException e) {
            throw keptAsideFailure(files, target, e);
        }
    }

    private static StorageException keptAsideFailure(StoreFiles files, String target, Exception e) {
        return new StorageException("Could not keep damaged bytes aside: " + files.path(target) + ReadOnlyFileSystem.hint(e), e);
    }

    private static void closeQuietly(StoreFiles.Output out) {
        if (out != null) {
            try {
                out.close();
            } catch (IOException | RuntimeException ignored) {
                // the copy failed already; that failure is the one reported
            }
        }
    }

    /**
     * Replaces {@code file} by a copy of its first {@code end} bytes without the given ranges: temp
     * file {@code .<name>.<12 hex>.tmp} in the same folder, fsync, atomic rename, folder fsync. Every
     * other byte is kept, in order. A crash leaves the old or the new file, plus possibly the temp file.
     *
     * @param file the file to rewrite
     * @param in an open channel on it
     * @param ranges the ranges to leave out, in file order, not overlapping, all below {@code end}
     * @param end how much of the file to keep at most
     * @throws StorageException naming the file or the temp file; the file is then unchanged
     */
    public static void rewriteWithout(Path file, FileChannel in, List<Range> ranges, long end) {
        byte[] random = new byte[6];
        RANDOM.nextBytes(random);
        Path temp = file.resolveSibling("." + file.getFileName() + "." + HexFormat.of().formatHex(random) + ".tmp");
        StoreFiles files = LocalFiles.unrooted();
        rewriteWithout(files, positional(in), files.nameOf(file), files.nameOf(temp), ranges, end);
    }

    /**
     * {@link #rewriteWithout(Path, FileChannel, List, long)} through a byte seam, the temp file named
     * by the caller's layout: create, write, fsync, rename over {@code name}, folder fsync.
     *
     * @param files the seam
     * @param name the file to rewrite
     * @param temp the temp file, in the same folder (truncated if present, removed on failure)
     * @param ranges the ranges to leave out, in file order, not overlapping, all below {@code end}
     * @param end how much of the file to keep at most
     * @throws StorageException naming the file or the temp file; the file is then unchanged (unless
     *     only the folder fsync after the rename failed)
     */
    public static void rewriteWithout(StoreFiles files, String name, String temp, List<Range> ranges, long end) {
        rewriteWithout(files, offset -> files.open(name, offset), name, temp, ranges, end);
    }

    private static void rewriteWithout(StoreFiles files, Source in, String name, String temp, List<Range> ranges,
            long end) {
        try (StoreFiles.Output out = files.create(temp)) {
            long from = 0;
            for (Range r : ranges) {
                copy(in, from, r.offset() - from, out);
                from = r.offset() + r.length();
            }
            copy(in, from, end - from, out);
            out.sync();
        } catch (IOException | RuntimeException e) {
            AtomicFiles.deleteQuietly(files, temp);
            throw new StorageException("Could not rewrite " + files.path(name) + " without its damaged lines (via "
                    + files.path(temp) + ")" + ReadOnlyFileSystem.hint(e), e);
        }
        try {
            files.rename(temp, name);
        } catch (IOException | RuntimeException e) {
            AtomicFiles.deleteQuietly(files, temp);
            throw new StorageException("Could not atomically move " + files.path(temp) + " to " + files.path(name)
                    + ReadOnlyFileSystem.hint(e), e);
        }
        AtomicFiles.syncDirectory(files, AtomicFiles.parentName(name));
    }

    private static void copy(Source source, long from, long count, StoreFiles.Output out) throws IOException {
        if (count <= 0) {
            return;
        }
        byte[] buf = new byte[(int) Math.min(CHUNK, count)];
        long copied = 0;
        try (InputStream in = source.from(from)) {
            while (copied < count) {
                int n = in.read(buf, 0, (int) Math.min(buf.length, count - copied));
                if (n <= 0) {
                    throw new IOException("short read at byte " + (from + copied) + " (the file shrank)");
                }
                out.write(buf, 0, n);
                copied += n;
            }
        }
    }

    /** Reads of an open channel at an offset, leaving its position alone (the channel stays open). */
    private static Source positional(FileChannel channel) {
        return offset -> new InputStream() {
            private long position = offset;

            @Override
            public int read() throws IOException {
                byte[] one = new byte[1];
                return read(one, 0, 1) <= 0 ? -1 : one[0] & 0xff;
            }

            @Override
            public int read(byte[] b, int off, int len) throws IOException {
                int n = channel.read(ByteBuffer.wrap(b, off, len), position);
                if (n > 0) {
                    position += n;
                }
                return n;
            }
        };
    }
}
