package dev.storh.fs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link LocalFiles#delete} removes a symbolic link itself (never what it points to, file or
 * folder) and says why when it cannot delete.
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
    void aFileInAFolderThatCannotBeWrittenIsRefusedWithAccessDenied() throws Exception {
        Path locked = Files.createDirectories(dir.resolve("locked"));
        Path file = Files.writeString(locked.resolve("a.jsonc"), "{}");
        Files.setPosixFilePermissions(locked, PosixFilePermissions.fromString("r-xr-xr-x"));
        try {
            Assumptions.assumeFalse(Files.isWritable(locked), "running as root: permissions do not hold");
            assertThatThrownBy(() -> LocalFiles.at(dir).delete("locked/a.jsonc")).isInstanceOf(AccessDeniedException.class);
            assertThat(file).hasContent("{}");
        } finally {
            Files.setPosixFilePermissions(locked, PosixFilePermissions.fromString("rwxr-xr-x"));
        }
    }
}
