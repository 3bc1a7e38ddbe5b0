package dev.storh.bench.harness;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.OffsetDateTime;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.StringJoiner;
import java.util.concurrent.ExecutionException;

/**
 * The whole-run benchmark harness: the original's workloads under its metric names,
 * plus SQLite and a raw fsync probe on the same disk, a repeat mode with
 * warm-up runs and medians, a compare command and a regression gate. The jar's main class.
 *
 * <pre>
 * java -jar storh-benchmarks.jar [--dataset=N] [--engine=E] [--output=FILE] [--threads=T] [--repeat=R] ...
 * java -jar storh-benchmarks.jar compare BASELINE.json CURRENT.json
 * java -jar storh-benchmarks.jar gate --baseline=FILE --current=FILE [--threshold=400%|5x] [--floor=0.5ms] [--metrics=a.b,c.d]
 * java -jar storh-benchmarks.jar median --output=FILE RUN1.json RUN2.json ...   (runs made by separate JVMs)
 * java -cp storh-benchmarks.jar org.openjdk.jmh.Main [JMH options]     (the microbenchmarks)
 * </pre>
 *
 * Options are listed on {@link HarnessOptions}. Exit codes: 0 done (gate passed), 1 the gate
 * failed or a workload threw, 2 a usage error.
 *
 * <p>Each section runs in a fresh temp folder under {@code --dir} (deleted afterwards), with a
 * forced GC between sections, as the original does. One harness runs at a time per JVM.
 */
public final class Harness {

    private Harness() {
    }

    /**
     * @param args see the class comment
     */
    public static void main(String[] args) {
        int code = execute(args, System.out, System.err);
        System.out.flush();
        System.exit(code);
    }

    /**
     * Runs one command and returns its exit code instead of exiting.
     *
     * @param args see the class comment
     * @param out where the table and reports go
     * @param err where errors and progress go
     * @return 0, 1 or 2 as the class comment says
     */
    public static int execute(String[] args, PrintStream out, PrintStream err) {
        try {
            if (args.length > 0 && (args[0].equals("--help") || args[0].equals("-h") || args[0].equals("help"))) {
                out.print(usage());
                return 0;
            }
            if (args.length > 0 && args[0].equals("compare")) {
                return compare(Arrays.copyOfRange(args, 1, args.length), out);
            }
            if (args.length > 0 && args[0].equals("gate")) {
                return gate(Arrays.copyOfRange(args, 1, args.length), out);
            }
            if (args.length > 0 && args[0].equals("median")) {
                return median(Arrays.copyOfRange(args, 1, args.length), out);
            }
            return run(HarnessOptions.parse(args), out, err);
        } catch (HarnessOptions.UsageException | IllegalArgumentException e) {
            err.println("storh-benchmarks: " + e.getMessage());
            err.print(usage());
            return 2;
        } catch (Exception e) {
            Throwable cause = e instanceof ExecutionException && e.getCause() != null ? e.getCause() : e;
            err.println("storh-benchmarks: failed: " + describe(cause));
            return 1;
        }
    }

    /**
     * @param failure what stopped the run
     * @return the failure and each cause ({@code Class: message}), each with the first frames that
     *     locate it, on one line with {@code |} between the parts
     */
    static String describe(Throwable failure) {
        StringJoiner line = new StringJoiner(" | ");
        for (Throwable t = failure; t != null; t = (t.getCause() == t) ? null : t.getCause()) {
            line.add((t == failure ? "" : "caused by ") + t);
            StackTraceElement[] frames = t.getStackTrace();
            for (int i = 0; i < Math.min(frames.length, 5); i++) {
                line.add("at " + frames[i]);
            }
        }
        return line.toString().replace('\n', ' ');
    }

    static String usage() {
        return """
                usage: java -jar storh-benchmarks.jar [--dataset=N]
                                  [--engine=all|doc|log|queue|recovery|cache|uuid|filter|mirror|sqlite|fsync]
                                  [--output=FILE] [--cache-validation=stat|hash|trust] [--threads=T[,T..]]
                                  [--data=FILE.jsonl] [--repeat=R] [--warmup=W] [--dir=PATH] [--table=FILE]
                       java -jar storh-benchmarks.jar compare BASELINE.json CURRENT.json
                       java -jar storh-benchmarks.jar gate --baseline=FILE --current=FILE [--threshold=400%|5x]
                                  [--floor=0.5ms] [--metrics=a.b,..]
                       java -jar storh-benchmarks.jar median --output=FILE RUN1.json RUN2.json ...
                       java -cp storh-benchmarks.jar org.openjdk.jmh.Main [JMH options]
                """;
    }

