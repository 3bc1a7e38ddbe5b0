package dev.storh.fs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link LocalFiles#list} answers as a directory stream does: every name but {@code .} and
 * {@code ..}, a folder reached through a link listed, and the stream's exceptions when it cannot list.
 */
class LocalFilesListTest {

    @TempDir
    Path dir;

    @Test
    void listsAsADirectoryStreamAndFailsWithItsExceptions() throws Exception {
        Files.createDirectories(dir.resolve("f/sub"));
        Files.writeString(dir.resolve("f/a.jsonc"), "a");
        Files.writeString(dir.resolve("f/.x.tmp"), "t");
        Files.writeString(dir.resolve("f/b c.jsonc"), "u");
        Files.createSymbolicLink(dir.resolve("link"), dir.resolve("f"));
        Files.writeString(dir.resolve("file"), "not a folder");
        LocalFiles files = LocalFiles.at(dir);
        List<String> expected = List.of(".x.tmp", "a.jsonc", "sub", "b c.jsonc");
        assertThat(files.list("f")).containsExactlyInAnyOrderElementsOf(expected);
        assertThat(files.list("link")).containsExactlyInAnyOrderElementsOf(expected);
        assertThat(files.list("f/sub")).isEmpty();
        List<String> mutable = files.list("f");
        mutable.add("callers may add");
        assertThat(mutable).hasSize(5);
        assertThatThrownBy(() -> files.list("missing")).isInstanceOf(NoSuchFileException.class);
        assertThatThrownBy(() -> files.list("file")).isInstanceOf(NotDirectoryException.class);
    }
}
