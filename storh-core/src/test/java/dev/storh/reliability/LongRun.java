package dev.storh.reliability;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;

/**
 * Runs the long crash harness outside a test runner, in chunks of independent seeds, appending one
 * summary line per chunk to a file (so that a run stopped early still counts what it did):
 * {@code java -cp <test classpath> dev.storh.reliability.LongRun <scratch> <summary file> <first
 * seed> <chunks> <rounds per chunk>}. A quarter of the kills land anywhere from the child's start.
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
        for (int c = 0; c < chunks; c++) {
            long seed = first + c;
            Path temp = Files.createDirectories(scratch.resolve("chunk-" + seed));
            CrashHarnessTest.Result r = CrashHarnessTest.runCounted(temp, List.of(seed), rounds, 4);
            String line = "seed=" + seed + " rounds=" + r.rounds() + " acknowledged_ops=" + r.acknowledged()
                    + " killed_during_open=" + r.killedDuringOpen() + " failures=" + r.failures().size()
                    + (r.failures().isEmpty() ? "" : " first: " + r.failures().get(0));
            Files.writeString(summary, line + System.lineSeparator(), StandardOpenOption.CREATE, StandardOpenOption.APPEND);
            CrashHarnessTest.deleteTree(temp);
        }
    }
}
