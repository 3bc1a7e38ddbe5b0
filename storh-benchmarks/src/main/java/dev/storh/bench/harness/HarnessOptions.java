package dev.storh.bench.harness;

import dev.storh.cache.CacheValidation;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The options of one harness run, parsed from {@code --name=value} arguments. The first four are
 * the original's, with the same defaults except the output folder
 * ({@code target/} instead of {@code build/}); the rest are ours.
 *
 * <pre>
 * --dataset=N              records per workload (default 1000; values below 1 become 1)
 * --engine=E               all (default), doc, log, queue, recovery, cache, uuid, filter, mirror,
 *                          sqlite or fsync
 * --output=FILE            results JSON (default target/bench-current.json)
 * --cache-validation=V     stat (default), hash or trust: only changes the cache section
 * --threads=T[,T...]       also time the durable single-record writes from T threads at once
 *                          (doc.put_tT, log.append_tT, queue.enqueue_tT, queue.claim_tT, queue.complete_tT)
 * --data=FILE              JSONL file whose objects are the records' payload (cycled when shorter than N);
 *                          the five fields the queries use are added to each. Default: synthetic rows.
 * --repeat=R               measured runs in this JVM; the JSON holds the median of each metric (default 1)
 * --warmup=W               runs before those, discarded (default 0 for one run, 1 with --repeat &gt; 1)
 * --dir=PATH               where the temp stores go (default java.io.tmpdir); pick the disk you measure
 * --table=FILE             also write the readable table there (it is always printed)
 * </pre>
 *
 * @param dataset records per workload, at least 1
 * @param engine the section to run, or {@code all}
 * @param output where the results JSON goes
 * @param cacheValidation the validation mode of the cache section
 * @param threads thread counts for the concurrent-write variants (empty: none)
 * @param data a JSONL file for the payload, or {@code null} for synthetic rows
 * @param repeat measured runs, at least 1
 * @param warmup discarded runs before them, at least 0
 * @param dir the parent folder of the temp stores
 * @param table where the table also goes, or {@code null}
 */
public record HarnessOptions(int dataset, String engine, Path output, CacheValidation cacheValidation,
        List<Integer> threads, Path data, int repeat, int warmup, Path dir, Path table) {

    /** Sections in run order, as the original runs them, then ours. */
    public static final List<String> SECTIONS =
            List.of("doc", "log", "queue", "recovery", "cache", "uuid", "filter", "mirror", "sqlite", "fsync");

    /** Default results file. */
    public static final Path DEFAULT_OUTPUT = Path.of("target", "bench-current.json");

    /** Thrown for an argument the harness cannot use; the message names it. */
    public static final class UsageException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        /**
         * @param message what is wrong, naming the argument
         */
        public UsageException(String message) {
            super(message);
        }
    }

    /**
     * @param args {@code --name=value} arguments
     * @return the options, with defaults for what is missing
     * @throws UsageException naming an unknown option, a value that is not a number, an unknown
     *     engine or validation mode, or a thread count below 1
     */
    public static HarnessOptions parse(String... args) {
        int dataset = 1000;
        String engine = "all";
        Path output = DEFAULT_OUTPUT;
        CacheValidation validation = CacheValidation.STAT;
        List<Integer> threads = new ArrayList<>();
        Path data = null;
        int repeat = 1;
        Integer warmup = null;
        Path dir = Path.of(System.getProperty("java.io.tmpdir"));
        Path table = null;
        for (String arg : args) {
            int eq = arg.indexOf('=');
            if (!arg.startsWith("--") || eq < 0) {
                throw new UsageException("Expected --name=value, got '" + arg + "'.");
            }
            String name = arg.substring(2, eq);
            String value = arg.substring(eq + 1);
            switch (name) {
                case "dataset" -> dataset = Math.max(1, parseInt(name, value));
                case "engine" -> engine = parseEngine(value);
                case "output" -> output = Path.of(requireValue(name, value));
                case "cache-validation" -> validation = parseValidation(value);
                case "threads" -> threads = parseThreads(value);
                case "data" -> data = Path.of(requireValue(name, value));
                case "repeat" -> repeat = atLeast(name, parseInt(name, value), 1);
                case "warmup" -> warmup = atLeast(name, parseInt(name, value), 0);
                case "dir" -> dir = Path.of(requireValue(name, value));
                case "table" -> table = Path.of(requireValue(name, value));
                default -> throw new UsageException("Unknown option '--" + name + "'.");
            }
        }
        int warm = warmup != null ? warmup : repeat > 1 ? 1 : 0;
        return new HarnessOptions(dataset, engine, output, validation, List.copyOf(threads), data, repeat, warm,
                dir, table);
    }

    /**
     * @return the sections this run executes, in order
     */
    public List<String> sections() {
        return engine.equals("all") ? SECTIONS : List.of(engine);
    }

    private static String parseEngine(String value) {
        String e = value.toLowerCase(Locale.ROOT);
        if (!e.equals("all") && !SECTIONS.contains(e)) {
            throw new UsageException("Unknown engine '" + value + "': use all or one of " + String.join(", ", SECTIONS)
                    + ".");
        }
        return e;
    }

    private static CacheValidation parseValidation(String value) {
        return switch (value.toLowerCase(Locale.ROOT)) {
            case "stat" -> CacheValidation.STAT;
            case "hash" -> CacheValidation.HASH;
            case "trust" -> CacheValidation.TRUST;
            default -> throw new UsageException("Unknown --cache-validation '" + value + "': use stat, hash or trust.");
        };
    }

    private static List<Integer> parseThreads(String value) {
        List<Integer> out = new ArrayList<>();
        for (String part : requireValue("threads", value).split(",")) {
            int t = atLeast("threads", parseInt("threads", part.trim()), 1);
            if (t > 1 && !out.contains(t)) {
                out.add(t);
            }
        }
        return out;
    }

    private static int parseInt(String name, String value) {
        try {
            return Integer.parseInt(value.trim());
        } catch (NumberFormatException e) {
            throw new UsageException("--" + name + " must be a whole number, got '" + value + "'.");
        }
    }

    private static int atLeast(String name, int value, int min) {
        if (value < min) {
            throw new UsageException("--" + name + " must be at least " + min + ", got " + value + ".");
        }
        return value;
    }

    private static String requireValue(String name, String value) {
        if (value.isBlank()) {
            throw new UsageException("--" + name + " needs a value.");
        }
        return value;
    }
}
