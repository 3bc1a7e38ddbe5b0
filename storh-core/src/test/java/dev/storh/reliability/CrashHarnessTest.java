package dev.storh.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import dev.storh.StorageRecord;
import dev.storh.doc.DocStore;
import dev.storh.log.SegmentedLog;
import dev.storh.queue.Queue;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * kill -9 of a child JVM ({@link CrashWorkload}) at seeded random moments, open and recovery
 * included, on one root that every round reopens; after each kill a copy of the root is opened and
 * checked: every acknowledged write present with its last value, acknowledged deletes gone, index
 * answers equal a scan, verify clean on all three engines, no temp file after open, no completed job
 * back, every unfinished job claimable after requeueTimedOut. Short run: 2 seeds x 3 rounds; long run
 * ({@code -Dstorh.reliability.long=true}): {@code storh.reliability.rounds} (default 200) per seed.
 */
class CrashHarnessTest {

    private static final int THREADS = 2;
    /** Paths under an index build folder left by a kill during reindex: a known defect, counted apart. */
    private static final java.util.concurrent.atomic.AtomicLong KNOWN_INDEX_LEFTOVERS = new java.util.concurrent.atomic.AtomicLong();

    @TempDir
    Path temp;

    /**
     * Kills after READY only in the short run: a kill during the open of a collection whose writer
     * had crashed can leave indexes that miss a record (see {@link KnownDefectsTest}); the long run
     * puts a quarter of its kills anywhere from the start.
     */
    @Test
    void acknowledgedOperationsSurviveKillDashNineOnAllThreeEngines() throws Exception {
        List<String> failures = run(temp, Seeds.seeds(19_001L, 19_002L), Seeds.count("storh.reliability.rounds", 3, 200),
                Seeds.longRun() ? 4 : 0);
        assertThat(failures).as("replay one seed with -Dstorh.seed=N").isEmpty();
    }

    /**
     * @param temp a scratch folder
     * @param seeds one root per seed
     * @param rounds kills per seed
     * @param fromStartOneIn one kill in this many is timed from the child's start instead of its
     *     READY line (0: never, 1: always)
     * @return what went wrong, each naming seed, round and kill moment
     */
    static List<String> run(Path temp, List<Long> seeds, int rounds, int fromStartOneIn) throws Exception {
        long acknowledged = 0;
        int killedBeforeReady = 0;
        int total = 0;
        List<String> failures = new ArrayList<>();
        for (long seed : seeds) {
            Path root = temp.resolve("seed-" + seed);
            Files.createDirectories(root);
            AckLedger ledger = new AckLedger();
            Random rnd = new Random(seed);
            int failed = failures.size();
            for (int round = 0; round < rounds && failures.size() == failed; round++) {
                ledger.sawReady = false;
                // a quarter of the kills land anywhere from the start (open, recovery), the rest after READY
                boolean fromStart = fromStartOneIn > 0 && rnd.nextInt(fromStartOneIn) == 0;
                long delay = fromStart ? rnd.nextInt(1500) : 50 + rnd.nextInt(1500);
                runChild(root, seed * 1000 + round, "r" + round, fromStart, delay, ledger);
                total++;
                if (!ledger.sawReady) {
                    killedBeforeReady++;
                }
                String where = "seed " + seed + " round " + round + " (kill " + delay + " ms after "
                        + (fromStart ? "start" : "READY") + ")";
                for (String e : ledger.errors) {
                    failures.add(where + ": child: " + e);
                }
                ledger.errors.clear();
                Path copy = temp.resolve("check-" + seed + "-" + round);
                copyTree(root, copy);
                failures.addAll(check(copy, ledger).stream().map(f -> where + ": " + f).toList());
                deleteTree(copy);
                ledger.clearInFlight();
            }
            acknowledged += ledger.acknowledgedOps;
        }
        System.out.printf("crash harness: seeds=%s rounds=%d acknowledged_ops=%d killed_during_open=%d failures=%d"
                + " index_build_leftovers_after_open=%d (known defect)%n",
                seeds, total, acknowledged, killedBeforeReady, failures.size(), KNOWN_INDEX_LEFTOVERS.get());
        return failures;
    }

