package dev.storh.fs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code flock(2)} through the direct mapping: two open files of one lock file exclude each other
 * (the second try answers {@code false} from {@code EWOULDBLOCK}, not an error), the lock passes on
 * once released, and a failed call names its {@code errno}. Real files in a temp folder.
 */
class FlockTest {

    @TempDir
    Path root;

    @Test
    void twoOpenFilesOfOneLockFileExcludeEachOtherUntilOneReleases() throws IOException {
        Path lock = root.resolve("lock");
        try (Flock first = Flock.open(lock); Flock second = Flock.open(lock)) {
            assertThat(first.tryLockExclusive()).isTrue();
            for (int i = 0; i < 3; i++) {
                assertThat(second.tryLockExclusive()).as("held by the other open file").isFalse();
            }
            first.unlock();
            assertThat(second.tryLockExclusive()).as("released").isTrue();
            assertThat(first.tryLockExclusive()).isFalse();
            second.unlock();
            assertThat(first.tryLockExclusive()).isTrue();
            first.unlock();
        }
    }

    @Test
    void aFailedCallNamesItsErrno() throws IOException {
        Flock closed = Flock.open(root.resolve("lock"));
        closed.close();
        // fd -1 after close: flock fails with EBADF (9 on Linux and macOS)
        assertThatThrownBy(closed::unlock).isInstanceOf(IOException.class).hasMessageContaining("errno 9");
        assertThatThrownBy(closed::tryLockExclusive).isInstanceOf(IOException.class).hasMessageContaining("errno 9");
    }
}