    /**
     * Runs the chosen sections (warm-ups, then the measured runs), writes the JSON and prints the table.
     *
     * @param options the options
     * @param out where the table goes
     * @param err where progress goes
     * @return the exit code
     * @throws Exception when a workload fails
     */
    static int run(HarnessOptions options, PrintStream out, PrintStream err) throws Exception {
        Files.createDirectories(options.dir());
        Rows rows = options.data() == null ? Rows.synthetic() : Rows.fromFile(options.data(), options.dataset());
        List<Results> measured = new ArrayList<>();
        int total = options.warmup() + options.repeat();
        for (int r = 0; r < total; r++) {
            boolean warm = r < options.warmup();
            long start = System.nanoTime();
            Results one = runOnce(options, rows);
            err.printf(Locale.ROOT, "%s %d/%d done in %.1f s%n", warm ? "warm-up run" : "run",
                    warm ? r + 1 : r - options.warmup() + 1, warm ? options.warmup() : options.repeat(),
                    (System.nanoTime() - start) / 1e9);
            if (!warm) {
                measured.add(one);
            }
        }
        Results results = measured.size() == 1 ? measured.get(0) : Results.median(measured);
        Map<String, Object> header = header(options, rows);
        Path output = options.output().toAbsolutePath();
        Files.createDirectories(output.getParent());
        Files.writeString(output, results.toJson(header), StandardCharsets.UTF_8);
        String table = ResultsTable.render(results, heading(options, rows, header));
        out.print(table);
        out.println("results: " + output);
        if (options.table() != null) {
            Path t = options.table().toAbsolutePath();
            Files.createDirectories(t.getParent());
            Files.writeString(t, table, StandardCharsets.UTF_8);
        }
        return 0;
    }

    /**
     * One pass over the chosen sections.
     *
     * @param options the options
     * @param rows the records
     * @return the measurements
     * @throws Exception when a workload fails
     */
    static Results runOnce(HarnessOptions options, Rows rows) throws Exception {
        Results results = new Results();
        for (String section : options.sections()) {
            Path dir = Files.createTempDirectory(options.dir(), "storh-bench-" + ProcessHandle.current().pid() + "-");
            try {
                SectionRun b = new SectionRun(section, options.dataset(), rows, dir, options, results);
                switch (section) {
                    case "doc" -> DocWorkload.run(b);
                    case "log" -> LogWorkload.run(b);
                    case "queue" -> QueueWorkload.run(b);
                    case "recovery" -> RecoveryAndCacheWorkloads.recovery(b);
                    case "cache" -> RecoveryAndCacheWorkloads.cache(b);
                    case "uuid" -> CpuWorkloads.uuid(b);
                    case "filter" -> CpuWorkloads.filter(b);
                    case "mirror" -> MirrorWorkload.run(b);
                    case "sqlite" -> SqliteWorkload.run(b);
                    case "fsync" -> FsyncProbe.run(b);
                    default -> throw new IllegalStateException("No workload for section " + section);
                }
            } finally {
                dev.storh.fs.AtomicFiles.deleteTree(dir);
                System.gc();
            }
        }
        return results;
    }

    private static Map<String, Object> header(HarnessOptions options, Rows rows) throws IOException {
        Map<String, Object> runtime = new LinkedHashMap<>();
        runtime.put("java", System.getProperty("java.version"));
        runtime.put("vm", System.getProperty("java.vm.name"));
        runtime.put("vmVersion", System.getProperty("java.vm.version"));
        runtime.put("vendor", System.getProperty("java.vendor"));
        runtime.put("os", System.getProperty("os.name") + " " + System.getProperty("os.version"));
        runtime.put("arch", System.getProperty("os.arch"));
        runtime.put("cpus", Runtime.getRuntime().availableProcessors());
        runtime.put("maxHeapBytes", Runtime.getRuntime().maxMemory());
        runtime.put("storeDir", options.dir().toAbsolutePath().toString());
        runtime.put("fileSystem", Files.getFileStore(options.dir()).type());
        Map<String, Object> h = new LinkedHashMap<>();
        h.put("dataset", options.dataset());
        h.put("engine", options.engine());
        h.put("java", System.getProperty("java.version"));
        h.put("runtime", runtime);
        h.put("time", OffsetDateTime.now().truncatedTo(ChronoUnit.SECONDS).toString());
        h.put("cacheValidation", options.cacheValidation().name().toLowerCase(Locale.ROOT));
        h.put("data", rows.label());
        h.put("threads", options.threads());
        h.put("repeat", options.repeat());
        h.put("warmup", options.warmup());
        return h;
    }

