package dev.storh.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import dev.storh.StorageException;
import dev.storh.StorageRoot;
import dev.storh.doc.DocStore;
import dev.storh.log.SegmentedLog;
import dev.storh.queue.Queue;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Hostile paths and file states on the log and the queue (the DocStore's ids, names and links are
 * in {@code dev.storh.doc.NothingOutsideTheRootTest}): ids and namespaces that try to leave the
 * root, links to the outside, immutable files, a root deleted under open stores. Each a clear
 * StorageException (or an empty answer for a read), nothing outside the root touched, the stores
 * and the JVM still working.
 */
class HostilePathsTest {

    @TempDir
    Path temp;

    Path root;
    Path outside;

    @BeforeEach
    void folders() throws IOException {
        root = Files.createDirectories(temp.resolve("root"));
        outside = Files.createDirectories(temp.resolve("outside"));
        Files.writeString(outside.resolve("precious.txt"), "untouched");
    }

    /** @return every file below the folder with its bytes, to compare before and after */
    static Map<String, String> contents(Path dir) throws IOException {
        Map<String, String> all = new TreeMap<>();
        try (Stream<Path> walk = Files.walk(dir)) {
            for (Path p : (Iterable<Path>) walk::iterator) {
                all.put(dir.relativize(p).toString(), Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS)
                        ? new String(Files.readAllBytes(p), java.nio.charset.StandardCharsets.ISO_8859_1) : "<dir>");
            }
        }
        return all;
    }

    /** Runs a write that must be refused; @return what was wrong with the refusal, or null */
    static String refused(String what, Runnable write) {
        try {
            write.run();
            return what + ": accepted";
        } catch (StorageException e) {
            return e.getMessage() == null || e.getMessage().isBlank() ? what + ": StorageException without a message" : null;
        } catch (Throwable e) {
            return what + ": " + e.getClass().getName() + " " + e.getMessage();
        }
    }

    /** Runs a read that may be refused or answer nothing; @return what was wrong, or null */
    static String emptyOrRefused(String what, Supplier<?> read) {
        try {
            Object answer = read.get();
            boolean empty = answer == null || Boolean.FALSE.equals(answer)
                    || (answer instanceof Optional<?> o && o.isEmpty());
            return empty ? null : what + ": answered " + answer;
        } catch (StorageException e) {
            return null;
        } catch (Throwable e) {
            return what + ": " + e.getClass().getName() + " " + e.getMessage();
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"../../outside/x", "/etc/passwd", "..", ".", "", "0190f0e0-1234-7abc-8def-abcdef01/345",
        "0190f0e0-1234-7abc-8def-abcdef01\0345", "0190f0e0-1234-7abc-8def-abc/../../345", "..\\..\\x",
        "../outside/precious.txt"})
    void logAndQueueIdsThatTryToLeaveTheRootAreRefused(String id) throws Exception {
        List<String> problems = new ArrayList<>();
        try (SegmentedLog log = SegmentedLog.open(root, "events"); Queue queue = Queue.open(root, "jobs")) {
            log.put(Map.of("a", 1L));
            queue.enqueue(Map.of("a", 1L));
            Map<String, String> before = contents(root);
            problems.add(refused("log.put", () -> log.put(Map.of("a", 2L), id)));
            problems.add(refused("log.appendMany", () -> log.appendMany(List.of(Map.of("id", id, "data", Map.of("a", 2L))))));
            problems.add(refused("queue.enqueue", () -> queue.enqueue(Map.of("a", 2L), id)));
            problems.add(emptyOrRefused("log.get", () -> log.get(id)));
            problems.add(emptyOrRefused("log.delete", () -> log.delete(id)));
            problems.add(emptyOrRefused("queue.retry", () -> queue.retry(id, Duration.ZERO)));
            problems.add(emptyOrRefused("queue.complete", () -> {
                queue.complete(id);
                return null;
            }));
            problems.removeIf(java.util.Objects::isNull);
            assertThat(problems).as("id %s", id.replace("\0", "\\0")).isEmpty();
            assertThat(contents(root)).as("nothing written for a refused id").isEqualTo(before);
            assertThat(log.count()).isEqualTo(1);
            assertThat(queue.counts().pending()).isEqualTo(1);
            assertThat(log.verify().ok()).isTrue();
            assertThat(queue.verify().ok()).isTrue();
        }
        assertThat(contents(outside)).isEqualTo(Map.of("", "<dir>", "precious.txt", "untouched"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"..", "../outside", "../../etc", "/etc", "a/../../outside", "..\\outside", "a\0b", ".", "",
        "~root", "\u202e..", "con"})
    void namespacesThatTryToLeaveTheBaseStayBelowIt(String namespace) throws Exception {
        Path ns = StorageRoot.resolve(root, namespace);
        assertThat(ns.toAbsolutePath().normalize().getParent()).as("namespace %s", namespace.replace("\0", "\\0"))
                .isEqualTo(root.toAbsolutePath().normalize());
        try (DocStore docs = DocStore.open(ns, "docs"); SegmentedLog log = SegmentedLog.open(ns, "events");
                Queue queue = Queue.open(ns, "jobs")) {
            docs.put(Map.of("a", 1L));
            log.put(Map.of("a", 1L));
            queue.enqueue(Map.of("a", 1L));
        }
        assertThat(contents(outside)).isEqualTo(Map.of("", "<dir>", "precious.txt", "untouched"));
        try (Stream<Path> top = Files.list(temp)) {
            assertThat(top.toList()).containsExactlyInAnyOrder(root, outside);
        }
    }

    @Test
    void aQueueLogLinkedOutsideIsNeverAppendedTo() throws Exception {
        try (Queue queue = Queue.open(root, "jobs")) {
            queue.enqueue(Map.of("a", 1L));
        }
        Path log = root.resolve("jobs/queue.log");
        Files.delete(log);
        Files.createSymbolicLink(log, outside.resolve("precious.txt"));
        List<String> problems = new ArrayList<>();
        try (Queue queue = Queue.open(root, "jobs")) {
            problems.add(refused("enqueue through a linked queue.log", () -> queue.enqueue(Map.of("a", 2L))));
        } catch (StorageException refusedAtOpen) {
            assertThat(refusedAtOpen.getMessage()).contains("queue.log");
        }
        problems.removeIf(java.util.Objects::isNull);
        assertThat(problems).isEmpty();
        assertThat(contents(outside)).isEqualTo(Map.of("", "<dir>", "precious.txt", "untouched"));
    }

    @Test
    void aLogSegmentLinkedOutsideIsNeverAppendedTo() throws Exception {
        Path segment;
        try (SegmentedLog log = SegmentedLog.open(root, "events")) {
            log.put(Map.of("a", 1L));
        }
        try (Stream<Path> segs = Files.list(root.resolve("events/segments"))) {
            segment = segs.filter(p -> p.getFileName().toString().endsWith(".ndjson")).findFirst().orElseThrow();
        }
        Files.delete(segment);
        Files.createSymbolicLink(segment, outside.resolve("precious.txt"));
        try (SegmentedLog log = SegmentedLog.open(root, "events")) {
            String problem = refused("put through a linked segment", () -> log.put(Map.of("a", 2L)));
            assertThat(problem).isNull();
        } catch (StorageException refusedAtOpen) {
            assertThat(refusedAtOpen.getMessage()).contains(segment.getFileName().toString());
        }
        assertThat(contents(outside)).isEqualTo(Map.of("", "<dir>", "precious.txt", "untouched"));
    }

    @Test
    void aLogAndAQueueWhoseRootWasDeletedUnderThemRefuseWritesAndAnswerReadsCleanly() throws Exception {
        List<String> problems = new ArrayList<>();
        try (SegmentedLog log = SegmentedLog.open(root, "events"); Queue queue = Queue.open(root, "jobs")) {
            String event = log.put(Map.of("a", 1L)).id();
            queue.enqueue(Map.of("a", 1L));
            CrashHarnessTest.deleteTree(root);
            problems.add(refused("SegmentedLog.put", () -> log.put(Map.of("a", 2L))));
            problems.add(refused("SegmentedLog.appendMany", () -> log.appendMany(List.of(Map.of("a", 2L)))));
            problems.add(refused("Queue.enqueue", () -> queue.enqueue(Map.of("a", 2L))));
            problems.add(emptyOrRefused("SegmentedLog.get", () -> log.get(event)));
            problems.add(emptyOrRefused("Queue.claim", queue::claim));
            problems.add(notClean("SegmentedLog.verify", () -> log.verify().ok()));
            problems.add(notClean("Queue.verify", () -> queue.verify().ok()));
        }
        problems.removeIf(java.util.Objects::isNull);
        assertThat(problems).isEmpty();
        assertThat(root).as("no write recreated the deleted root").doesNotExist();
        assertThat(contents(outside)).isEqualTo(Map.of("", "<dir>", "precious.txt", "untouched"));
    }

    @Test
    void aDocStoreWhoseRootWasDeletedUnderItRefusesWritesAndReportsIt() throws Exception {
        List<String> problems = new ArrayList<>();
        try (DocStore docs = DocStore.open(root, "docs")) {
            String doc = docs.put(Map.of("a", 1L)).id();
            CrashHarnessTest.deleteTree(root);
            problems.add(refused("DocStore.put", () -> docs.put(Map.of("a", 2L))));
            problems.add(emptyOrRefused("DocStore.get", () -> docs.get(doc)));
            problems.add(notClean("DocStore.verify", () -> docs.verify().ok()));
        }
        problems.removeIf(java.util.Objects::isNull);
        assertThat(problems).isEmpty();
        assertThat(root).as("no write recreated the deleted root").doesNotExist();
    }

    /** A verify of a store whose files are gone must report it (or refuse), not answer "clean". */
    private static String notClean(String what, Supplier<Boolean> verify) {
        try {
            return verify.get() ? what + ": clean although the root is gone" : null;
        } catch (StorageException e) {
            return null;
        } catch (Throwable e) {
            return what + ": " + e.getClass().getName() + " " + e.getMessage();
        }
    }
}
