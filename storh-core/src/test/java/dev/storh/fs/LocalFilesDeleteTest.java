package dev.storh.fs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link LocalFiles#delete} removes a symbolic link itself (never what it points to, file or
 * folder) and, when it cannot delete, says why with the exception naming the name and leaves
 * everything as it was (tests that hold as root: no permission bits).
 */
class LocalFilesDeleteTest {

    @TempDir
    Path dir;

    @Test
    void aLinkIsRemovedAndItsTargetFileOrFolderStays() throws Exception {
        Path target = Files.writeString(dir.resolve("target.jsonc"), "{}");
        Path folder = Files.createDirectories(dir.resolve("folder"));
        Files.writeString(folder.resolve("inside.jsonc"), "{}");
        Files.createSymbolicLink(dir.resolve("to-file"), target);
        Files.createSymbolicLink(dir.resolve("to-folder"), folder);
        LocalFiles files = LocalFiles.at(dir);
        files.delete("to-file");
        files.delete("to-folder");
        assertThat(dir.resolve("to-file")).doesNotExist();
        assertThat(Files.exists(dir.resolve("to-folder"), java.nio.file.LinkOption.NOFOLLOW_LINKS)).isFalse();
        assertThat(target).hasContent("{}");
        assertThat(folder.resolve("inside.jsonc")).hasContent("{}");
    }

    @Test
    void aRefusedDeleteSaysWhyAndLeavesEverything() throws Exception {
        Path folder = Files.createDirectories(dir.resolve("full"));
        Path inside = Files.writeString(folder.resolve("a.jsonc"), "{}");
        Files.writeString(dir.resolve("plain"), "x");
        LocalFiles files = LocalFiles.at(dir);
        assertThatThrownBy(() -> files.delete("full")).isInstanceOf(DirectoryNotEmptyException.class)
                .hasMessageContaining("full");
        assertThat(inside).hasContent("{}");
        assertThatThrownBy(() -> files.delete("missing.jsonc")).isInstanceOf(NoSuchFileException.class)
                .hasMessageContaining("missing.jsonc");
        assertThatThrownBy(() -> files.delete("plain/a.jsonc")).isInstanceOf(FileSystemException.class)
                .hasMessageContaining("plain");
        assertThat(dir.resolve("plain")).hasContent("x");
    }
}
