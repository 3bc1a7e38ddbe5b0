package dev.storh.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import dev.storh.StorageException;
import dev.storh.fs.FailingFiles.Point;
import dev.storh.reliability.FaultSubject.WritePath;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every engine x every write path x every commit point of the byte seam, as one matrix: the seam
 * fails every time at that point while the write runs. When the write reaches the point, the caller
 * gets a StorageException with a message, the files are byte for byte as before (after a failed
 * folder fsync the new bytes may already be in place: then the store must still be whole), no temp
 * file remains, a reopened store shows no write whose caller was told "failed", verify is clean and
 * the same write then works. A write that never reaches the point must simply work. The figures
 * (faults injected per commit point, cases that never reached their point) are printed at the end.
 */
class FaultMatrixTest {

    private static final Map<Point, AtomicInteger> INJECTED = new ConcurrentHashMap<>();
    private static final List<String> NOT_REACHED = java.util.Collections.synchronizedList(new ArrayList<>());

    /**
     * Cases that found a defect not fixed yet: skipped (printing the reason) until the owner fixes it
     * and removes the entry.
     */
    private static final Map<String, String> KNOWN_DEFECTS = Map.of();

    @TempDir
    Path root;

    static Stream<Arguments> matrix() {
        List<Arguments> all = new ArrayList<>();
        for (String engine : List.of("D", "L", "Q")) {
            for (WritePath path : WritePath.values()) {
                if (FaultSubject.of(engine, Path.of(".")).has(path)) {
                    for (Point point : Point.values()) {
                        all.add(Arguments.of(engine, path, point));
                    }
                }
            }
        }
        return all.stream();
    }

    @AfterAll
    static void figures() {
        Map<Point, Integer> byPoint = new EnumMap<>(Point.class);
        INJECTED.forEach((p, n) -> byPoint.put(p, n.get()));
        System.out.println("fault matrix: faults injected per commit point " + byPoint);
        System.out.println("fault matrix: " + NOT_REACHED.size() + " cases never reached their point: " + NOT_REACHED);
    }

    @ParameterizedTest(name = "{0} {1} {2}")
    @MethodSource("matrix")
    void aFailureAtACommitPointLeavesTheOldStateAndTheNextWriteWorks(String engine, WritePath path, Point point)
            throws Exception {
        String what = engine + " " + path + " failing at " + point;
        String known = KNOWN_DEFECTS.get(engine + " " + path + " " + point);
        if (known != null) {
            System.out.println("fault matrix: " + what + " skipped: " + known);
            org.junit.jupiter.api.Assumptions.abort(known);
        }
        FaultSubject subject = FaultSubject.of(engine, root);
        subject.open();
        subject.settle(path);
        Object before = subject.logicalState();
        Map<String, String> bytes = files(subject.folder());
        List<String> failedIds = java.util.Collections.synchronizedList(new ArrayList<>());
        subject.seam.failAt(point, name -> true);
        StorageException thrown = null;
        List<String> done = List.of();
        try {
            done = subject.write(path, failedIds);
        } catch (StorageException e) {
            thrown = e;
        } finally {
            subject.seam.heal();
        }
        int injected = subject.seam.failures();
        INJECTED.computeIfAbsent(point, p -> new AtomicInteger()).addAndGet(injected);
        if (injected == 0) {
            NOT_REACHED.add(engine + " " + path + " " + point);
            assertThat(thrown).as(what + ": never reached the point, so it must work").isNull();
        }
        boolean failedOnly = thrown != null || (path == WritePath.GROUP_COMMIT && done.isEmpty() && injected > 0);
        if (thrown != null) {
            assertThat(thrown.getMessage()).as(what + ": message").isNotBlank();
        }
        // a stream that failed keeps the items before the failure: those are checked after reopening
        boolean whole = failedOnly && point != Point.DIRECTORY_FSYNC && path != WritePath.STREAM;
        if (whole) {
            assertThat(changes(bytes, files(subject.folder()))).as(what + ": files changed").isEmpty();
        }
        assertThat(temps(subject.folder())).as(what + ": temp files left").isEmpty();
        subject.close();

        subject.open(); // a fresh seam that fails nothing
        try {
            if (whole) {
                assertThat(subject.logicalState()).as(what + ": state after reopening").isEqualTo(before);
            }
            if (failedOnly && path == WritePath.STREAM) {
                List<Boolean> kept = subject.streamed.stream().map(subject::visible).toList();
                assertThat(kept).as(what + ": the items kept are the stream's first ones").isSortedAccordingTo(
                        java.util.Comparator.reverseOrder());
            }
            if (point != Point.DIRECTORY_FSYNC) {
                for (String id : failedIds) {
                    assertThat(subject.visible(id)).as(what + ": " + id + " was reported failed but is durable").isFalse();
                }
            }
            for (String id : done) {
                assertThat(subject.visible(id)).as(what + ": " + id + " was reported done").isTrue();
            }
            if (!(failedOnly && path == WritePath.REPAIR)) { // a failed repair leaves the damage it was to remove
                assertThat(subject.verifyErrors()).as(what + ": verify after the failure").isEmpty();
            }
            subject.write(path, new ArrayList<>());
            assertThat(subject.verifyErrors()).as(what + ": verify after the next write").isEmpty();
        } finally {
            subject.close();
        }
    }

    /** @return every regular file below the folder (writer markers and locks aside) with its bytes */
    static Map<String, String> files(Path dir) throws IOException {
        Map<String, String> all = HostilePathsTest.contents(dir);
        all.keySet().removeIf(k -> k.contains(".storh/writers") || k.endsWith(".lock"));
        all.values().removeIf("<dir>"::equals);
        return all;
    }

    /** @return the names added, removed or changed between two {@link #files} maps */
    static List<String> changes(Map<String, String> before, Map<String, String> after) {
        List<String> changed = new ArrayList<>();
        before.forEach((name, bytes) -> {
            if (!after.containsKey(name)) {
                changed.add("removed " + name);
            } else if (!after.get(name).equals(bytes)) {
                changed.add("changed " + name);
            }
        });
        after.keySet().stream().filter(n -> !before.containsKey(n)).forEach(n -> changed.add("added " + n));
        return changed;
    }

    private static List<String> temps(Path dir) throws IOException {
        try (Stream<Path> walk = Files.walk(dir)) {
            return walk.map(p -> dir.relativize(p).toString()).filter(s -> s.endsWith(".tmp") || s.contains(".tmp-"))
                    .toList();
        }
    }
}
