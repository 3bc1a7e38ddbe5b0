package dev.storh.reliability;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;

/**
 * Runs the long power-cut run of {@link PowerCutTest} outside a test runner, one engine and one
 * seed at a time, appending one summary line per seed to a file (so that a run stopped early still
 * counts what it did): {@code java -cp <test classpath> dev.storh.reliability.PowerCutLongRun
 * <scratch> <summary file> <engines, e.g. DLQ> <first seed> <seeds> <cuts per seed> <ops per thread>}.
 * The first seed runs single-threaded, every other with 4 threads per engine.
 */
public final class PowerCutLongRun {

    private PowerCutLongRun() {
    }

    public static void main(String[] args) throws Exception {
        Path scratch = Path.of(args[0]);
        Path summary = Path.of(args[1]);
        String engines = args[2];
        long first = Long.parseLong(args[3]);
        int seeds = Integer.parseInt(args[4]);
        int cuts = Integer.parseInt(args[5]);
        int budget = Integer.parseInt(args[6]);
        for (int s = 0; s < seeds; s++) {
            for (char engine : engines.toCharArray()) {
                Path temp = Files.createDirectories(scratch.resolve(engine + "-" + (first + s)));
                PowerCutTest.Figures f = PowerCutTest.run(temp, String.valueOf(engine), List.of(first + s), cuts, budget,
                        s == 0 ? 1 : 4);
                String line = "engine=" + engine + " seed=" + (first + s) + " threads=" + (s == 0 ? 1 : 4) + " cuts=" + f.cuts()
                        + " torn=" + f.torn() + " mutations=" + f.mutations() + " acknowledged_ops=" + f.acknowledged()
                        + " failures=" + f.failures().size() + (f.failures().isEmpty() ? "" : " first: " + f.failures().get(0));
                Files.writeString(summary, line + System.lineSeparator(), StandardOpenOption.CREATE, StandardOpenOption.APPEND);
                CrashHarnessTest.deleteTree(temp);
            }
        }
    }
}
