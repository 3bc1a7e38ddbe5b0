package dev.storh.fs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link LocalFiles#version}: the plain-stat answer for absent names agrees with the attributes it
 * stands for; {@link LocalFiles#likelyFileVersion} (one lstat) answers as it does for every kind of name.
 */
class LocalFilesVersionTest {

    @TempDir
    Path root;

    @Test
    void absentNameInAFolderHasNoVersionAndAFileThatAppearsHasOne() throws IOException {
        LocalFiles files = LocalFiles.at(root);
        Files.createDirectories(root.resolve("a"));
        assertThat(files.version("a/missing.json")).isEmpty();
        Files.writeString(root.resolve("a/missing.json"), "{}");
        assertThat(files.version("a/missing.json")).hasValueSatisfying(v -> assertThat(v).startsWith("2-"));
        Files.delete(root.resolve("a/missing.json"));
        assertThat(files.version("a/missing.json")).isEmpty();
    }

    @Test
    void danglingLinkAndMissingFolderHaveNoVersion() throws IOException {
        LocalFiles files = LocalFiles.at(root);
        Files.createSymbolicLink(root.resolve("link"), root.resolve("nowhere"));
        assertThat(files.version("link")).isEmpty();
        assertThat(files.stat("link")).hasValueSatisfying(e -> assertThat(e.kind()).isEqualTo(StoreFiles.Entry.Kind.OTHER));
        assertThat(files.version("no-folder/x.json")).isEmpty();
    }

    @Test
    void aFileInPlaceOfTheFolderIsAnErrorNotAnAbsentFile() throws IOException {
        LocalFiles files = LocalFiles.at(root);
        Files.writeString(root.resolve("plain"), "x");
        assertThatThrownBy(() -> files.version("plain/x.json")).isInstanceOf(IOException.class);
    }

    @Test
    void likelyFileVersionAnswersAsVersionForEveryKindOfName() throws IOException {
        LocalFiles files = everyKindOfName();
        String[] names = {"a/file.json", "a/missing.json", "a/sub", "a/link-to-file", "a/dangling", "no-folder/x.json", "a"};
        for (String name : names) {
            assertThat(files.likelyFileVersion(name)).as(name).isEqualTo(files.version(name));
        }
        assertThat(files.likelyFileVersion("a/file.json")).isPresent();
        String before = files.likelyFileVersion("a/file.json").orElseThrow();
        Files.writeString(root.resolve("a/file.json"), "{\"v\":22}");
        assertThat(files.likelyFileVersion("a/file.json")).isEqualTo(files.version("a/file.json")).isNotEqualTo(
                java.util.Optional.of(before));
        Files.writeString(root.resolve("plain"), "x");
        assertThatThrownBy(() -> files.likelyFileVersion("plain/x.json")).isInstanceOf(IOException.class);
        ForwardingFiles forwarded = new ForwardingFiles(files) {
        };
        assertThat(forwarded.likelyFileVersion("a/file.json")).isEqualTo(files.version("a/file.json"));
    }

    @Test
    void versionInSeenFolderAnswersAsVersionForEveryNameInAReadableFolder() throws IOException {
        LocalFiles files = everyKindOfName();
        String[] names = {"a/file.json", "a/missing.json", "a/sub", "a/link-to-file", "a/dangling"};
        for (String name : names) {
            assertThat(files.versionInSeenFolder(name)).as(name).isEqualTo(files.version(name));
        }
        assertThat(files.versionInSeenFolder("a/file.json")).isPresent();
        assertThat(files.versionInSeenFolder("a/link-to-file")).as("a link is not a regular file").isEmpty();
        String before = files.versionInSeenFolder("a/file.json").orElseThrow();
        Files.writeString(root.resolve("a/file.json"), "{\"v\":22}");
        assertThat(files.versionInSeenFolder("a/file.json")).isEqualTo(files.version("a/file.json"))
                .isNotEqualTo(java.util.Optional.of(before));
        Files.delete(root.resolve("a/file.json"));
        assertThat(files.versionInSeenFolder("a/file.json")).isEmpty();
        ForwardingFiles forwarded = new ForwardingFiles(files) {
        };
        Files.writeString(root.resolve("a/file.json"), "{}");
        assertThat(forwarded.versionInSeenFolder("a/file.json")).isEqualTo(files.version("a/file.json")).isPresent();
    }

    /** @return the seam over a folder {@code a} holding a file, a folder, a link to the file and a link to nothing */
    private LocalFiles everyKindOfName() throws IOException {
        Files.createDirectories(root.resolve("a/sub"));
        Files.writeString(root.resolve("a/file.json"), "{\"v\":1}");
        Files.createSymbolicLink(root.resolve("a/link-to-file"), root.resolve("a/file.json"));
        Files.createSymbolicLink(root.resolve("a/dangling"), root.resolve("nowhere"));
        return LocalFiles.at(root);
    }

    @Test
    void aVersionIsSizeTimeAndIdentityAsHexTextForEverySizeAndTime() throws IOException {
        LocalFiles files = LocalFiles.at(root);
        long seed = System.nanoTime();
        java.util.Random random = new java.util.Random(seed);
        long[] millis = {0, 1, -1_000, 15, 16, 1_700_000_000_123L, -62_000_000_000_000L, random.nextInt() & 0xffffffffL};
        int[] sizes = {0, 1, 15, 16, 255, 256, 4096, 65_535, 1 + random.nextInt(200_000)};
        for (int size : sizes) {
            for (long m : millis) {
                Path file = root.resolve("v.json");
                Files.write(file, new byte[size]);
                Files.setLastModifiedTime(file, java.nio.file.attribute.FileTime.fromMillis(m));
                java.nio.file.attribute.BasicFileAttributes a = Files.readAttributes(file,
                        java.nio.file.attribute.BasicFileAttributes.class, java.nio.file.LinkOption.NOFOLLOW_LINKS);
                String expected = Long.toHexString(a.size()) + "-"
                        + Long.toHexString(a.lastModifiedTime().to(java.util.concurrent.TimeUnit.NANOSECONDS)) + "-" + a.fileKey();
                assertThat(files.version("v.json")).as("seed %d, size %d, time %d", seed, size, m).contains(expected);
                assertThat(files.likelyFileVersion("v.json")).contains(expected);
                assertThat(files.modifiedMillis(expected)).isEqualTo(a.lastModifiedTime().toMillis());
                assertThat(files.sizeOf(expected)).isEqualTo(size);
            }
        }
    }
}
