package dev.storh.fs;

import com.sun.jna.Library;
import com.sun.jna.Native;
import java.io.IOException;
import java.nio.file.Path;

/**
 * {@code syncfs(2)} through JNA: one call makes every write to a file system durable, where a
 * retirement of the batch journal would otherwise fsync each record file and folder. Used only on
 * Linux 5.8 and later, where {@code syncfs} reports a failed write-back (an {@code EIO} since the
 * descriptor was opened) instead of always returning 0. Thread-safe.
 */
final class FileSystemSync {

    /** Set to {@code false} to never use {@code syncfs} (the callers then sync file by file). */
    static final String DISABLE_PROPERTY = "storh.fs.syncfs";

    private static final int O_RDONLY = 0;
    private static final int O_CLOEXEC = 02000000;

    private interface CLibrary extends Library {
        int open(String path, int flags);

        int syncfs(int fd);

        int close(int fd);
    }

    private static final CLibrary C = reportsErrors(System.getProperty("os.version", "")) ? CLibraries.linux(CLibrary.class)
            : null;
    private static volatile boolean unsupported = C == null;

    private FileSystemSync() {
    }

    /**
     * @param osVersion a Linux kernel release ({@code os.version}, e.g. {@code 6.1.0-13-amd64})
     * @return whether its {@code syncfs} reports write-back errors (5.8 and later)
     */
    static boolean reportsErrors(String osVersion) {
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("^(\\d+)\\.(\\d+)").matcher(osVersion);
        if (!m.find()) {
            return false;
        }
        int major = Integer.parseInt(m.group(1));
        return major > 5 || (major == 5 && Integer.parseInt(m.group(2)) >= 8);
    }

    /**
     * @param path an existing file or folder on the file system to sync
     * @return whether it was synced; {@code false} when {@code syncfs} is not available here
     * @throws IOException when the path cannot be opened or the sync reports an error
     */
    static boolean sync(Path path) throws IOException {
        if (unsupported || "false".equals(System.getProperty(DISABLE_PROPERTY))) {
            return false;
        }
        int fd;
        try {
            fd = C.open(path.toString(), O_RDONLY | O_CLOEXEC);
        } catch (LinkageError e) {
            unsupported = true;
            return false;
        }
        if (fd < 0) {
            throw new IOException("open failed (errno " + Native.getLastError() + "): " + path);
        }
        try {
            if (C.syncfs(fd) != 0) {
                throw new IOException("syncfs failed (errno " + Native.getLastError() + "): " + path);
            }
            return true;
        } catch (LinkageError e) {
            unsupported = true; // an old C library without syncfs
            return false;
        } finally {
            C.close(fd);
        }
    }
}
