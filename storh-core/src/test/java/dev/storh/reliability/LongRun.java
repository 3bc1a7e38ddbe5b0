package dev.storh.reliability;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;

/**
 * Runs the long crash harness outside a test runner, in chunks of independent seeds, appending one
 * summary line per chunk to a file (so that a run stopped early still counts what it did):
 * {@code java -cp <test classpath> dev.storh.reliability.LongRun <scratch> <summary file> <first
 * seed> <chunks> <rounds per chunk> [threads per engine, default 4]}. A quarter of the kills land
 * anywhere from the child's start.
 */
public final class LongRun {

    private LongRun() {
    }

    public static void main(String[] args) throws Exception {
        Path scratch = Path.of(args[0]);
        Path summary = Path.of(args[1]);
        long first = Long.parseLong(args[2]);
        int chunks = Integer.parseInt(args[3]);
        int rounds = Integer.parseInt(args[4]);
        int threads = args.length > 5 ? Integer.parseInt(args[5]) : CrashHarnessTest.LONG_THREADS;
        for (int c = 0; c < chunks; c++) {
            long seed = first + c;
            Path temp = Files.createDirectories(scratch.resolve("chunk-" + seed));
            CrashHarnessTest.Result r = CrashHarnessTest.runCounted(temp, List.of(seed), rounds, 4, threads);
            String line = "seed=" + seed + " rounds=" + r.rounds() + " threads=" + threads + " acknowledged_ops=" + r.acknowledged()
                    + " killed_during_open=" + r.killedDuringOpen() + " failures=" + r.failures().size()
                    + " killed_during=" + r.killedDuring().toString().replace(" ", "")
                    + (r.failures().isEmpty() ? "" : " first: " + r.failures().get(0));
            Files.writeString(summary, line + System.lineSeparator(), StandardOpenOption.CREATE, StandardOpenOption.APPEND);
            if (r.failures().isEmpty()) {
                CrashHarnessTest.deleteTree(temp); // a failed chunk keeps its root and the children's output as evidence
            }
        }
    }
}
