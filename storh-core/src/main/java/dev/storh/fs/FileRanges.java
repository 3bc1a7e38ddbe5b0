package dev.storh.fs;

import dev.storh.StorageException;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.List;

/**
 * Byte ranges of an append-only file (a log segment, {@code queue.log}) moved out of it without
 * destroying them: a range is copied to a side file of its own, then the file is rewritten without the
 * ranges by temp file and atomic rename. Stateless and thread-safe; callers hold the store's lock.
 */
public final class FileRanges {

    private static final SecureRandom RANDOM = new SecureRandom();

    /**
     * A range of bytes.
     *
     * @param offset where it starts
     * @param length how many bytes
     */
    public record Range(long offset, long length) {
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
        try (FileChannel out = FileChannel.open(target, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            copy(in, range.offset(), range.length(), out);
            out.force(true);
        } catch (IOException | RuntimeException e) {
            if (!(e instanceof java.nio.file.FileAlreadyExistsException)) {
                AtomicFiles.deleteQuietly(target);
            }
            throw new StorageException("Could not keep damaged bytes aside: " + target + ReadOnlyFileSystem.hint(e), e);
        }
        AtomicFiles.syncDirectory(target.getParent());
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
        try (FileChannel out = FileChannel.open(temp, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            long from = 0;
            for (Range r : ranges) {
                copy(in, from, r.offset() - from, out);
                from = r.offset() + r.length();
            }
            copy(in, from, end - from, out);
            out.force(true);
        } catch (IOException | RuntimeException e) {
            AtomicFiles.deleteQuietly(temp);
            throw new StorageException("Could not rewrite " + file + " without its damaged lines (via " + temp + ")"
                    + ReadOnlyFileSystem.hint(e), e);
        }
        try {
            AtomicFiles.moveAtomic(temp, file);
        } catch (StorageException e) {
            AtomicFiles.deleteQuietly(temp);
            throw e;
        }
    }

    private static void copy(FileChannel in, long from, long count, FileChannel out) throws IOException {
        long copied = 0;
        while (copied < count) {
            long n = in.transferTo(from + copied, count - copied, out);
            if (n <= 0) {
                throw new IOException("short read at byte " + (from + copied) + " (the file shrank)");
            }
            copied += n;
        }
    }
}
