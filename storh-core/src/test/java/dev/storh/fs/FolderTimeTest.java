package dev.storh.fs;

import static org.assertj.core.api.Assertions.assertThat;

import dev.storh.observe.Observed;
import dev.storh.observe.StoreObserver;
import dev.storh.observe.StoreOperation;
import dev.storh.store.StoreKind;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A folder's modification time read through the seam ({@link StoreFiles#folderTime}): local files read it
 * with their own cheap look, and a seam wrapped around them (forwarding, observed) reads the same time
 * the same way, without falling back to a {@code stat} of its own.
 */
class FolderTimeTest {

    private static final long SET_MILLIS = 1_600_000_000_123L;

    @TempDir
    Path root;

    /** Counts the {@code stat}s asked of it, the look the default folder time makes. */
    private static final class StatCounting extends ForwardingFiles {
        final AtomicInteger stats = new AtomicInteger();

        StatCounting(StoreFiles files) {
            super(files);
        }

        @Override
        public Optional<Entry> stat(String name) throws IOException {
            stats.incrementAndGet();
            return files.stat(name);
        }
    }

    private static final StoreObserver QUIET = new StoreObserver() {
        @Override
        public void operation(StoreKind kind, String store, StoreOperation operation, boolean success, long nanos) {
        }

        @Override
        public void fsync(String store, boolean directory, long nanos) {
        }
    };

    @Test
    void wrappedLocalFilesReadTheFolderTimeAsLocalFilesDo() throws IOException {
        Path folder = Files.createDirectories(root.resolve("a/writers"));
        Files.setLastModifiedTime(folder, FileTime.fromMillis(SET_MILLIS));
        LocalFiles local = LocalFiles.at(root);
        StatCounting forwarding = new StatCounting(local);
        StoreFiles observed = Observed.files(new StatCounting(local), QUIET);
        assertThat(observed).isNotSameAs(local).isInstanceOf(ForwardingFiles.class);
        List<StoreFiles.FolderTime> times = List.of(local.folderTime("a/writers"), forwarding.folderTime("a/writers"),
                observed.folderTime("a/writers"));
        for (StoreFiles.FolderTime time : times) {
            assertThat(time.millis()).isEqualTo(SET_MILLIS);
        }
        assertThat(local.stat("a/writers").orElseThrow().lastModifiedMillis()).as("what a stat reads").isEqualTo(SET_MILLIS);

        Files.write(folder.resolve("123.0a0b0c0d"), new byte[0]); // a writer registers: the folder changes
        long changed = Files.getLastModifiedTime(folder).toMillis();
        assertThat(changed).isNotEqualTo(SET_MILLIS);
        for (StoreFiles.FolderTime time : times) {
            assertThat(time.millis()).as("read again, after the change").isEqualTo(changed);
        }
        Files.setLastModifiedTime(folder, FileTime.fromMillis(SET_MILLIS + 5_000));
        for (StoreFiles.FolderTime time : times) {
            assertThat(time.millis()).isEqualTo(SET_MILLIS + 5_000);
        }
        assertThat(forwarding.stats.get()).as("no stat of the wrapper's own: the local look").isZero();
        assertThat(((ForwardingFiles) observed).files).isInstanceOf(StatCounting.class);
        assertThat(((StatCounting) ((ForwardingFiles) observed).files).stats.get()).isZero();
    }

    @Test
    void aMissingFolderReadsAsMinusOneThroughEverySeam() throws IOException {
        LocalFiles local = LocalFiles.at(root);
        for (StoreFiles files : List.of(local, new StatCounting(local), Observed.files(local, QUIET))) {
            StoreFiles.FolderTime time = files.folderTime("missing");
            assertThat(time.millis()).isEqualTo(-1);
            Files.createDirectories(root.resolve("missing"));
            Files.setLastModifiedTime(root.resolve("missing"), FileTime.fromMillis(SET_MILLIS));
            assertThat(time.millis()).as("made after the reader").isEqualTo(SET_MILLIS);
            Files.delete(root.resolve("missing"));
        }
    }

    @Test
    void writersFolderReadsItsTimeThroughTheSeam() throws IOException {
        Path folder = Files.createDirectories(root.resolve(".storh/writers"));
        Files.setLastModifiedTime(folder, FileTime.fromMillis(SET_MILLIS));
        StatCounting counting = new StatCounting(LocalFiles.at(root));
        WritersFolder writers = new WritersFolder(Observed.files(counting, QUIET), ".storh/writers", n -> true);
        assertThat(writers.modifiedMillis()).isEqualTo(SET_MILLIS);
        assertThat(writers.unchanged(SET_MILLIS)).isTrue();
        Files.setLastModifiedTime(folder, FileTime.fromMillis(SET_MILLIS + 1));
        assertThat(writers.unchanged(SET_MILLIS)).isFalse();
        assertThat(writers.modifiedMillis()).isEqualTo(SET_MILLIS + 1);
        assertThat(counting.stats.get()).isZero();
    }
}
