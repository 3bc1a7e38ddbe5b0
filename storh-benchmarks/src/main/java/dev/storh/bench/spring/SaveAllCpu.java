package dev.storh.bench.spring;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

import dev.storh.fs.AtomicFiles;

/**
 * The steady-state cost of repository {@code saveAll} batches, in the caller thread's CPU time as
 * well as wall time: {@code --present} products of {@link SpringSideBySide} are bulk-loaded and
 * their six indexes built (value deltas unless {@code --index-layout=original}), then
 * {@code --batches} batches of {@code --batch} new products are saved one after the other. Prints
 * each batch's wall and CPU milliseconds, then the medians of the second half of the batches (the
 * first ones run while the JIT compiles). On a loaded or I/O-bound machine the CPU figure says what
 * the batch costs where the wall figure says how long it waited.
 *
 * <pre>
 * java -cp storh-benchmarks/target/storh-benchmarks.jar dev.storh.bench.spring.SaveAllCpu \
 *     [--present=20000] [--batch=1000] [--batches=8] [--index-layout=value-deltas|original] [--dir=/tmp]
 * </pre>
 */
public final class SaveAllCpu {

    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    private SaveAllCpu() {
    }

    /**
     * @param args see the class comment
     * @throws Exception when a run fails
     */
    public static void main(String[] args) throws Exception {
        int present = SpringSideBySide.intOption(args, "present", 20_000);
        int batch = SpringSideBySide.intOption(args, "batch", 1_000);
        int batches = SpringSideBySide.intOption(args, "batches", 8);
        boolean valueDeltas = !SpringSideBySide.option(args, "index-layout", "value-deltas").equals("original");
        Path parent = Path.of(SpringSideBySide.option(args, "dir", System.getProperty("java.io.tmpdir")));
        Path dir = Files.createTempDirectory(parent, "storh-saveall-cpu-");
        Products products = new Products(42, present + batch * batches);
        double[] wall = new double[batches];
        double[] cpu = new double[batches];
        try (StorhSide side = new StorhSide(valueDeltas)) {
            side.open(dir);
            for (int loaded = 0; loaded < present; loaded += batch) {
                side.load(products.next(Math.min(batch, present - loaded)));
            }
            side.ready();
            for (int i = 0; i < batches; i++) {
                List<Product> next = products.next(batch);
                long w = System.nanoTime();
                long c = THREADS.getCurrentThreadCpuTime();
                side.saveAll(next);
                cpu[i] = (THREADS.getCurrentThreadCpuTime() - c) / 1e6;
                wall[i] = (System.nanoTime() - w) / 1e6;
                System.out.printf(Locale.ROOT, "batch %d: wall %.1f ms, cpu %.1f ms%n", i + 1, wall[i], cpu[i]);
            }
        }
        finally {
            AtomicFiles.deleteTree(dir);
        }
        System.out.printf(Locale.ROOT, "%d present, batches of %d (%s): median of the last %d batches: wall %.1f ms,"
                + " cpu %.1f ms a batch%n", present, batch, valueDeltas ? "value deltas" : "original layout",
                batches - batches / 2, secondHalfMedian(wall), secondHalfMedian(cpu));
    }

    private static double secondHalfMedian(double[] values) {
        double[] half = Arrays.copyOfRange(values, values.length / 2, values.length);
        Arrays.sort(half);
        return half[half.length / 2];
    }
}
