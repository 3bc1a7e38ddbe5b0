package dev.storh.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import dev.storh.StorageRecord;
import dev.storh.doc.DocStore;
import dev.storh.doc.DocStoreOptions;
import dev.storh.log.SegmentedLog;
import dev.storh.log.SegmentedLogOptions;
import dev.storh.queue.Queue;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Races between JVMs and between threads. Two child JVMs ({@link RaceChild}) x 8 threads race for
 * the same unique values, claim one queue and append to one log: exactly one winner per value, no
 * job claimed twice, none lost, every append present and whole. 16 threads of writes and reads in
 * one JVM run against compaction, reindex and verify on each engine: every read sees the thread's
 * own last write, verify never reports damage that is not there, and the end state equals a scan.
 */
class ConcurrencyTest {

    private static final int THREADS = 8;

    @TempDir
    Path root;

    @Test
    void twoJvmsOfEightThreadsRaceForUniqueValuesOneQueueAndOneLog() throws Exception {
        int values = Seeds.count("storh.race.values", 60, 400);
        int jobs = Seeds.count("storh.race.jobs", 400, 4000);
        int appends = Seeds.count("storh.race.appends", 40, 300);
        Set<String> enqueued = new HashSet<>();
        try (DocStore docs = DocStore.open(root, "race"); Queue queue = Queue.open(root, "shared")) {
            docs.indexes().field("u").unique().sync();
            for (int i = 0; i < jobs; i++) {
                enqueued.add(queue.enqueue(Map.of("n", (long) i)));
            }
        }
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<Process> children = new ArrayList<>();
        for (String jvm : List.of("a", "b")) {
            children.add(new ProcessBuilder(java, "-Xmx256m", "-cp", System.getProperty("java.class.path"),
                    RaceChild.class.getName(), root.toString(), jvm, Integer.toString(THREADS), Integer.toString(values),
                    Integer.toString(appends), root.resolve(jvm + ".out").toString()).redirectErrorStream(true)
                    .redirectOutput(root.resolve(jvm + ".log").toFile()).start());
        }
        List<String> lines = new ArrayList<>();
        for (int i = 0; i < children.size(); i++) {
            Process p = children.get(i);
            assertThat(p.waitFor(10, TimeUnit.MINUTES)).as("child ended").isTrue();
            String jvm = i == 0 ? "a" : "b";
            assertThat(p.exitValue()).as(Files.readString(root.resolve(jvm + ".log"))).isZero();
            lines.addAll(Files.readAllLines(root.resolve(jvm + ".out")));
        }
        assertThat(lines.stream().filter(l -> l.startsWith("ERR")).toList()).as("child errors").isEmpty();

        Map<String, List<String>> winners = lines.stream().filter(l -> l.startsWith("W ")).map(l -> l.split(" "))
                .collect(Collectors.groupingBy(f -> f[1], Collectors.mapping(f -> f[2], Collectors.toList())));
        List<String> claims = lines.stream().filter(l -> l.startsWith("C ")).map(l -> l.substring(2)).toList();
        Map<String, String> appended = lines.stream().filter(l -> l.startsWith("P ")).map(l -> l.split(" "))
                .collect(Collectors.toMap(f -> f[1], f -> f[2]));
        System.out.printf("concurrency: 2 JVMs x %d threads: %d unique values (%d winners), %d jobs claimed, %d appends%n",
                THREADS, values, winners.values().stream().mapToInt(List::size).sum(), claims.size(), appended.size());

        Map<String, List<String>> twice = new HashMap<>();
        winners.forEach((u, ids) -> {
            if (ids.size() != 1) {
                twice.put(u, ids);
            }
        });
        assertThat(twice).as("unique values won more than once").isEmpty();
        assertThat(winners).hasSize(values);
        try (DocStore docs = DocStore.open(root, "race")) {
            docs.indexes().field("u").unique().sync();
            assertThat(docs.count()).isEqualTo(values);
            winners.forEach((u, ids) -> assertThat(docs.query().where("u").eq(u).get().stream().map(StorageRecord::id))
                    .as(u).containsExactly(ids.get(0)));
            assertThat(docs.verify().ok()).isTrue();
        }
        Set<String> distinct = new HashSet<>(claims);
        assertThat(claims.size() - distinct.size()).as("duplicate claims").isZero();
        Set<String> lost = new HashSet<>(enqueued);
        lost.removeAll(distinct);
        assertThat(lost).as("jobs never claimed").isEmpty();
        try (Queue queue = Queue.open(root, "shared")) {
            assertThat(queue.counts().pending()).isZero();
            assertThat(queue.counts().processing()).isZero();
            assertThat(queue.verify().ok()).isTrue();
        }
        assertThat(appended).hasSize(2 * THREADS * appends);
        try (SegmentedLog log = SegmentedLog.open(root, "journal")) {
            assertThat(log.count()).isEqualTo(appended.size());
            appended.forEach((id, by) -> assertThat(log.get(id).map(r -> r.data().get("by"))).as(id).contains(by));
            assertThat(log.verify().ok()).as("no torn lines").isTrue();
        }
    }

