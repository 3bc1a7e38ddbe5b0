package dev.storh.fs;

import dev.storh.StorageException;
import java.io.IOException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Read-only file systems (a {@code ro} mount, a read-only bind mount, a snapshot): how the log and
 * the queue find out that they must open without writing, and the one message every refused write
 * carries. Stateless and thread-safe.
 */
public final class ReadOnlyFileSystem {

    /** The text every refused write carries, so callers and operators can match it. */
    public static final String READ_ONLY = "the file system is read-only";

    private ReadOnlyFileSystem() {
    }

    /**
     * @param path an existing file or folder
     * @return whether the file system holding it is mounted read-only; false when that cannot be told
     */
    public static boolean isReadOnly(Path path) {
        if (Files.isWritable(path)) {
            // access(2) allowed writing: not read-only, told without a native call
            return false;
        }
        try {
            return Flock.onReadOnlyFileSystem(path);
        } catch (RuntimeException | LinkageError noNativeAccess) {
            try {
                return Files.getFileStore(path).isReadOnly(); // misses read-only bind mounts on Linux
            } catch (IOException | RuntimeException e) {
                return false;
            }
        }
    }

    /**
     * @param e a failure
     * @return {@code " (the file system is read-only)"} when {@link #isReadOnlyError} holds, else {@code ""};
     *     for appending to an error message
     */
    public static String hint(Throwable e) {
        return isReadOnlyError(e) ? " (" + READ_ONLY + ")" : "";
    }

    /**
     * @param what what the caller tried, e.g. {@code "write to log queue"}
     * @param path the store's folder or file
     * @return {@code "Cannot <what> <path>: the file system is read-only (the store was opened read-only)"}
     */
    public static StorageException refused(String what, Path path) {
        return new StorageException("Cannot " + what + " " + path + ": " + READ_ONLY
                + " (the store was opened read-only)");
    }

    /**
     * @param e a failure
     * @return whether it, or one of its causes, is the operating system's "read-only file system"
     *     error ({@code EROFS})
     */
    public static boolean isReadOnlyError(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof FileSystemException fse && fse.getReason() != null
                    && fse.getReason().contains("Read-only file system")) {
                return true;
            }
            if (t.getMessage() != null && (t.getMessage().contains("Read-only file system")
                    || t.getMessage().contains("(errno " + Flock.EROFS + ")"))) {
                return true;
            }
        }
        return false;
    }
}
