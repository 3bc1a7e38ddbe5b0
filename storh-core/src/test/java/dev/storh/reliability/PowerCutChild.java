package dev.storh.reliability;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;

/**
 * Child JVM of {@link PowerCutTest}: runs {@link CrashWorkload} on one engine over a
 * {@link PowerCutDisk} and writes out what each simulated power cut left, so that the parent opens
 * the stores after this process has ended (a reboot: no writer of before the cut is alive). First
 * a run without cuts counts the workload's mutations, so that the cuts of the second run spread over
 * all of it.
 *
 * <p>Output folder: {@code lines.txt} (the workload's lines), {@code cuts.txt} (one line per cut:
 * {@code <k> <mutation> <torn> <ledger lines> <the mutation it came before>}), {@code cut-<k>/}
 * (the tree), {@code bypasses.txt}, {@code mutations.txt}.
 */
public final class PowerCutChild {

    private PowerCutChild() {
    }

    /**
     * @param args scratch folder, output folder, seed, engine letter, threads, op budget per thread,
     *     cuts wanted, tear chance
     */
    public static void main(String[] args) throws Exception {
        Path scratch = Path.of(args[0]);
        Path out = Path.of(args[1]);
        long seed = Long.parseLong(args[2]);
        String engine = args[3];
        int threads = Integer.parseInt(args[4]);
        int budget = Integer.parseInt(args[5]);
        int cuts = Integer.parseInt(args[6]);
        double tear = Double.parseDouble(args[7]);
        long measured = run(scratch.resolve("measure"), seed, engine, threads, budget, 0, 0, tear,
                Collections.synchronizedList(new ArrayList<>())).mutations();
        List<String> lines = Collections.synchronizedList(new ArrayList<>());
        PowerCutDisk disk = run(scratch.resolve("disk"), seed, engine, threads, budget,
                Math.min(1.0, cuts / (double) Math.max(1, measured)), cuts, tear, lines);
        Files.createDirectories(out);
        List<String> index = new ArrayList<>();
        int k = 0;
        for (PowerCutDisk.Snapshot cut : disk.snapshots()) {
            cut.materialize(out.resolve("cut-" + k));
            index.add(k + " " + cut.mutation() + " " + cut.torn() + " " + cut.ledgerLines() + " " + cut.before());
            k++;
        }
        Files.write(out.resolve("lines.txt"), lines);
        Files.write(out.resolve("cuts.txt"), index);
        Files.write(out.resolve("bypasses.txt"), disk.bypasses().stream().sorted().toList());
        Files.writeString(out.resolve("mutations.txt"), Long.toString(disk.mutations()));
    }

    private static PowerCutDisk run(Path top, long seed, String engine, int threads, int budget, double chance,
            int cuts, double tear, List<String> lines) throws Exception {
        Files.createDirectories(top);
        PowerCutDisk disk = new PowerCutDisk(top, seed, chance, cuts, tear, lines::size);
        CrashWorkload.run(top, seed, "p", new CrashWorkload.Config(Set.of(engine), threads, budget, threads == 1,
                disk::files), lines::add);
        return disk;
    }
}
