package dev.storh.log;

import static org.assertj.core.api.Assertions.assertThat;

import dev.storh.StorageRecord;
import dev.storh.id.UuidV7;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/** Ids and small helpers shared by the log tests. */
final class LogTestSupport {

    /** The spec's base timestamp: {@code id[n]} has timestamp {@code BASE_MS + n}. */
    static final long BASE_MS = 1_700_000_000_000L;

    private LogTestSupport() {
    }

    /**
     * @param n a small number
     * @return the spec's {@code id[n]}: timestamp {@code BASE_MS + n}, ids increasing with n
     */
    static String id(int n) {
        String min = UuidV7.minForTimestampMs(BASE_MS + n);
        return min.substring(0, 24) + String.format(Locale.ROOT, "%012x", n + 1);
    }

    /**
     * @param stream a record stream, closed here
     * @return the ids in stream order
     */
    static List<String> ids(Stream<StorageRecord> stream) {
        try (stream) {
            return stream.map(StorageRecord::id).toList();
        }
    }

    /** Work on a log's files done by another writer. */
    @FunctionalInterface
    interface ForeignWrite {
        void run() throws Exception;
    }

    /**
     * Runs {@code write} as another writer of the log would make it: with its own marker in
     * {@code .storh/writers/} (this pid, so no sweep takes it), removed afterwards, as every writer
     * of a log (the original too) registers one while it writes.
     *
     * @param collectionDir the log's folder
     * @param write the writes, e.g. lines appended to the active segment behind the instance's back
     */
    static void asAnotherWriter(Path collectionDir, ForeignWrite write) throws Exception {
        Path marker = collectionDir.resolve(".storh/writers").resolve(ProcessHandle.current().pid() + ".0f0e0d0c");
        java.nio.file.Files.createDirectories(marker.getParent());
        java.nio.file.Files.createFile(marker);
        try {
            write.run();
        } finally {
            java.nio.file.Files.delete(marker);
        }
    }

    static SegmentedLogOptions opts(long maxBytes, int interval) {
        return SegmentedLogOptions.builder().maxSegmentBytes(maxBytes).sparseIndexInterval(interval).build();
    }

    /**
     * Appends {@code count} records {@code {"writer": writer, "i": n}} from another JVM
     * ({@link LogChildProcess}) and waits for it; the test fails with the child's output when it fails.
     */
    static void appendInChildJvm(Path root, String collection, long segmentBytes, int count, String writer)
            throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process p = new ProcessBuilder(java, "-Xshare:auto", "-XX:TieredStopAtLevel=1", "-cp",
                System.getProperty("java.class.path"), LogChildProcess.class.getName(), "append", root.toString(),
                collection, String.valueOf(segmentBytes), String.valueOf(count), writer).redirectErrorStream(true).start();
        assertThat(p.waitFor(2, TimeUnit.MINUTES)).isTrue();
        assertThat(p.exitValue()).as(new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8)).isZero();
    }
}
