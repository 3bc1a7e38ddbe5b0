package dev.storh.fs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link LocalFiles#readAll(String, long)} gives every byte of the file whatever size the caller saw
 * before: the size it has, a smaller one (the file grew since), a larger one (it shrank), none; and
 * {@link LocalFiles#sizeOf} reads the size back out of the seam's own versions.
 */
class LocalFilesSizedReadTest {

    @TempDir
    Path root;

    @Test
    void everySizeSeenReadsTheWholeFile() throws IOException {
        LocalFiles files = LocalFiles.at(root);
        long seed = System.nanoTime();
        Random random = new Random(seed);
        for (int length : new int[] {0, 1, 79, 4095, 4096, 4097, 8192, 65_537, 300_000}) {
            byte[] content = new byte[length];
            random.nextBytes(content);
            Files.write(root.resolve("f"), content);
            for (long seen : new long[] {-1, 0, length / 2, length - 1L, length, length + 1L, 2L * length + 7}) {
                assertThat(files.readAll("f", seen)).as("seed %d, length %d, size seen %d", seed, length, seen)
                        .isEqualTo(content);
            }
        }
    }

    @Test
    void theSizeInAVersionIsTheFileSize() throws IOException {
        LocalFiles files = LocalFiles.at(root);
        for (String content : new String[] {"", "{}", "x".repeat(70_000)}) {
            Files.writeString(root.resolve("v.json"), content);
            String version = files.version("v.json").orElseThrow();
            assertThat(files.sizeOf(version)).isEqualTo(content.getBytes(StandardCharsets.UTF_8).length);
            assertThat(files.readAll("v.json", files.sizeOf(version))).isEqualTo(content.getBytes(StandardCharsets.UTF_8));
        }
        assertThat(files.sizeOf("not a version")).isEqualTo(-1);
        assertThat(files.sizeOf("-1-2")).isEqualTo(-1);
    }

    @Test
    void missingFilesAndLinksAreRefusedAsThePlainReadRefusesThem() throws IOException {
        LocalFiles files = LocalFiles.at(root);
        assertThatThrownBy(() -> files.readAll("missing", 10)).isInstanceOf(NoSuchFileException.class);
        Files.writeString(root.resolve("target"), "secret");
        Files.createSymbolicLink(root.resolve("link"), root.resolve("target"));
        assertThatThrownBy(() -> files.readAll("link", 6)).isInstanceOf(IOException.class);
        assertThatThrownBy(() -> files.readAll("link")).isInstanceOf(IOException.class);
    }
}