    private static List<String> heading(HarnessOptions options, Rows rows, Map<String, Object> header) {
        @SuppressWarnings("unchecked")
        Map<String, Object> rt = (Map<String, Object>) header.get("runtime");
        List<String> lines = new ArrayList<>();
        lines.add(String.format(Locale.ROOT, "storh benchmarks, %s: dataset %,d, engine %s, data %s, cache validation %s%s",
                header.get("time"), options.dataset(), options.engine(), rows.label(), header.get("cacheValidation"),
                options.threads().isEmpty() ? "" : ", threads " + options.threads()));
        lines.add(String.format(Locale.ROOT, "machine: %s cpus, %s %s, %s; stores in %s (%s)", rt.get("cpus"),
                rt.get("vm"), rt.get("java"), rt.get("os"), rt.get("storeDir"), rt.get("fileSystem")));
        lines.add(options.repeat() == 1 && options.warmup() == 0
                ? "mode: one cold run, no warm-up: each figure includes JIT compilation and first-touch costs, "
                        + "as the original's single run does"
                : String.format(Locale.ROOT, "mode: median of %d run(s) after %d warm-up run(s) in the same JVM "
                        + "(discarded), so the JIT has compiled the hot paths", options.repeat(), options.warmup()));
        if (options.sections().contains("mirror")) {
            String pg = System.getProperty(MirrorWorkload.POSTGRES_PROPERTY, System.getenv(MirrorWorkload.POSTGRES_ENV));
            lines.add("mirror: SQLite file" + (pg == null || pg.isBlank() ? " (no PostgreSQL: set -D"
                    + MirrorWorkload.POSTGRES_PROPERTY + "= or " + MirrorWorkload.POSTGRES_ENV + " for mirror.postgresql.*)"
                    : " and PostgreSQL"));
        }
        lines.add("");
        return lines;
    }

    private static int compare(String[] args, PrintStream out) {
        if (args.length != 2) {
            throw new IllegalArgumentException("compare takes two results files: BASELINE CURRENT.");
        }
        out.print(Gate.compare(Results.read(Path.of(args[0])), Results.read(Path.of(args[1]))));
        return 0;
    }

    private static int gate(String[] args, PrintStream out) {
        Path baseline = null;
        Path current = null;
        double threshold = Gate.DEFAULT_THRESHOLD_PERCENT;
        double floor = Gate.DEFAULT_FLOOR_SECONDS;
        List<String> metrics = Gate.DEFAULT_METRICS;
        for (String arg : args) {
            int eq = arg.indexOf('=');
            String name = eq < 0 ? arg : arg.substring(0, eq);
            String value = eq < 0 ? "" : arg.substring(eq + 1);
            switch (name) {
                case "--baseline" -> baseline = Path.of(value);
                case "--current" -> current = Path.of(value);
                case "--threshold" -> threshold = Gate.parseThreshold(value);
                case "--floor" -> floor = Gate.parseFloor(value);
                case "--metrics" -> metrics = Arrays.stream(value.split(",")).map(String::trim)
                        .filter(s -> !s.isEmpty()).toList();
                default -> throw new IllegalArgumentException("Unknown gate option '" + arg + "'.");
            }
        }
        if (baseline == null || current == null || metrics.isEmpty()) {
            throw new IllegalArgumentException("gate needs --baseline=FILE, --current=FILE and at least one metric.");
        }
        Gate.Verdict verdict = Gate.check(Results.read(baseline), Results.read(current), metrics, threshold, floor);
        out.print(verdict.render());
        return verdict.passed() ? 0 : 1;
    }

    private static int median(String[] args, PrintStream out) throws IOException {
        Path output = null;
        List<Path> inputs = new ArrayList<>();
        for (String arg : args) {
            if (arg.startsWith("--output=")) {
                output = Path.of(arg.substring("--output=".length()));
            } else if (arg.startsWith("--")) {
                throw new IllegalArgumentException("Unknown median option '" + arg + "'.");
            } else {
                inputs.add(Path.of(arg));
            }
        }
        if (output == null || inputs.isEmpty()) {
            throw new IllegalArgumentException("median needs --output=FILE and at least one results file.");
        }
        List<Results> runs = inputs.stream().map(Results::read).toList();
        Map<String, Object> header = Results.header(inputs.get(0));
        header.put("repeat", runs.size());
        Results merged = Results.median(runs);
        Path target = output.toAbsolutePath();
        Files.createDirectories(target.getParent());
        Files.writeString(target, merged.toJson(header), StandardCharsets.UTF_8);
        out.println("median of " + runs.size() + " runs: " + target);
        return 0;
    }
}