    private static void runChild(Path root, long seed, String round, boolean fromStart, long delayMs, AckLedger ledger)
            throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Path err = root.resolveSibling(root.getFileName() + "-" + round + ".err");
        Process child = new ProcessBuilder(java, "-Xmx256m", "-cp", System.getProperty("java.class.path"),
                CrashWorkload.class.getName(), root.toString(), Long.toString(seed), round,
                Integer.toString(THREADS), "100000").redirectError(err.toFile()).start();
        List<String> lines = new ArrayList<>();
        java.util.concurrent.CountDownLatch ready = new java.util.concurrent.CountDownLatch(1);
        Thread reader = new Thread(() -> {
            try (BufferedReader out = new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8))) {
                for (String line = out.readLine(); line != null; line = out.readLine()) {
                    lines.add(line);
                    if (line.equals("READY .")) {
                        ready.countDown();
                    }
                }
            } catch (IOException e) {
                lines.add("ERR reading the child's stdout: " + e + " .");
            }
        });
        reader.start();
        if (!fromStart) {
            ready.await(60, TimeUnit.SECONDS);
        }
        boolean ended = child.waitFor(delayMs, TimeUnit.MILLISECONDS);
        if (!ended) {
            // SIGKILL through the handle: Process.destroyForcibly() also closes our end of the pipe,
            // which would drop the lines the child printed just before it died
            child.toHandle().destroyForcibly();
        }
        assertThat(child.waitFor(60, TimeUnit.SECONDS)).isTrue();
        reader.join(60_000);
        Files.write(root.resolveSibling(root.getFileName() + "-" + round + ".out"), lines); // evidence for a failure
        lines.forEach(ledger::accept);
        if (ended && child.exitValue() != 0) {
            ledger.errors.add("exit " + child.exitValue() + ": " + Files.readString(err));
        }
    }

    /** @return what is wrong with the root after the kill; settles the ledger to what was found */
    private static List<String> check(Path root, AckLedger ledger) {
        List<String> failures = new ArrayList<>();
        try (DocStore docs = DocStore.open(root, CrashWorkload.DOCS);
                SegmentedLog log = SegmentedLog.open(root, CrashWorkload.LOG);
                Queue queue = Queue.open(root, CrashWorkload.QUEUE)) {
            CrashWorkload.defineIndexes(docs);
            try (Stream<Path> files = Files.walk(root)) {
                files.map(Path::toString).filter(p -> p.contains(".tmp")).forEach(p -> {
                    if (p.contains("/.storh/indexes/entries.tmp-")) {
                        KNOWN_INDEX_LEFTOVERS.incrementAndGet(); // see KnownDefectsTest
                    } else {
                        failures.add("temp file after open: " + p);
                    }
                });
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            Map<String, Map<String, Object>> docData = new HashMap<>();
            docs.stream().forEach(r -> docData.put(r.id(), r.data()));
            compare("D", values(docData), id -> docs.get(id).map(r -> (String) r.data().get("s")), ledger, failures);
            indexAnswers(docs, docData, failures);
            docs.verify().errors().forEach(e -> failures.add("DocStore verify: " + e));

            Map<String, Map<String, Object>> logData = new HashMap<>();
            log.stream().forEach(r -> logData.put(r.id(), r.data()));
            compare("L", values(logData), id -> log.get(id).map(r -> (String) r.data().get("s")), ledger, failures);
            log.verify().errors().forEach(e -> failures.add("log verify: " + e));

            queue.verify().errors().forEach(e -> failures.add("queue verify: " + e));
            queue.requeueTimedOut(Duration.ZERO);
            long pending = queue.counts().pending();
            if (queue.counts().processing() != 0) {
                failures.add("claims left after requeueTimedOut(0): " + queue.counts());
            }
            Set<String> claimable = new HashSet<>();
            queue.claimMany((int) pending + 10).forEach(r -> claimable.add(r.id()));
            if (claimable.size() != pending) {
                failures.add("pending " + pending + " but " + claimable.size() + " claimable");
            }
            Map<String, String> observed = new HashMap<>();
            for (String id : ledger.ids("Q")) {
                observed.put(id, claimable.contains(id) ? AckLedger.UNFINISHED : AckLedger.GONE);
            }
            for (String id : claimable) {
                if (!observed.containsKey(id)) {
                    failures.add("queue: unknown job " + id + " claimable");
                }
            }
            observed.forEach((id, state) -> {
                Set<String> allowed = ledger.allowed("Q", id, AckLedger.GONE);
                if (!allowed.contains(state)) {
                    failures.add("queue job " + id + (state.equals(AckLedger.UNFINISHED)
                            ? ": completed (acknowledged) but claimable again" : ": unfinished (acknowledged) but not claimable"));
                }
            });
            ledger.settle("Q", observed);
        }
        return failures;
    }

    private static Map<String, String> values(Map<String, Map<String, Object>> data) {
        Map<String, String> v = new HashMap<>();
        data.forEach((id, d) -> v.put(id, (String) d.get("s")));
        return v;
    }

    private static void compare(String engine, Map<String, String> onDisk,
            java.util.function.Function<String, java.util.Optional<String>> get, AckLedger ledger, List<String> failures) {
        Set<String> ids = new TreeSet<>(ledger.ids(engine));
        ids.addAll(onDisk.keySet());
        Map<String, String> observed = new HashMap<>();
        for (String id : ids) {
            String found = onDisk.getOrDefault(id, AckLedger.GONE);
            Set<String> allowed = ledger.allowed(engine, id, AckLedger.GONE);
            if (!allowed.contains(found)) {
                failures.add(engine + " " + id + ": found " + found + ", acknowledged "
                        + ledger.acked.get(engine).getOrDefault(id, "(never)") + ", allowed " + allowed);
            }
            String byGet = get.apply(id).orElse(AckLedger.GONE);
            if (!byGet.equals(found)) {
                failures.add(engine + " " + id + ": get() says " + byGet + ", stream() says " + found);
            }
            observed.put(id, found);
        }
        ledger.settle(engine, observed);
    }

    private static void indexAnswers(DocStore docs, Map<String, Map<String, Object>> data, List<String> failures) {
        for (long kind = 0; kind < 5; kind++) {
            long k = kind;
            expectSame("kind=" + k, ids(docs.query().where("kind").eq(k).get()),
                    scan(data, d -> Long.valueOf(k).equals(d.get("kind"))), failures);
            for (int t = 0; t < 3; t++) {
                String tag = "t" + t;
                expectSame("kind=" + k + " and tag=" + tag, ids(docs.query().where("kind").eq(k).where("tag").eq(tag).get()),
                        scan(data, d -> Long.valueOf(k).equals(d.get("kind")) && tag.equals(d.get("tag"))), failures);
            }
        }
        for (long lo = 0; lo < 1000; lo += 250) {
            long l = lo;
            expectSame("r in [" + l + "," + (l + 300) + ")", ids(docs.query().where("r").between(l, l + 299).get()),
                    scan(data, d -> ((Number) d.get("r")).longValue() >= l && ((Number) d.get("r")).longValue() <= l + 299), failures);
        }
        Map<Object, List<String>> byUnique = data.entrySet().stream()
                .collect(Collectors.groupingBy(e -> e.getValue().get("u"), Collectors.mapping(Map.Entry::getKey, Collectors.toList())));
        byUnique.forEach((u, holders) -> {
            if (holders.size() > 1) {
                failures.add("unique u=" + u + " held by " + holders);
            }
        });
        data.entrySet().stream().limit(25).forEach(e -> expectSame("u=" + e.getValue().get("u"),
                ids(docs.query().where("u").eq(e.getValue().get("u")).get()), Set.of(e.getKey()), failures));
    }

    private static Set<String> ids(List<StorageRecord> records) {
        return records.stream().map(StorageRecord::id).collect(Collectors.toSet());
    }

    private static Set<String> scan(Map<String, Map<String, Object>> data, java.util.function.Predicate<Map<String, Object>> p) {
        return data.entrySet().stream().filter(e -> p.test(e.getValue())).map(Map.Entry::getKey).collect(Collectors.toSet());
    }

    private static void expectSame(String query, Set<String> index, Set<String> scan, List<String> failures) {
        if (!index.equals(scan)) {
            Set<String> missing = new TreeSet<>(scan);
            missing.removeAll(index);
            Set<String> extra = new TreeSet<>(index);
            extra.removeAll(scan);
            failures.add("index answer for " + query + " differs from a scan: missing " + missing + ", extra " + extra);
        }
    }

    static void copyTree(Path from, Path to) throws IOException {
        try (Stream<Path> all = Files.walk(from)) {
            for (Path p : (Iterable<Path>) all::iterator) {
                Path target = to.resolve(from.relativize(p).toString());
                if (Files.isDirectory(p, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
                    Files.createDirectories(target);
                } else {
                    Files.copy(p, target, java.nio.file.LinkOption.NOFOLLOW_LINKS);
                }
            }
        }
    }

    static void deleteTree(Path dir) throws IOException {
        try (Stream<Path> all = Files.walk(dir)) {
            for (Path p : all.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }
}
