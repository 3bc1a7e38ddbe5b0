package dev.storh.bench.spring;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

import dev.storh.fs.AtomicFiles;

/**
 * The Spring side-by-side run: the operations a Spring application would compare, measured for a
 * storh repository and for SQLite ({@code journal_mode=WAL}, {@code synchronous=FULL}) in one JVM,
 * one after the other, on the same disk, with the same rows and six indexes each. Prints a
 * Markdown table of per-operation medians (milliseconds) and the batch save rates (records per
 * second).
 *
 * <pre>
 * java -cp storh-benchmarks/target/storh-benchmarks.jar dev.storh.bench.spring.SpringSideBySide \
 *     [--present=100000] [--saveAll=10000] [--batch=1000] [--ops=200] [--dir=/tmp] [--only=storh|sqlite] \
 *     [--index-layout=original|value-deltas]
 * </pre>
 * {@code --index-layout} picks the storh collection's index files: the original's (the default, what
 * a collection an application creates gets) or value deltas (docs/indexes.md: opt-in, for a
 * collection the PHP original does not open; writes then cost the same however many records share
 * a value).
 * {@code --present} records are bulk-loaded first (storh: records without indexes, then the
 * repository declares and builds its indexes; SQLite: batched inserts into the indexed table);
 * then {@code --saveAll} new entities are saved by {@code saveAll} in batches of {@code --batch}
 * (timed), then {@code --ops} repetitions of each single operation run against the full
 * collection.
 */
public final class SpringSideBySide {

    private SpringSideBySide() {
    }

    /**
     * @param args see the class comment
     * @throws Exception when a run fails
     */
    public static void main(String[] args) throws Exception {
        int present = intOption(args, "present", 100_000);
        int batch = intOption(args, "batch", 1_000);
        int ops = intOption(args, "ops", 200);
        int saveAll = intOption(args, "saveAll", 10_000);
        String only = option(args, "only", "");
        String layout = option(args, "index-layout", "original");
        if (!layout.equals("original") && !layout.equals("value-deltas")) {
            throw new IllegalArgumentException("--index-layout must be original or value-deltas, not " + layout);
        }
        Path parent = Path.of(option(args, "dir", System.getProperty("java.io.tmpdir")));
        List<SideResult> results = new ArrayList<>();
        for (Side side : List.of(new StorhSide(layout.equals("value-deltas")), new SqliteSide())) {
            if (!only.isEmpty() && !only.equals(side.name())) {
                continue;
            }
            Path dir = Files.createTempDirectory(parent, "storh-spring-sbs-");
            try {
                results.add(run(side, dir, present, saveAll, batch, ops));
            } finally {
                AtomicFiles.deleteTree(dir);
            }
        }
        System.out.println(table(results, present));
    }

    private static SideResult run(Side side, Path dir, int present, int saveAll, int batch, int ops) throws Exception {
        Products products = new Products(42, present);
        SideResult result = new SideResult(side instanceof StorhSide storh ? side.name() + " (" + storh.layout() + ")" : side.name());
        try (side) {
            side.open(dir);
            long start = System.nanoTime();
            for (int loaded = 0; loaded < present; loaded += batch) {
                side.load(products.next(Math.min(batch, present - loaded)));
            }
            side.ready();
            result.load = seconds(start);
            start = System.nanoTime();
            for (int saved = 0; saved < saveAll; saved += batch) {
                side.saveAll(products.next(Math.min(batch, saveAll - saved)));
            }
            result.saveAll = saveAll / seconds(start);
            List<String> newIds = new ArrayList<>(ops);
            result.save = median(ops, (i) -> newIds.add(side.save(products.next(1).get(0))));
            result.get = median(ops, (i) -> side.get(newIds.get(i)));
            result.deleteById = median(ops, (i) -> side.deleteById(newIds.get(i)));
            int reads = Math.max(ops, 50);
            result.page = median(reads, (i) -> side.pageByCategorySortedByName(products.category(i), i % 5, 20));
            result.priceBetween = median(reads, (i) -> side.priceBetween(products.priceRange(i, present, 100)));
            result.brandFirst100 = median(reads, (i) -> side.firstHundredByBrand(products.brand(i)));
            result.countBrand = median(reads, (i) -> side.countByBrand(products.brand(i)));
        }
        return result;
    }

    private static double seconds(long start) {
        return (System.nanoTime() - start) / 1e9;
    }

    /** One timed operation; {@code i} is the repetition. */
    @FunctionalInterface
    interface Op {
        void run(int i) throws Exception;
    }

    private static double median(int times, Op op) throws Exception {
        double[] ms = new double[times];
        for (int i = 0; i < times; i++) {
            long start = System.nanoTime();
            op.run(i);
            ms[i] = (System.nanoTime() - start) / 1e6;
        }
        Arrays.sort(ms);
        return ms[times / 2];
    }

    private static String table(List<SideResult> results, int present) {
        StringBuilder out = new StringBuilder();
        out.append("| operation (").append(present).append(" records present) |");
        for (SideResult r : results) {
            out.append(' ').append(r.side).append(" |");
        }
        out.append('\n').append("| --- |");
        results.forEach((r) -> out.append(" ---: |"));
        out.append('\n');
        row(out, results, "bulk load of the records present (s)", (r) -> String.format(Locale.ROOT, "%.1f", r.load));
        row(out, results, "saveAll of new entities in batches (records/s)", (r) -> rate(r.saveAll));
        row(out, results, "save of a new record, median ms", (r) -> ms(r.save));
        row(out, results, "findById, median ms", (r) -> ms(r.get));
        row(out, results, "deleteById, median ms", (r) -> ms(r.deleteById));
        row(out, results, "page of 20 by category sorted by name (with total), median ms", (r) -> ms(r.page));
        row(out, results, "findByPriceBetween, 100 results, median ms", (r) -> ms(r.priceBetween));
        row(out, results, "first 100 by brand (equality), median ms", (r) -> ms(r.brandFirst100));
        row(out, results, "countByBrand, median ms", (r) -> ms(r.countBrand));
        return out.toString();
    }

    private static void row(StringBuilder out, List<SideResult> results, String name,
            java.util.function.Function<SideResult, String> cell) {
        out.append("| ").append(name).append(" |");
        for (SideResult r : results) {
            out.append(' ').append(cell.apply(r)).append(" |");
        }
        out.append('\n');
    }

    private static String rate(double perSecond) {
        return perSecond == 0 ? "" : String.format(Locale.ROOT, "%,.0f", perSecond);
    }

    private static String ms(double ms) {
        return String.format(Locale.ROOT, ms < 1 ? "%.3f" : "%.2f", ms);
    }

    /** @return the value of {@code --name=value} in {@code args}, or {@code otherwise} */
    static String option(String[] args, String name, String otherwise) {
        for (String arg : args) {
            if (arg.startsWith("--" + name + "=")) {
                return arg.substring(name.length() + 3);
            }
        }
        return otherwise;
    }

    /** @return the integer value of {@code --name=value} in {@code args}, or {@code otherwise} */
    static int intOption(String[] args, String name, int otherwise) {
        return Integer.parseInt(option(args, name, Integer.toString(otherwise)));
    }

    /** The figures of one side. */
    private static final class SideResult {
        private final String side;
        private double load;
        private double saveAll;
        private double save;
        private double get;
        private double deleteById;
        private double page;
        private double priceBetween;
        private double brandFirst100;
        private double countBrand;

        SideResult(String side) {
            this.side = side;
        }
    }
}