    /** Runs the bodies at once, each in its own thread; @return their failures */
    private static List<String> together(List<Runnable> bodies) throws InterruptedException {
        List<String> failures = Collections.synchronizedList(new ArrayList<>());
        List<Thread> all = new ArrayList<>();
        for (Runnable body : bodies) {
            Thread t = new Thread(() -> {
                try {
                    body.run();
                } catch (Throwable e) {
                    failures.add(e.toString());
                }
            });
            t.start();
            all.add(t);
        }
        for (Thread t : all) {
            t.join(TimeUnit.MINUTES.toMillis(10));
        }
        return failures;
    }

    @ParameterizedTest(name = "engine {0}")
    @ValueSource(strings = {"D", "Q"})
    void sixteenThreadsOfWritesAndReadsAgainstCompactionReindexAndVerify(String engine) throws Exception {
        assertThat(sixteenThreads(engine)).as("engine " + engine + " under load").isEmpty();
    }

    /**
     * Found by {@link #sixteenThreads}: {@code SegmentedLog.verify()} compared a fresh scan with the
     * live state index without the write lock, so appends that landed between the two were reported
     * as "Segmented log state index drift" although nothing was wrong.
     */
    @Test
    void sixteenThreadsOfLogWritesAndReadsAgainstCompactionAndVerify() throws Exception {
        assertThat(sixteenThreads("L")).isEmpty();
    }

    /**
     * 12 threads of writes, each reading back what it wrote, against 4 threads of compaction,
     * reindex (the log and the queue: a second compaction), verify and queries, until the writers are
     * done; then the end state must equal a scan and every index answer.
     *
     * @return what went wrong
     */
    private List<String> sixteenThreads(String engine) throws Exception {
        int ops = Seeds.count("storh.race.ops", 25, 600);
        List<String> failures = Collections.synchronizedList(new ArrayList<>());
        AtomicBoolean writing = new AtomicBoolean(true);
        List<Runnable> writers = new ArrayList<>();
        List<Runnable> maintenance = new ArrayList<>();
        switch (engine) {
            case "D" -> {
                // a writer may wait long behind a reindex on a busy machine: no lock timeout
                DocStore docs = DocStore.open(root, "docs", DocStoreOptions.builder().lockTimeout(Duration.ofSeconds(-1)).build());
                docs.indexes().field("kind").field("u").unique().sync();
                Map<String, Long> state = new ConcurrentHashMap<>();
                for (int t = 0; t < 12; t++) {
                    int thread = t;
                    writers.add(() -> docWriter(docs, thread, ops, state, failures));
                }
                maintenance.add(() -> maintain(writing, docs::compact));
                maintenance.add(() -> maintain(writing, docs::reindex));
                maintenance.add(() -> maintain(writing, () -> docs.verify().errors()
                        .forEach(e -> failures.add("DocStore verify during writes: " + e))));
                maintenance.add(() -> maintain(writing, () -> docs.query().where("kind").eq(1L).count()));
                failures.addAll(together(withStop(writers, maintenance, writing)));
                try (docs) {
                    Map<String, Long> scan = new HashMap<>();
                    docs.stream().forEach(r -> scan.put(r.id(), (Long) r.data().get("kind")));
                    expect(scan, state, "records after the run", failures);
                    for (long k = 0; k < 3; k++) {
                        long kind = k;
                        expect(docs.query().where("kind").eq(kind).get().stream().map(StorageRecord::id)
                                .collect(Collectors.toSet()), state.entrySet().stream().filter(e -> e.getValue() == kind)
                                .map(Map.Entry::getKey).collect(Collectors.toSet()), "index kind=" + kind, failures);
                    }
                    docs.verify().errors().forEach(e -> failures.add("DocStore verify after the run: " + e));
                }
            }
            case "L" -> {
                SegmentedLog log = SegmentedLog.open(root, "events",
                        SegmentedLogOptions.builder().lockTimeout(Duration.ofSeconds(-1)).build());
                Map<String, Long> state = new ConcurrentHashMap<>();
                for (int t = 0; t < 12; t++) {
                    int thread = t;
                    writers.add(() -> logWriter(log, thread, ops, state, failures));
                }
                maintenance.add(() -> maintain(writing, log::compact));
                maintenance.add(() -> maintain(writing, log::compact));
                maintenance.add(() -> maintain(writing, () -> log.verify().errors()
                        .forEach(e -> failures.add("log verify during writes: " + e))));
                maintenance.add(() -> maintain(writing, log::count));
                failures.addAll(together(withStop(writers, maintenance, writing)));
                try (log) {
                    Map<String, Long> scan = new HashMap<>();
                    log.stream().forEach(r -> scan.put(r.id(), (Long) r.data().get("v")));
                    expect(scan, state, "records after the run", failures);
                    log.verify().errors().forEach(e -> failures.add("log verify after the run: " + e));
                }
            }
            default -> {
                Queue queue = Queue.open(root, "jobs");
                Set<String> in = ConcurrentHashMap.newKeySet();
                Set<String> done = ConcurrentHashMap.newKeySet();
                for (int t = 0; t < 12; t++) {
                    int thread = t;
                    writers.add(() -> queueWorker(queue, thread, ops, in, done, failures));
                }
                maintenance.add(() -> maintain(writing, queue::compact));
                maintenance.add(() -> maintain(writing, queue::compact));
                maintenance.add(() -> maintain(writing, () -> queue.verify().errors()
                        .forEach(e -> failures.add("queue verify during writes: " + e))));
                maintenance.add(() -> maintain(writing, queue::counts));
                failures.addAll(together(withStop(writers, maintenance, writing)));
                try (queue) {
                    Set<String> claimable = new HashSet<>();
                    queue.claimMany(100_000).forEach(r -> claimable.add(r.id()));
                    Set<String> expected = new HashSet<>(in);
                    expected.removeAll(done);
                    expect(claimable, expected, "claimable after the run (every unfinished job, no completed one)", failures);
                    queue.verify().errors().forEach(e -> failures.add("queue verify after the run: " + e));
                }
            }
        }
        return failures;
    }

