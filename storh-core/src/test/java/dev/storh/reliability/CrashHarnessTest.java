package dev.storh.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * kill -9 of a child JVM ({@link CrashWorkload}) at seeded random moments, open and recovery
 * included, on one root that every round reopens; after each kill a copy of the root is opened and
 * checked: every acknowledged write present with its last value, acknowledged deletes gone, index
 * answers equal a scan, verify clean on all three engines, no temp file after open, no completed job
 * back, every unfinished job claimable after requeueTimedOut. Short run: 2 seeds x 3 rounds, 2 threads
 * per engine in the child; long run ({@code -Dstorh.reliability.long=true}): {@code storh.reliability.rounds}
 * (default 200) per seed, 4 threads per engine.
 */
class CrashHarnessTest {

    /** Worker threads per engine in the child: 2 in the short run, 4 in the long one. */
    static final int SHORT_THREADS = 2;
    static final int LONG_THREADS = 4;

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
                Seeds.longRun() ? 4 : 0, Seeds.longRun() ? LONG_THREADS : SHORT_THREADS);
        assertThat(failures).as("replay one seed with -Dstorh.seed=N").isEmpty();
    }

    /**
     * @param temp a scratch folder
     * @param seeds one root per seed
     * @param rounds kills per seed
     * @param fromStartOneIn one kill in this many is timed from the child's start instead of its
     *     READY line (0: never, 1: always)
     * @param threads worker threads per engine in the child
     * @return what went wrong, each naming seed, round and kill moment
     */
    static List<String> run(Path temp, List<Long> seeds, int rounds, int fromStartOneIn, int threads) throws Exception {
        Result r = runCounted(temp, seeds, rounds, fromStartOneIn, threads);
        System.out.printf("crash harness: seeds=%s rounds=%d threads=%d acknowledged_ops=%d killed_during_open=%d"
                + " killed_during=%s failures=%d%n", seeds, r.rounds(), threads, r.acknowledged(), r.killedDuringOpen(),
                r.killedDuring(), r.failures().size());
        return r.failures();
    }

    /**
     * What a run did.
     *
     * @param rounds kills
     * @param acknowledged operations the children acknowledged
     * @param killedDuringOpen kills before the child's READY
     * @param killedDuring kills while the child's maintenance thread ran an operation, by operation
     *     ({@link CrashWorkload#MAINTENANCE})
     * @param failures what went wrong, each naming seed, round and kill moment
     */
    record Result(int rounds, long acknowledged, int killedDuringOpen, java.util.Map<String, Integer> killedDuring,
            List<String> failures) {
    }

    /** {@link #run} without printing; @return its figures */
    static Result runCounted(Path temp, List<Long> seeds, int rounds, int fromStartOneIn, int threads) throws Exception {
        long acknowledged = 0;
        int killedBeforeReady = 0;
        int total = 0;
        List<String> failures = new ArrayList<>();
        java.util.Map<String, Integer> killedDuring = new java.util.TreeMap<>();
        for (long seed : seeds) {
            Path root = temp.resolve("seed-" + seed);
            Files.createDirectories(root);
            AckLedger ledger = new AckLedger();
            Random rnd = new Random(seed);
            int failed = failures.size();
            for (int round = 0; round < rounds && failures.size() == failed; round++) {
                ledger.sawReady = false;
                ledger.maintenance = null;
                // a quarter of the kills land anywhere from the start (open, recovery), the rest after READY
                boolean fromStart = fromStartOneIn > 0 && rnd.nextInt(fromStartOneIn) == 0;
                long delay = fromStart ? rnd.nextInt(1500) : 50 + rnd.nextInt(1500);
                runChild(root, seed * 1000 + round, "r" + round, fromStart, delay, threads, ledger);
                total++;
                if (!ledger.sawReady) {
                    killedBeforeReady++;
                }
                if (ledger.maintenance != null) {
                    killedDuring.merge(ledger.maintenance, 1, Integer::sum);
                }
                String where = "seed " + seed + " round " + round + " (kill " + delay + " ms after "
                        + (fromStart ? "start" : "READY") + ")";
                for (String e : ledger.errors) {
                    failures.add(where + ": child: " + e);
                }
                ledger.errors.clear();
                Path copy = temp.resolve("check-" + seed + "-" + round);
                copyTree(root, copy);
                failures.addAll(CrashChecks.check(copy, ledger, CrashWorkload.ENGINES).stream().map(f -> where + ": " + f).toList());
                deleteTree(copy);
                ledger.clearInFlight();
            }
            acknowledged += ledger.acknowledgedOps;
        }
        return new Result(total, acknowledged, killedBeforeReady, killedDuring, failures);
    }

    private static void runChild(Path root, long seed, String round, boolean fromStart, long delayMs, int threads, AckLedger ledger)
            throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Path err = root.resolveSibling(root.getFileName() + "-" + round + ".err");
        Process child = new ProcessBuilder(java, "-Xmx256m", "-cp", System.getProperty("java.class.path"),
                CrashWorkload.class.getName(), root.toString(), Long.toString(seed), round,
                Integer.toString(threads), "100000").redirectError(err.toFile()).start();
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
