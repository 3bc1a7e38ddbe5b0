package dev.storh.doc;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

/** Copies of a live collection as a power cut would leave them: for tests that reopen after a crash. */
final class CrashCopies {

    private CrashCopies() {
    }

    /**
     * Copies a collection's files (without its lock file), then replaces every writer marker with one
     * stale marker, as if the writing process had died.
     *
     * @param store the open store whose collection is copied
     * @param to the new collection folder
     * @param deadWriter the stale marker's name
     * @return {@code to}
     * @throws IOException when copying fails
     */
    static Path withWriterGone(DocStore store, Path to, String deadWriter) throws IOException {
        Path from = store.collectionRoot();
        try (Stream<Path> all = Files.walk(from)) {
            for (Path p : all.toList()) {
                Path target = to.resolve(from.relativize(p).toString());
                if (Files.isDirectory(p)) {
                    Files.createDirectories(target);
                } else if (!p.getFileName().toString().equals("write.lock")) {
                    Files.copy(p, target);
                }
            }
        }
        Path writers = DocLayout.of(to).writersDir();
        try (Stream<Path> markers = Files.list(writers)) {
            for (Path m : markers.toList()) {
                Files.delete(m);
            }
        }
        Files.createFile(writers.resolve(deadWriter));
        return to;
    }
}