    /** Writers first; the maintenance bodies loop until every writer has finished. */
    private static List<Runnable> withStop(List<Runnable> writers, List<Runnable> maintenance, AtomicBoolean writing) {
        java.util.concurrent.CountDownLatch left = new java.util.concurrent.CountDownLatch(writers.size());
        List<Runnable> all = new ArrayList<>();
        for (Runnable w : writers) {
            all.add(() -> {
                try {
                    w.run();
                } finally {
                    left.countDown();
                    if (left.getCount() == 0) {
                        writing.set(false);
                    }
                }
            });
        }
        all.addAll(maintenance);
        return all;
    }

    private static void maintain(AtomicBoolean writing, Runnable job) {
        while (writing.get()) {
            job.run();
            try {
                Thread.sleep(10); // leave the writers a moment between two maintenance runs
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    private static void docWriter(DocStore docs, int thread, int ops, Map<String, Long> state, List<String> failures) {
        Random rnd = new Random(19_300L + thread);
        List<String> mine = new ArrayList<>();
        for (int i = 0; i < ops; i++) {
            int op = rnd.nextInt(10);
            if (op < 5 || mine.isEmpty()) {
                long kind = rnd.nextInt(3);
                String id = docs.put(Map.of("kind", kind, "u", thread + "-" + i)).id();
                mine.add(id);
                state.put(id, kind);
                expect(docs.get(id).map(r -> r.data().get("kind")), Optional.of(kind), "doc " + id, failures);
            } else if (op < 8) {
                String id = mine.get(rnd.nextInt(mine.size()));
                long kind = rnd.nextInt(3);
                docs.put(Map.of("kind", kind, "u", thread + "-" + i), id);
                state.put(id, kind);
                expect(docs.get(id).map(r -> r.data().get("kind")), Optional.of(kind), "doc " + id, failures);
            } else {
                String id = mine.remove(rnd.nextInt(mine.size()));
                docs.delete(id);
                state.remove(id);
                expect(docs.get(id), Optional.empty(), "deleted doc " + id, failures);
            }
        }
    }

    private static void logWriter(SegmentedLog log, int thread, int ops, Map<String, Long> state, List<String> failures) {
        Random rnd = new Random(19_400L + thread);
        List<String> mine = new ArrayList<>();
        for (int i = 0; i < ops; i++) {
            int op = rnd.nextInt(10);
            long v = i;
            if (op < 5 || mine.isEmpty()) {
                String id = log.put(Map.of("v", v)).id();
                mine.add(id);
                state.put(id, v);
                expect(log.get(id).map(r -> r.data().get("v")), Optional.of(v), "event " + id, failures);
            } else if (op < 8) {
                String id = mine.get(rnd.nextInt(mine.size()));
                log.put(Map.of("v", v), id);
                state.put(id, v);
                expect(log.get(id).map(r -> r.data().get("v")), Optional.of(v), "event " + id, failures);
            } else {
                String id = mine.remove(rnd.nextInt(mine.size()));
                log.delete(id);
                state.remove(id);
                expect(log.get(id), Optional.empty(), "deleted event " + id, failures);
            }
        }
    }

    private static void queueWorker(Queue queue, int thread, int ops, Set<String> in, Set<String> done, List<String> failures) {
        Random rnd = new Random(19_500L + thread);
        for (int i = 0; i < ops; i++) {
            if (rnd.nextInt(3) > 0) {
                in.add(queue.enqueue(Map.of("n", (long) i)));
            } else {
                Optional<StorageRecord> job = queue.claim();
                if (job.isPresent()) {
                    if (done.contains(job.get().id())) {
                        failures.add("completed job claimed again: " + job.get().id());
                    }
                    queue.complete(job.get().id());
                    done.add(job.get().id());
                }
            }
        }
    }

    private static void expect(Object actual, Object wanted, String what, List<String> failures) {
        if (!actual.equals(wanted)) {
            failures.add(what + ": read " + actual + " right after writing " + wanted);
        }
    }
}
