package dev.storh.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Simulated power cuts ({@link PowerCutDisk}) at seeded mutation points of {@link CrashWorkload}
 * on one engine at a time, in a child JVM ({@link PowerCutChild}); after it ended, what "reached the
 * disk" before each cut is opened as a store and must hold the crash invariants of
 * {@link CrashChecks}. Half the cuts also tear unsynced writes at a sector boundary. Short run: one
 * seed, single-threaded with compaction, reindex and requeue in the op mix, about 200 cuts per
 * engine; long run ({@code -Dstorh.reliability.long=true}, or {@link PowerCutLongRun} outside a
 * test runner): {@code storh.powercut.cuts} (default 1,000) per seed and 4 seeds, all but the first
 * with 4 threads per engine (group commit) and a maintenance thread. Replay with
 * {@code -Dstorh.seed=N}.
 */
class PowerCutTest {

    /**
     * Checks the cut trees side by side ({@code -Dstorh.powercut.checkers=N}, default 2): each cut is
     * its own tree, opened and checked alone.
     */
    private static final java.util.concurrent.ExecutorService CHECKERS = java.util.concurrent.Executors.newFixedThreadPool(
            Integer.getInteger("storh.powercut.checkers", 2), r -> {
                Thread t = new Thread(r, "power-cut-check");
                t.setDaemon(true);
                return t;
            });

    @TempDir
    Path temp;

    /** Figures of one engine's run. */
    record Figures(String engine, List<Long> seeds, long cuts, long torn, long mutations, long acknowledged,
            List<String> failures, Set<String> bypasses) {
    }

    @ParameterizedTest(name = "engine {0}")
    @ValueSource(strings = {"D", "L", "Q"})
    void whatReachedTheDiskBeforeAPowerCutHoldsEveryAcknowledgedWrite(String engine) throws Exception {
        List<Long> seeds = Seeds.seeds(19_101L, 19_102L, 19_103L, 19_104L);
        if (!Seeds.longRun() && System.getProperty("storh.seed") == null) {
            seeds = seeds.subList(0, 1);
        }
        Figures f = run(temp, engine, seeds, Seeds.count("storh.powercut.cuts", 200, 1000), Seeds.longRun() ? 150 : 50);
        print(f);
        assertThat(f.failures()).as("replay one seed with -Dstorh.seed=N").isEmpty();
        assertThat(f.cuts()).isGreaterThan(0);
    }

    /** Prints an engine's figures and the names its run changed without the seam. */
    static void print(Figures f) {
        String engine = f.engine();
        System.out.printf("power cut %s: seeds=%s cuts=%d torn=%d mutations=%d acknowledged_ops=%d failures=%d%n",
                engine, f.seeds(), f.cuts(), f.torn(), f.mutations(), f.acknowledged(), f.failures().size());
        f.bypasses().forEach(b -> System.out.println("power cut " + engine + ": seam bypassed, not simulated: " + b));
        f.failures().stream().limit(20).forEach(x -> System.out.println("power cut " + engine + ": " + x));
    }

    /**
     * @param temp a scratch folder
     * @param engine D, L or Q
     * @param seeds one child run per seed: the first single-threaded (compaction, reindex and requeue
     *     in the op mix), every other with 4 threads per engine (group commit) and a maintenance thread
     * @param cuts cuts wanted per seed, spread over the run
     * @param budget ops per worker thread
     * @return the figures; failures name seed, cut and the mutation the cut came before
     */
    static Figures run(Path temp, String engine, List<Long> seeds, int cuts, int budget) throws Exception {
        return run(temp, engine, seeds, cuts, budget, 0);
    }

    /**
     * {@link #run(Path, String, List, int, int)} with the threads of every seed given.
     *
     * @param threads threads per engine for every seed, or 0 for the first seed single-threaded and the others 4
     */
    static Figures run(Path temp, String engine, List<Long> seeds, int cuts, int budget, int threads) throws Exception {
        List<String> failures = new ArrayList<>();
        Set<String> bypasses = new TreeSet<>();
        long total = 0;
        long torn = 0;
        long mutations = 0;
        long acknowledged = 0;
        for (int s = 0; s < seeds.size(); s++) {
            long seed = seeds.get(s);
            Path out = temp.resolve(engine + "-" + seed);
            String failed = child(temp.resolve(engine + "-" + seed + "-scratch"), out, seed, engine,
                    threads > 0 ? threads : s == 0 ? 1 : 4, budget, cuts);
            if (failed != null) {
                failures.add("seed " + seed + ": child failed: " + failed);
                continue;
            }
            List<String> lines = Files.readAllLines(out.resolve("lines.txt"));
            lines.stream().filter(l -> l.startsWith("ERR")).forEach(l -> failures.add("seed " + seed + ": workload: " + l));
            AckLedger all = new AckLedger();
            lines.forEach(all::accept);
            acknowledged += all.acknowledgedOps;
            mutations += Long.parseLong(Files.readString(out.resolve("mutations.txt")).trim());
            bypasses.addAll(Files.readAllLines(out.resolve("bypasses.txt")));
            List<java.util.concurrent.Future<List<String>>> checks = new ArrayList<>();
            for (String cut : Files.readAllLines(out.resolve("cuts.txt"))) {
                String[] f = cut.split(" ", 5);
                total++;
                boolean isTorn = Boolean.parseBoolean(f[2]);
                torn += isTorn ? 1 : 0;
                String where = "seed " + seed + " cut before mutation " + f[1] + " (" + f[4] + (isTorn ? ", torn" : "") + ")";
                List<String> before = lines.subList(0, Integer.parseInt(f[3]));
                checks.add(CHECKERS.submit(() -> check(out.resolve("cut-" + f[0]), before, engine).stream()
                        .map(x -> where + ": " + x).toList()));
            }
            for (java.util.concurrent.Future<List<String>> check : checks) {
                failures.addAll(check.get());
            }
            CrashHarnessTest.deleteTree(out);
        }
        return new Figures(engine, seeds, total, torn, mutations, acknowledged, failures, bypasses);
    }

    /** @return null when the child ran to its end, else why not */
    private static String child(Path scratch, Path out, long seed, String engine, int threads, int budget, int cuts)
            throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Files.createDirectories(scratch);
        Path log = scratch.resolve("child.log");
        Process child = new ProcessBuilder(java, "-Xmx512m", "-cp", System.getProperty("java.class.path"),
                PowerCutChild.class.getName(), scratch.toString(), out.toString(), Long.toString(seed), engine,
                Integer.toString(threads), Integer.toString(budget), Integer.toString(cuts), "0.5")
                .redirectErrorStream(true).redirectOutput(log.toFile()).start();
        if (!child.waitFor(10, TimeUnit.MINUTES)) {
            child.destroyForcibly();
            return "no end after 10 minutes";
        }
        String result = child.exitValue() == 0 ? null : "exit " + child.exitValue() + ": " + Files.readString(log);
        CrashHarnessTest.deleteTree(scratch);
        return result;
    }

    /** Opens what the cut left and checks it against what was acknowledged before it. */
    private static List<String> check(Path tree, List<String> linesBefore, String engine) throws Exception {
        try {
            AckLedger ledger = new AckLedger();
            linesBefore.forEach(ledger::accept);
            return CrashChecks.check(tree, ledger, Set.of(engine));
        } catch (RuntimeException e) {
            return List.of("reopening failed: " + e);
        } finally {
            CrashHarnessTest.deleteTree(tree);
        }
    }
}
