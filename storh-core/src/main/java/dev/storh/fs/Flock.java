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

        int flock(int fd, int operation);

        int close(int fd);
    }

    private static final CLibrary C = Native.load(Platform.C_LIBRARY_NAME, CLibrary.class);

    private static final int O_RDWR = 2;
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
     * Opens (creating, never truncating) the lock file.
     *
     * @param path the lock file
     * @return an open, unlocked handle
     * @throws IOException with errno when the file cannot be opened
     */
    static Flock open(Path path) throws IOException {
        int fd = C.open(path.toString(), O_RDWR | O_CREAT | O_CLOEXEC, 0666);
        if (fd < 0) {
            throw new IOException("open failed, errno " + Native.getLastError() + ": " + path);
        }
        return new Flock(path, fd);
    }

    /**
     * @return true when the exclusive lock was taken, false when another open file holds it
     * @throws IOException on any other error
     */
    boolean tryLockExclusive() throws IOException {
        while (true) {
            if (C.flock(fd, LOCK_EX | LOCK_NB) == 0) {
                return true;
            }
            int errno = Native.getLastError();
            if (errno == EWOULDBLOCK) {
                return false;
            }
            if (errno != EINTR) {
                throw new IOException("flock failed, errno " + errno + ": " + path);
            }
        }
    }

    /**
     * Releases the lock; errors are reported as IOException.
     *
     * @throws IOException when flock(LOCK_UN) fails
     */
    void unlock() throws IOException {
        if (C.flock(fd, LOCK_UN) != 0) {
            throw new IOException("flock(LOCK_UN) failed, errno " + Native.getLastError() + ": " + path);
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
