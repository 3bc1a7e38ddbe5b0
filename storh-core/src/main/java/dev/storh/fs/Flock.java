package dev.storh.fs;

import com.sun.jna.Library;
import com.sun.jna.Native;
import com.sun.jna.Platform;
import java.io.IOException;
import java.nio.file.Path;

/**
 * {@code flock(2)} on a lock file through JNA, so that storh for Java and the PHP original exclude
 * each other: on Linux, Java's {@code FileChannel.lock} takes POSIX
 * record locks, which do not interact with {@code flock}. One instance holds one open file
 * descriptor; it is not thread-safe on its own ({@link CollectionLock} serialises its use).
 */
final class Flock implements AutoCloseable {

    private static final int LOCK_EX = 2;
    private static final int LOCK_NB = 4;
    private static final int LOCK_UN = 8;
    private static final int EINTR = 4;

    private interface CLibrary extends Library {
        int open(String path, int flags, int mode);

        int close(int fd);

        String strerror(int errnum);

        int access(String path, int mode);
    }

    /**
     * {@code flock(2)} mapped directly ({@code Native.register}): every write takes and releases a
     * lock, and a direct call skips the interface mapping's proxy and argument conversion. The
     * call's {@code errno} is kept for {@link Native#getLastError()} as for the interface's calls.
     */
    private static final class Direct {
        private Direct() {
        }

        static native int flock(int fd, int operation);
    }

    private static final CLibrary C = loadC();

    /** The JNA property that, when set, replaces the library search path JNA builds itself. */
    private static final String JNA_PLATFORM_PATH = "jna.platform.library.path";

    /**
     * Loads the C library. On Linux, JNA builds its own library search path once per JVM by
     * running {@code /sbin/ldconfig -p} (a process start on the first lock of every JVM) unless
     * {@code jna.platform.library.path} is set. The C library needs no search path ({@code dlopen}
     * finds it through the loader's own cache), so the property is set to empty for the moment JNA
     * reads it and removed again; a value set by the application is left as it is.
     */
    private static CLibrary loadC() {
        if (!Platform.isLinux() || System.getProperty(JNA_PLATFORM_PATH) != null) {
            return loadBoth();
        }
        System.setProperty(JNA_PLATFORM_PATH, "");
        try {
            return loadBoth();
        } finally {
            System.clearProperty(JNA_PLATFORM_PATH);
        }
    }

    private static CLibrary loadBoth() {
        CLibrary c = Native.load(Platform.C_LIBRARY_NAME, CLibrary.class);
        Native.register(Direct.class, Platform.C_LIBRARY_NAME);
        return c;
    }

    private static final int O_RDONLY = 0;
    private static final int O_RDWR = 2;
    /** {@code EROFS}, the same number on Linux and macOS. */
    static final int EROFS = 30;
    private static final int EACCES = 13;
    private static final int O_CREAT = Platform.isMac() ? 0x200 : 0100;
    private static final int O_CLOEXEC = Platform.isMac() ? 0x1000000 : 02000000;
    private static final int EWOULDBLOCK = Platform.isMac() ? 35 : 11;

    private final Path path;
    private int fd;

    private Flock(Path path, int fd) {
        this.path = path;
        this.fd = fd;
    }

    /**
     * Opens (creating, never truncating) the lock file. When it cannot be opened for writing because
     * the file system is read-only ({@code EROFS}) or the file is not writable ({@code EACCES}), an
     * existing lock file is opened for reading instead: {@code flock(2)} does not need write access,
     * so readers of a read-only store still exclude writers that reach it through another mount.
     *
     * @param path the lock file
     * @return an open, unlocked handle
     * @throws IOException naming the error and errno when the file cannot be opened
     */
    static Flock open(Path path) throws IOException {
        int fd = C.open(path.toString(), O_RDWR | O_CREAT | O_CLOEXEC, 0666);
        if (fd >= 0) {
            return new Flock(path, fd);
        }
        int errno = Native.getLastError();
        if (errno == EROFS || errno == EACCES) {
            int readFd = C.open(path.toString(), O_RDONLY | O_CLOEXEC, 0);
            if (readFd >= 0) {
                return new Flock(path, readFd);
            }
        }
        throw new IOException("open failed: " + describe(errno) + ": " + path);
    }

    private static final int W_OK = 2;

    /**
     * @param path an existing file or folder
     * @return whether {@code access(2)} refuses write access with {@code EROFS}: the file system (or
     *     the bind mount) holding it is read-only; this holds for root too, unlike permissions
     */
    static boolean onReadOnlyFileSystem(Path path) {
        return C.access(path.toString(), W_OK) != 0 && Native.getLastError() == EROFS;
    }

    private static String describe(int errno) {
        String text;
        try {
            text = C.strerror(errno);
        } catch (RuntimeException | LinkageError e) {
            text = null;
        }
        return (text == null ? "error" : text) + " (errno " + errno + ")";
    }

    /**
     * @return true when the exclusive lock was taken, false when another open file holds it
     * @throws IOException on any other error
     */
    boolean tryLockExclusive() throws IOException {
        while (true) {
            if (Direct.flock(fd, LOCK_EX | LOCK_NB) == 0) {
                return true;
            }
            int errno = Native.getLastError();
            if (errno == EWOULDBLOCK) {
                return false;
            }
            if (errno != EINTR) {
                throw new IOException("flock failed: " + describe(errno) + ": " + path);
            }
        }
    }

    /**
     * Releases the lock; errors are reported as IOException.
     *
     * @throws IOException when flock(LOCK_UN) fails
     */
    void unlock() throws IOException {
        if (Direct.flock(fd, LOCK_UN) != 0) {
            throw new IOException("flock(LOCK_UN) failed: " + describe(Native.getLastError()) + ": " + path);
        }
    }

    @Override
    public void close() {
        if (fd >= 0) {
            C.close(fd);
            fd = -1;
        }
    }
}
