package dev.storh.spring.boot.stores;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Leaves on disk what a writer that crashed leaves: its marker in {@code .storh/writers/} and an
 * orphan temp file in a bucket folder, both named after the pid of a process that has exited.
 */
public final class StaleWriters {

    private StaleWriters() {
    }

    /**
     * @param collectionRoot the store folder
     * @return the marker left behind
     * @throws Exception when the helper process cannot run or a file cannot be written
     */
    public static Path leaveCrashedWriter(Path collectionRoot) throws Exception {
        Process process = new ProcessBuilder("true").start();
        process.waitFor();
        long deadPid = process.pid();
        String prefix = deadPid + ".0badc0de";
        Path writers = collectionRoot.resolve(".storh").resolve("writers");
        Files.createDirectories(writers);
        Path marker = Files.createFile(writers.resolve(prefix));
        Path bucket = Files.createDirectories(collectionRoot.resolve("data").resolve("7f"));
        Files.writeString(bucket.resolve("." + prefix + ".1.tmp"), "{\"id\":\"torn");
        return marker.toAbsolutePath();
    }

    /**
     * @param collectionRoot the store folder
     * @return the orphan temp file {@link #leaveCrashedWriter} wrote, if still there
     * @throws IOException when the bucket cannot be listed
     */
    public static long orphanTempFiles(Path collectionRoot) throws IOException {
        Path bucket = collectionRoot.resolve("data").resolve("7f");
        if (!Files.isDirectory(bucket)) {
            return 0;
        }
        try (var files = Files.list(bucket)) {
            return files.filter((file) -> file.getFileName().toString().endsWith(".tmp")).count();
        }
    }

}
