package dev.storh.fs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.storh.StorageException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AtomicFilesTest {

    @TempDir
    Path dir;

    private List<String> names(Path folder) throws IOException {
        try (Stream<Path> s = Files.list(folder)) {
            return s.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }

    @Test
    void writeAtomicCreatesFoldersAndReplacesContent() throws IOException {
        Path target = dir.resolve("a/b/manifest.jsonc");
        AtomicFiles.writeAtomic(target, "{\"ok\":true}\n".getBytes(StandardCharsets.UTF_8));
        AtomicFiles.writeAtomic(target, "{\"ok\":false}\n".getBytes(StandardCharsets.UTF_8));
        assertThat(Files.readString(target)).isEqualTo("{\"ok\":false}\n");
        assertThat(names(target.getParent())).containsExactly("manifest.jsonc");
    }

    @Test
    void replacingADirectoryFailsAndRemovesTheTempFile() throws IOException {
        Path target = Files.createDirectories(dir.resolve("target"));
        Files.writeString(target.resolve("inside"), "x");
        assertThatThrownBy(() -> AtomicFiles.writeAtomic(target, new byte[] {1, 2}))
                .isInstanceOf(StorageException.class).hasMessageContaining("atomically replace")
                .hasMessageContaining(target.toString());
        assertThat(names(dir)).containsExactly("target");
    }

    @Test
    void aFileWhereAFolderIsNeededFailsClearly() throws IOException {
        Path file = Files.writeString(dir.resolve("plain"), "x");
        assertThatThrownBy(() -> AtomicFiles.writeAtomic(file.resolve("child/x.jsonc"), new byte[] {1}))
                .isInstanceOf(StorageException.class).hasMessageContaining("Could not create storage directory");
        assertThat(Files.readString(file)).isEqualTo("x");
    }

    @Test
    void aTempPathThatCannotBeOpenedNamesIt() {
        Path missingParent = dir.resolve("missing/.x.tmp");
        assertThatThrownBy(() -> AtomicFiles.writeVia(missingParent, dir.resolve("missing/x"), new byte[] {1}))
                .isInstanceOf(StorageException.class).hasMessageContaining("temporary storage file")
                .hasMessageContaining(".x.tmp");
    }

    @Test
    void appendAddsAndSyncs() throws IOException {
        Path log = dir.resolve("logs/x.log");
        AtomicFiles.append(log, "first\n".getBytes(StandardCharsets.UTF_8));
        AtomicFiles.append(log, "second\n".getBytes(StandardCharsets.UTF_8));
        AtomicFiles.append(log, new byte[0]);
        assertThat(Files.readString(log)).isEqualTo("first\nsecond\n");
        assertThatThrownBy(() -> AtomicFiles.append(dir, new byte[] {1})).hasMessageContaining("appending");
    }

    @Test
    void deleteTreeRemovesNestedFoldersAndToleratesMissingOnes() throws IOException {
        Path tree = Files.createDirectories(dir.resolve("tree/a/b"));
        Files.writeString(tree.resolve("f.jsonc"), "x");
        Files.writeString(dir.resolve("tree/top.txt"), "y");
        Files.writeString(dir.resolve("keep.txt"), "z");
        assertThat(AtomicFiles.deleteTree(dir.resolve("tree"))).isTrue();
        assertThat(names(dir)).containsExactly("keep.txt");
        assertThat(AtomicFiles.deleteTree(dir.resolve("tree"))).isFalse();
    }

    @Test
    void syncingAMissingFolderIsHarmless() {
        AtomicFiles.syncDirectory(dir.resolve("nope"));
        assertThat(WriterMarkers.sweepTempFiles(dir.resolve("nope"))).isZero();
    }

    @Test
    void livenessFollowsRealProcesses() throws Exception {
        assertThat(WriterMarkers.isAlive(ProcessHandle.current().pid(), null)).isTrue();
        assertThat(WriterMarkers.isAlive(0, null)).isFalse();
        assertThat(WriterMarkers.isAlive(Long.MAX_VALUE, null)).isFalse();
        Process sleeper = new ProcessBuilder("sleep", "30").start();
        try {
            assertThat(WriterMarkers.isAlive(sleeper.pid(), java.nio.file.attribute.FileTime.fromMillis(
                    System.currentTimeMillis() + 5_000))).isTrue();
            // A marker written long before the process started belongs to an earlier owner of the pid.
            assertThat(WriterMarkers.isAlive(sleeper.pid(), java.nio.file.attribute.FileTime.fromMillis(
                    System.currentTimeMillis() - 3_600_000))).isFalse();
        } finally {
            sleeper.destroy();
            sleeper.waitFor();
        }
        assertThat(WriterMarkers.isAlive(sleeper.pid(), null)).isFalse();
    }

    @org.junit.jupiter.params.ParameterizedTest(name = "renameExchange={0}")
    @org.junit.jupiter.params.provider.ValueSource(booleans = {true, false})
    void replaceTreePutsTheNewFolderInPlaceAndRemovesTheOldOne(boolean exchange) throws IOException {
        String before = System.getProperty(DirectoryExchange.DISABLE_PROPERTY);
        System.setProperty(DirectoryExchange.DISABLE_PROPERTY, Boolean.toString(exchange));
        try {
            Path live = Files.createDirectories(dir.resolve("entries/eq"));
            Files.writeString(live.resolve("old.jsonc"), "old");
            Path built = Files.createDirectories(dir.resolve("entries.tmp-1/eq"));
            Files.writeString(built.resolve("new.jsonc"), "new");
            int[] gaps = {0};
            FolderTrees.replaceTree(dir.resolve("entries.tmp-1"), dir.resolve("entries"), dir.resolve("entries.old-1"),
                    steps -> {
                        gaps[0]++;
                        steps.run();
                    });
            assertThat(dir.resolve("entries/eq/new.jsonc")).hasContent("new");
            assertThat(dir.resolve("entries/eq/old.jsonc")).doesNotExist();
            assertThat(dir.resolve("entries.tmp-1")).doesNotExist();
            assertThat(dir.resolve("entries.old-1")).doesNotExist();
            if (!exchange) {
                assertThat(gaps[0]).as("the two-rename fallback runs inside the gap guard").isEqualTo(1);
            }
            // Nothing in place yet: the built folder is just renamed.
            Files.createDirectories(dir.resolve("fresh.tmp"));
            FolderTrees.replaceTree(dir.resolve("fresh.tmp"), dir.resolve("fresh"), dir.resolve("fresh.old"), Runnable::run);
            assertThat(dir.resolve("fresh")).isDirectory();
            assertThat(dir.resolve("fresh.tmp")).doesNotExist();
        } finally {
            if (before == null) {
                System.clearProperty(DirectoryExchange.DISABLE_PROPERTY);
            } else {
                System.setProperty(DirectoryExchange.DISABLE_PROPERTY, before);
            }
        }
    }
}
