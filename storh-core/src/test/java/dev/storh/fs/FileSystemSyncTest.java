package dev.storh.fs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** syncfs(2) is used only on kernels whose syncfs reports write-back errors, and says when it ran. */
class FileSystemSyncTest {

    @TempDir
    Path root;

    @Test
    void onlyKernelsFromFiveEightReportSyncfsErrors() {
        assertThat(FileSystemSync.reportsErrors("5.8.0")).isTrue();
        assertThat(FileSystemSync.reportsErrors("5.10.0-28-amd64")).isTrue();
        assertThat(FileSystemSync.reportsErrors("6.1.0-13-amd64")).isTrue();
        assertThat(FileSystemSync.reportsErrors("5.7.19")).isFalse();
        assertThat(FileSystemSync.reportsErrors("4.19.0-26-amd64")).isFalse();
        assertThat(FileSystemSync.reportsErrors("")).isFalse();
        assertThat(FileSystemSync.reportsErrors("Darwin")).isFalse();
    }

    @Test
    void localFilesSyncTheFileSystemWhereTheKernelCanAndSayWhenNot() throws IOException {
        Files.writeString(root.resolve("f"), "x");
        StoreFiles files = LocalFiles.at(root);
        boolean linuxWithErrors = com.sun.jna.Platform.isLinux() && FileSystemSync.reportsErrors(System.getProperty("os.version"));
        assertThat(files.syncFileSystem("f")).isEqualTo(linuxWithErrors);
        String before = System.getProperty(FileSystemSync.DISABLE_PROPERTY);
        System.setProperty(FileSystemSync.DISABLE_PROPERTY, "false");
        try {
            assertThat(files.syncFileSystem("f")).as("turned off").isFalse();
        } finally {
            if (before == null) {
                System.clearProperty(FileSystemSync.DISABLE_PROPERTY);
            } else {
                System.setProperty(FileSystemSync.DISABLE_PROPERTY, before);
            }
        }
        Assumptions.assumeTrue(linuxWithErrors, "syncfs is used on Linux 5.8 and later only");
        assertThatThrownBy(() -> files.syncFileSystem("missing")).isInstanceOf(IOException.class)
                .hasMessageContaining("missing");
    }
}
