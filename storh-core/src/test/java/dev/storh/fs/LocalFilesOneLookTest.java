package dev.storh.fs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The local seam's cheaper looks answer as the plain ones do: {@link LocalFiles#statWithIdentity} (one
 * {@code lstat}) as {@code stat} plus {@code identity} for every kind of name, and {@link LocalFiles#list}
 * (listed through java.io) with the same names and the same exceptions as a directory stream.
 */
class LocalFilesOneLookTest {

    @TempDir
    Path root;

    private LocalFiles everyKindOfName() throws IOException {
        Files.createDirectories(root.resolve("a/sub"));
        Files.writeString(root.resolve("a/file.json"), "{\"v\":1}");
        Files.createSymbolicLink(root.resolve("a/link-to-file"), root.resolve("a/file.json"));
        Files.createSymbolicLink(root.resolve("a/link-to-folder"), root.resolve("a/sub"));
        Files.createSymbolicLink(root.resolve("a/dangling"), root.resolve("nowhere"));
        return LocalFiles.at(root);
    }

    @Test
    void statWithIdentityIsStatAndIdentityInOneLook() throws IOException {
        LocalFiles files = everyKindOfName();
        for (String name : List.of("a", "a/sub", "a/file.json")) {
            StoreFiles.Stated stated = files.statWithIdentity(name).orElseThrow();
            assertThat(stated.entry()).as(name).isEqualTo(files.stat(name).orElseThrow());
            assertThat(stated.key()).as(name).isNotNull().isEqualTo(files.identity(name));
        }
        for (String name : List.of("a/link-to-file", "a/link-to-folder", "a/dangling")) {
            StoreFiles.Stated stated = files.statWithIdentity(name).orElseThrow();
            assertThat(stated.entry().kind()).as(name).isEqualTo(StoreFiles.Entry.Kind.OTHER);
            assertThat(stated.key()).as("a link has no identity of its own here: " + name).isNull();
        }
        assertThat(files.statWithIdentity("a/missing.json")).isEmpty();
        assertThat(files.statWithIdentity("no-folder/x.json")).isEmpty();
        assertThat(files.statWithIdentity("a/sub").orElseThrow().key())
                .isNotEqualTo(files.statWithIdentity("a").orElseThrow().key());
    }

    @Test
    void aFolderReplacedUnderItsNameGetsANewIdentity() throws IOException {
        LocalFiles files = everyKindOfName();
        Object before = files.statWithIdentity("a/sub").orElseThrow().key();
        Files.createDirectories(root.resolve("a/sub2"));
        Files.delete(root.resolve("a/sub"));
        Files.move(root.resolve("a/sub2"), root.resolve("a/sub"));
        assertThat(files.statWithIdentity("a/sub").orElseThrow().key()).isNotEqualTo(before);
    }

    @Test
    void listGivesEveryNameOnceAndAnExceptionThatSaysWhy() throws IOException {
        LocalFiles files = everyKindOfName();
        assertThat(files.list("a")).containsExactlyInAnyOrder("sub", "file.json", "link-to-file", "link-to-folder",
                "dangling");
        assertThat(files.list("a/sub")).isEmpty();
        assertThat(files.list("a/link-to-folder")).isEmpty(); // a link to a folder is listed as the folder
        List<String> names = files.list("a");
        names.add("callers may change the list they get");
        assertThat(names).hasSize(6);
        assertThatThrownBy(() -> files.list("a/missing")).isInstanceOf(NoSuchFileException.class)
                .hasMessageContaining("missing");
        assertThatThrownBy(() -> files.list("a/file.json")).isInstanceOf(NotDirectoryException.class)
                .hasMessageContaining("file.json");
        assertThatThrownBy(() -> files.list("a/dangling")).isInstanceOf(NoSuchFileException.class);
    }
}
