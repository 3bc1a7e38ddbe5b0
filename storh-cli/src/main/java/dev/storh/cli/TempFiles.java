package dev.storh.cli;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The JSONL temp files {@code import -i -} and {@code export -o -} buffer standard input and
 * output in, under {@code java.io.tmpdir}.
 */
final class TempFiles {

    private TempFiles() {
    }

    /**
     * @param prefix the file name's prefix
     * @param purpose what the file is for, for the error message (e.g. {@code "for the export"})
     * @return a new empty {@code .jsonl} temp file
     * @throws UncheckedIOException naming the purpose when the file cannot be created
     */
    static Path create(String prefix, String purpose) {
        try {
            return Files.createTempFile(prefix, ".jsonl");
        } catch (IOException e) {
            throw new UncheckedIOException("Could not create a temp file " + purpose, e);
        }
    }

    /**
     * Deletes a temp file, ignoring a failure: the OS cleans its temp folder.
     *
     * @param file the file
     */
    static void deleteQuietly(Path file) {
        try {
            Files.deleteIfExists(file);
        } catch (IOException ignored) {
            // a temp file under java.io.tmpdir; the OS cleans it
        }
    }
}
