package dev.storh;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.storh.doc.DocStore;
import dev.storh.id.UuidV7;
import dev.storh.log.SegmentedLog;
import dev.storh.queue.Queue;
import dev.storh.queue.QueueCounts;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * All three engines open and read a store on a read-only file system, and every write fails with a
 * {@link StorageException} that says the file system is read-only and names the path. The store is a
 * real read-only bind mount ({@code mount --bind}, then {@code mount -o remount,ro,bind}): file
 * permissions would not stop root, who runs the tests in CI. Skipped, with the reason printed, where
 * mounting is not permitted.
 */
class ReadOnlyMountTest {

    private static final String READ_ONLY = "the file system is read-only";

    @TempDir
    Path temp;

    private Path source;
    private Path mounted;
    private boolean mountedOk;

    @BeforeEach
    void writeStoresAndMountThemReadOnly() throws Exception {
        source = temp.resolve("source");
        mounted = temp.resolve("ro");
        Files.createDirectories(source);
        Files.createDirectories(mounted);
        try (DocStore docs = DocStore.open(source, "pages")) {
            docs.put(Map.of("title", "one"), id(1));
        }
        try (SegmentedLog log = SegmentedLog.open(source, "events")) {
            log.put(Map.of("n", 1L), id(1));
            log.put(Map.of("n", 2L), id(2));
        }
        try (Queue q = Queue.open(source, "jobs")) {
            q.enqueue(Map.of("task", "a"), id(1));
            q.enqueue(Map.of("task", "b"), id(2));
            q.claim();
        }
        String bind = run("mount", "--bind", source.toString(), mounted.toString());
        Assumptions.assumeTrue(bind == null, () -> skip("mount --bind", bind));
        mountedOk = true;
        String ro = run("mount", "-o", "remount,ro,bind", mounted.toString());
        Assumptions.assumeTrue(ro == null, () -> skip("mount -o remount,ro,bind", ro));
        Assumptions.assumeTrue(!Files.isWritable(mounted.resolve("pages")) || !canCreate(mounted),
                () -> skip("the read-only check", "files are still writable"));
    }

    @AfterEach
    void unmount() throws Exception {
        if (mountedOk) {
            run("umount", mounted.toString());
        }
    }

    @Test
    void aDocStoreReadsAndRefusesWrites() {
        try (DocStore docs = DocStore.open(mounted, "pages")) {
            assertThat(docs.get(id(1)).orElseThrow().data()).isEqualTo(Map.of("title", "one"));
            assertReadOnly(() -> docs.put(Map.of("title", "two"), id(2)), mounted.resolve("pages"));
            assertReadOnly(() -> docs.delete(id(1)), mounted.resolve("pages"));
            assertThat(docs.get(id(1))).isPresent();
        }
    }

    @Test
    void aSegmentedLogOpensReadsVerifiesAndRefusesWrites() {
        try (SegmentedLog log = SegmentedLog.open(mounted, "events")) {
            assertThat(log.get(id(2)).orElseThrow().data()).isEqualTo(Map.of("n", 2L));
            assertThat(log.count()).isEqualTo(2);
            try (var all = log.stream()) {
                assertThat(all.map(StorageRecord::id)).containsExactly(id(1), id(2));
            }
            assertThat(log.verify().errors()).isEmpty();
            Path dir = mounted.resolve("events");
            assertReadOnly(() -> log.put(Map.of("n", 3L), id(3)), dir);
            assertReadOnly(() -> log.delete(id(1)), dir);
            assertReadOnly(log::compact, dir);
            assertReadOnly(log::repair, dir);
            assertThat(log.count()).isEqualTo(2);
        }
    }

    @Test
    void aQueueOpensCountsVerifiesAndRefusesWrites() {
        try (Queue q = Queue.open(mounted, "jobs")) {
            assertThat(q.counts()).isEqualTo(new QueueCounts(1, 1, 0));
            assertThat(q.verify().errors()).isEmpty();
            Path log = mounted.resolve("jobs/queue.log");
            assertReadOnly(() -> q.enqueue(Map.of("task", "c")), log);
            assertReadOnly(q::claim, log);
            assertReadOnly(() -> q.complete(id(1)), log);
            assertReadOnly(() -> q.requeueTimedOut(Duration.ZERO), log);
            assertReadOnly(() -> q.repair(), log);
            assertReadOnly(q::compact, log);
            assertThat(q.counts()).isEqualTo(new QueueCounts(1, 1, 0));
        }
        try (Queue q = Queue.open(source, "jobs")) {
            assertThat(q.counts()).as("nothing changed underneath").isEqualTo(new QueueCounts(1, 1, 0));
        }
    }

    private static void assertReadOnly(Runnable write, Path path) {
        assertThatThrownBy(write::run).isInstanceOf(StorageException.class)
                .hasMessageContaining(READ_ONLY).hasMessageContaining(path.toString());
    }

    private static String id(int n) {
        return UuidV7.minForTimestampMs(1_700_000_000_000L + n);
    }

    private static boolean canCreate(Path dir) {
        try {
            Files.delete(Files.createFile(dir.resolve("probe")));
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    private static String skip(String step, String why) {
        String reason = "Skipped: " + step + " is not permitted here (" + why + "); a read-only bind mount needs root";
        System.out.println(reason);
        return reason;
    }

    /** @return null when the command succeeded, else its output */
    private static String run(String... command) throws Exception {
        Process p;
        try {
            p = new ProcessBuilder(List.of(command)).redirectErrorStream(true).start();
        } catch (IOException e) {
            return e.getMessage();
        }
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        return p.waitFor() == 0 ? null : "exit " + p.exitValue() + ": " + out;
    }
}
