package dev.storh.fs;

import com.sun.jna.Library;
import com.sun.jna.Native;
import java.nio.file.Path;

/**
 * Atomic exchange of two paths with Linux {@code renameat2(2)} and {@code RENAME_EXCHANGE}: both
 * names switch their files or folders in one step, so no process ever finds either name missing.
 * Elsewhere, or where the kernel or file system refuses the flag, {@link #exchange} says so and
 * the caller falls back to two renames; the system property {@value #DISABLE_PROPERTY}{@code =false}
 * forces that fallback (read on each call). Stateless and thread-safe.
 */
final class DirectoryExchange {

    /** Set to {@code false} to never use {@code renameat2}. */
    static final String DISABLE_PROPERTY = "storh.fs.renameExchange";

    private static final int AT_FDCWD = -100;
    private static final int RENAME_EXCHANGE = 2;

    private interface CLibrary extends Library {
        int renameat2(int olddirfd, String oldpath, int newdirfd, String newpath, int flags);
    }

    private static final CLibrary C = CLibraries.linux(CLibrary.class);
    private static volatile boolean unsupported = C == null;

    private DirectoryExchange() {
    }

    /**
     * @param a an existing path
     * @param b another existing path on the same file system
     * @return true when the two were exchanged atomically; false when atomic exchange is not
     *     available here (nothing changed), or failed for any other reason (then nothing changed
     *     either: the call is all or nothing)
     */
    static boolean exchange(Path a, Path b) {
        if (unsupported || "false".equals(System.getProperty(DISABLE_PROPERTY))) {
            return false;
        }
        try {
            if (C.renameat2(AT_FDCWD, a.toString(), AT_FDCWD, b.toString(), RENAME_EXCHANGE) == 0) {
                return true;
            }
        } catch (LinkageError e) {
            unsupported = true; // an old C library without renameat2
            return false;
        }
        int errno = Native.getLastError();
        if (errno == 38 || errno == 22) { // ENOSYS, EINVAL: the kernel or file system lacks the flag
            unsupported = true;
        }
        return false;
    }
}
