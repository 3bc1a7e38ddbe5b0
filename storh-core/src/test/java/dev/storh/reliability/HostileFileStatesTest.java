package dev.storh.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import dev.storh.doc.DocStore;
import dev.storh.log.SegmentedLog;
import dev.storh.queue.Queue;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Files the engines may not change: immutable ({@code chattr +i}, as root) or read-only (as
 * another user) record files, buckets, queue logs and segments; and a full disk (a small tmpfs,
 * mounted as root). Each write is refused with a clear StorageException, what was stored stays
 * byte for byte, no temp file is left, and once the file may change again the next write works.
 * Skipped, saying why, where neither can be arranged.
 */
class HostileFileStatesTest {

    @TempDir
    Path temp;

    private final List<Path> frozen = new ArrayList<>();
    private Path mounted;

    @AfterEach
    void release() throws Exception {
        for (Path p : frozen) {
            thaw(p);
        }
        if (mounted != null) {
            run("umount", "-l", mounted.toString());
        }
    }

    private static boolean isRoot() {
        return "root".equals(System.getProperty("user.name"));
    }

    private static int run(String... command) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        p.getInputStream().readAllBytes();
        return p.waitFor(60, TimeUnit.SECONDS) ? p.exitValue() : -1;
    }

    /** Makes a file or folder unchangeable; skips the test (printing why) when that cannot be enforced here. */
    private void freeze(Path p) throws Exception {
        boolean done = isRoot() ? run("chattr", "+i", p.toString()) == 0
                : p.toFile().setWritable(false, false);
        frozen.add(p);
        boolean enforced;
        try {
            if (Files.isDirectory(p)) {
                Files.delete(Files.createFile(p.resolve(".probe")));
            } else {
                try (OutputStream out = Files.newOutputStream(p, StandardOpenOption.APPEND)) {
                    out.flush();
                }
            }
            enforced = false;
        } catch (IOException expected) {
            enforced = true;
        }
        if (!done || !enforced) {
            String why = isRoot() ? "chattr +i does not work on this file system" : "read-only files are not enforced";
            System.out.println("HostileFileStatesTest skipped: " + why);
            Assumptions.abort(why);
        }
    }

    private void thaw(Path p) throws Exception {
        if (isRoot()) {
            run("chattr", "-i", p.toString());
        }
        p.toFile().setWritable(true, false);
    }

    private static List<String> temps(Path dir) throws IOException {
        try (Stream<Path> walk = Files.walk(dir)) {
            return walk.map(Path::toString).filter(s -> s.endsWith(".tmp") || s.contains(".tmp-")).toList();
        }
    }

    @Test
    void anImmutableRecordFileBucketQueueLogAndSegmentRefuseWritesAndKeepTheirBytes() throws Exception {
        Path root = temp.resolve("root");
        List<String> problems = new ArrayList<>();
        try (DocStore docs = DocStore.open(root, "docs"); SegmentedLog log = SegmentedLog.open(root, "events");
                Queue queue = Queue.open(root, "jobs")) {
            String id = docs.put(Map.of("v", 1L)).id();
            log.put(Map.of("v", 1L));
            queue.enqueue(Map.of("v", 1L));
            Path record = docs.pathForId(id);
            Path queueLog = root.resolve("jobs/queue.log");
            Path segment;
            try (Stream<Path> segs = Files.list(root.resolve("events/segments"))) {
                segment = segs.filter(p -> p.toString().endsWith(".ndjson")).findFirst().orElseThrow();
            }
            freeze(record);
            freeze(queueLog);
            freeze(segment);
            Map<String, String> before = HostilePathsTest.contents(root);
            problems.add(HostilePathsTest.refused("overwrite of an immutable record", () -> docs.put(Map.of("v", 2L), id)));
            problems.add(HostilePathsTest.refused("delete of an immutable record", () -> docs.delete(id)));
            problems.add(HostilePathsTest.refused("enqueue to an immutable queue.log", () -> queue.enqueue(Map.of("v", 2L))));
            problems.add(HostilePathsTest.refused("put to an immutable segment", () -> log.put(Map.of("v", 2L))));
            freeze(record.getParent());
            problems.add(HostilePathsTest.refused("new record in an immutable bucket",
                    () -> docs.put(Map.of("v", 3L), sameBucket(id))));
            problems.removeIf(Objects::isNull);
            assertThat(problems).isEmpty();
            assertThat(HostilePathsTest.contents(root)).as("every byte as before").isEqualTo(before);
            assertThat(temps(root)).isEmpty();
            assertThat(docs.get(id).orElseThrow().data()).isEqualTo(Map.of("v", 1L));
            assertThat(log.count()).isEqualTo(1);
            assertThat(queue.counts().pending()).as("counts while queue.log is immutable").isEqualTo(1);
            for (Path p : frozen) {
                thaw(p);
            }
            assertThat(queue.counts().pending()).isEqualTo(1);
            docs.put(Map.of("v", 2L), id);
            log.put(Map.of("v", 2L));
            queue.enqueue(Map.of("v", 2L));
            assertThat(docs.get(id).orElseThrow().data()).isEqualTo(Map.of("v", 2L));
            assertThat(log.count()).isEqualTo(2);
            assertThat(queue.counts().pending()).isEqualTo(2);
            assertThat(docs.verify().ok()).isTrue();
            assertThat(log.verify().ok()).isTrue();
            assertThat(queue.verify().ok()).isTrue();
        }
    }

    private static Map<String, String> filesOnly(Path root) throws IOException {
        Map<String, String> files = HostilePathsTest.contents(root);
        files.values().removeIf("<dir>"::equals);
        return files;
    }

    /** @return a fresh UUIDv7 whose record falls in the same bucket as {@code id} */
    private static String sameBucket(String id) {
        while (true) {
            String other = dev.storh.id.UuidV7.generate();
            if (other.substring(24, 26).equals(id.substring(24, 26))) {
                return other;
            }
        }
    }

    @Test
    void aFullDiskRefusesEachWriteCleanlyAndTheNextWriteAfterSpaceIsFreedWorks() throws Exception {
        Path disk = Files.createDirectories(temp.resolve("small-disk"));
        String why = !isRoot() ? "not root: cannot mount a small tmpfs"
                : run("mount", "-t", "tmpfs", "-o", "size=4m", "tmpfs", disk.toString()) != 0
                        ? "mount -t tmpfs failed (no CAP_SYS_ADMIN here)" : null;
        if (why != null) {
            System.out.println("HostileFileStatesTest disk full skipped: " + why);
            Assumptions.abort(why);
        }
        mounted = disk;
        Path root = disk.resolve("root");
        String big = "x".repeat(64 * 1024);
        List<String> problems = new ArrayList<>();
        try (DocStore docs = DocStore.open(root, "docs"); SegmentedLog log = SegmentedLog.open(root, "events");
                Queue queue = Queue.open(root, "jobs")) {
            String id = docs.put(Map.of("v", 1L)).id();
            log.put(Map.of("v", 1L));
            queue.enqueue(Map.of("v", 1L));
            Path filler = disk.resolve("filler");
            try (OutputStream out = Files.newOutputStream(filler)) {
                byte[] block = new byte[4096];
                while (true) {
                    out.write(block);
                }
            } catch (IOException full) {
                // the disk is full now
            }
            Map<String, String> before = filesOnly(root);
            Map<String, String> docsBefore = HostilePathsTest.contents(root.resolve("docs"));
            problems.add(HostilePathsTest.refused("DocStore.put on a full disk", () -> docs.put(Map.of("v", big))));
            problems.add(HostilePathsTest.refused("DocStore.put overwrite on a full disk", () -> docs.put(Map.of("v", big), id)));
            problems.add(HostilePathsTest.refused("DocStore.putMany on a full disk",
                    () -> docs.putMany(List.of(Map.of("v", big), Map.of("v", big)))));
            problems.add(HostilePathsTest.refused("SegmentedLog.put on a full disk", () -> log.put(Map.of("v", big))));
            problems.add(HostilePathsTest.refused("SegmentedLog.appendMany on a full disk",
                    () -> log.appendMany(List.of(Map.of("v", big), Map.of("v", big)))));
            problems.add(HostilePathsTest.refused("Queue.enqueue on a full disk", () -> queue.enqueue(Map.of("v", big))));
            problems.removeIf(Objects::isNull);
            assertThat(problems).isEmpty();
            assertThat(filesOnly(root)).as("every byte as before (empty bucket folders aside)").isEqualTo(before);
            assertThat(HostilePathsTest.contents(root.resolve("docs"))).as("no bucket folder left by a failed DocStore write")
                    .isEqualTo(docsBefore);
            assertThat(temps(root)).isEmpty();
            Files.delete(filler);
            docs.put(Map.of("v", big), id);
            log.put(Map.of("v", big));
            queue.enqueue(Map.of("v", big));
            assertThat(docs.get(id).orElseThrow().data()).isEqualTo(Map.of("v", big));
            assertThat(docs.count()).isEqualTo(1);
            assertThat(log.count()).isEqualTo(2);
            assertThat(queue.counts().pending()).isEqualTo(2);
            assertThat(docs.verify().ok()).isTrue();
            assertThat(log.verify().ok()).isTrue();
            assertThat(queue.verify().ok()).isTrue();
        }
    }
}
