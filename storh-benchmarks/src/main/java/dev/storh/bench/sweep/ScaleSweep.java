package dev.storh.bench.sweep;

import dev.storh.StorageRecord;
import dev.storh.cache.CacheValidation;
import dev.storh.doc.DocLayout;
import dev.storh.doc.DocStore;
import dev.storh.id.UuidV7;
import dev.storh.json.CanonicalJson;
import dev.storh.query.Direction;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.Callable;
import java.util.stream.Stream;

/**
 * The scale sweep of the document store: open, get p50/p99 (cold: first read of an id since the
 * start; warm: read again once the cached entries have settled), indexed equality {@code limit(100)}, indexed range (the
 * first on the instance, then the median of 20), {@code orderBy}
 * with {@code limit(10)}, count (first after the start, then warm), stream, verify, reindex, and
 * the peak heap of each step, at one collection size. The collection is generated once into
 * {@code <dir>/<records>/} (record files written directly, then three indexes built) and reused by
 * later runs. Each size runs in a fresh JVM, under the heap to prove. The whole sweep, one child
 * JVM per size under {@code -Xmx256m} (generation in a child of its own), printing the Markdown
 * table:
 *
 * <pre>
 * java -cp storh-benchmarks/target/storh-benchmarks.jar dev.storh.bench.sweep.ScaleSweep \
 *     --sizes=10000,100000,1000000 --dir=/tmp/storh-sweep
 * </pre>
 *
 * One size in this JVM: {@code java -Xmx256m -cp … ScaleSweep --records=100000 --dir=/tmp/storh-sweep}
 * prints one row (and the header with {@code --header}). Times in milliseconds unless a unit is
 * named; a step that runs out of heap shows {@code OOM}.
 */
public final class ScaleSweep {

    private static final String COLLECTION = "sweep";
    private static final String[] KINDS = {"page", "post", "note"};
    private static final long START = 1_700_000_000_000L;
    private static final int GETS = 1000;

    /** The row's cells so far; each is also printed to standard error as it is measured. */
    private final Map<String, String> row = new LinkedHashMap<>() {
        @Override
        public String put(String key, String value) {
            System.err.println(key + ": " + value);
            return super.put(key, value);
        }
    };
    private long peakBytes;
    /** The names of the timed steps to leave out ({@code --skip}). */
    private final java.util.Set<String> skipped;

    private ScaleSweep(java.util.Set<String> skipped) {
        this.skipped = skipped;
    }

    /**
     * @param args {@code --records=N} (default 10000), {@code --dir=D} (default /tmp/storh-sweep),
     *     {@code --header} to print the table header first, {@code --generate-only} to stop after
     *     generating (with a larger heap than the sweep's, as the index build needs),
     *     {@code --skip=stream,verify} to leave out the named timed steps (the names of the row's
     *     cells; a skipped step's cell shows {@code -}), passed on to the children of {@code --sizes}
     * @throws Exception when a step fails
     */
    public static void main(String[] args) throws Exception {
        int records = 10_000;
        Path dir = Path.of("/tmp/storh-sweep");
        boolean header = false;
        boolean generateOnly = false;
        String sizes = null;
        boolean putStream = false;
        String heap = "256m";
        String skip = "";
        for (String a : args) {
            if (a.startsWith("--sizes=")) {
                sizes = a.substring("--sizes=".length());
            } else if (a.startsWith("--skip=")) {
                skip = a.substring("--skip=".length());
            } else if (a.startsWith("--heap=")) {
                heap = a.substring("--heap=".length());
            } else if (a.startsWith("--records=")) {
                records = Integer.parseInt(a.substring("--records=".length()));
            } else if (a.startsWith("--dir=")) {
                dir = Path.of(a.substring("--dir=".length()));
            } else if (a.equals("--header")) {
                header = true;
            } else if (a.equals("--put-stream")) {
                putStream = true;
            } else if (a.equals("--generate-only")) {
                generateOnly = true;
            } else {
                throw new IllegalArgumentException("Unknown argument: " + a);
            }
        }
        if (sizes != null) {
            sweepInChildren(sizes, dir, heap, putStream, skip);
            return;
        }
        Path root = dir.resolve(Integer.toString(records));
        if (!Files.exists(root.resolve(COLLECTION).resolve(DocLayout.DATA))) {
            generate(root, records);
        }
        if (generateOnly) {
            return;
        }
        ScaleSweep sweep = new ScaleSweep(skip.isEmpty() ? java.util.Set.of() : java.util.Set.of(skip.split(",")));
        sweep.run(root, records);
        if (putStream) {
            sweep.putStream(dir.resolve(records + "-put"), records);
        }
        if (header) {
            System.out.println("| " + String.join(" | ", sweep.row.keySet()) + " |");
            System.out.println("|" + " ---: |".repeat(sweep.row.size()));
        }
        System.out.println("| " + String.join(" | ", sweep.row.values()) + " |");
    }

    /**
     * Runs each size in a child JVM under {@code -Xmx<heap>} (generating it first in a child with
     * 1 GiB when missing) and prints the table: the header once, one row per size.
     */
    private static void sweepInChildren(String sizes, Path dir, String heap, boolean putStream, String skip)
            throws IOException, InterruptedException {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        String cp = System.getProperty("java.class.path");
        boolean first = true;
        for (String size : sizes.split(",")) {
            List<String> common = List.of("-cp", cp, ScaleSweep.class.getName(), "--records=" + size.trim(), "--dir=" + dir);
            List<String> generate = new ArrayList<>(List.of(java, "-Xmx1g"));
            generate.addAll(common);
            generate.add("--generate-only");
            run(generate, false);
            List<String> sweep = new ArrayList<>(List.of(java, "-Xmx" + heap));
            sweep.addAll(common);
            if (first) {
                sweep.add("--header");
            }
            if (putStream) {
                sweep.add("--put-stream");
            }
            if (!skip.isEmpty()) {
                sweep.add("--skip=" + skip);
            }
            first = false;
            run(sweep, true);
        }
    }

    private static void run(List<String> command, boolean printRows) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT).start();
        String out = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        int rc = p.waitFor();
        if (printRows) {
            System.out.print(out);
            System.out.flush();
        }
        if (rc != 0) {
            throw new IllegalStateException("exit " + rc + ": " + String.join(" ", command));
        }
    }

    /** Writes {@code n} record files directly (no fsync: a benchmark fixture), then builds three indexes. */
    private static void generate(Path root, int n) throws IOException {
        Path data = root.resolve(COLLECTION).resolve(DocLayout.DATA);
        Random random = new Random(0);
        long t0 = System.nanoTime();
        for (int i = 0; i < n; i++) {
            String id = UuidV7.generate(START + i);
            Map<String, Object> fields = new LinkedHashMap<>();
            fields.put("kind", KINDS[i % KINDS.length]);
            fields.put("bucket", (long) (i % 10));
            fields.put("publishedAt", START + i);
            fields.put("status", random.nextInt(3) == 0 ? "draft" : "published");
            fields.put("title", "Record number " + i);
            Path bucket = data.resolve(DocLayout.bucketOf(id));
            if (i < 256 * 4 || !Files.isDirectory(bucket)) {
                Files.createDirectories(bucket);
            }
            Files.write(bucket.resolve(DocLayout.recordFileName(id)), CanonicalJson.recordBytes(id, fields));
        }
        try (DocStore store = DocStore.open(root, COLLECTION)) {
            store.indexes().field("kind").index().field("bucket").index().field("publishedAt").range().sync();
        }
        System.err.printf(Locale.ROOT, "generated %d records in %.1f s%n", n, (System.nanoTime() - t0) / 1e9);
    }

    private void run(Path root, int n) throws Exception {
        row.put("records", String.format(Locale.ROOT, "%,d", n));
        DocStore first = timed("open cold", () -> DocStore.open(root, COLLECTION));
        Long count = timed("count first", first::count);
        if (count != null && count != n) { // null: skipped
            throw new IllegalStateException("expected " + n + " records, counted " + count);
        }
        first.close();
        double[] opens = new double[5];
        for (int i = 0; i < opens.length; i++) {
            long t = System.nanoTime();
            DocStore again = DocStore.open(root, COLLECTION);
            opens[i] = (System.nanoTime() - t) / 1e6;
            again.close();
        }
        row.put("open warm", ms(median(opens)));
        try (DocStore store = DocStore.open(root, COLLECTION)) {
            timed("count warm", store::count);
            List<String> ids = sampleIds(store, n);
            row.put("get cold p50/p99 µs", gets(store, ids));
            // Cached entries settle at their first hit 2 s after they were filled (CacheValidation.STAT).
            Thread.sleep(CacheValidation.SETTLE_MILLIS + 100);
            gets(store, ids);
            row.put("get warm p50/p99 µs", gets(store, ids));
            long mid = START + n / 2;
            repeated("equality", 20, () -> store.query().where("kind").eq("page").limit(100).get().size());
            timed("range first", () -> store.query().where("publishedAt").between(mid, mid + 100).get().size());
            repeated("range", 20, () -> store.query().where("publishedAt").between(mid, mid + 100).get().size());
            repeated("orderBy limit 10", 3,
                    () -> store.query().orderBy("publishedAt", Direction.ASC).limit(10).get().size());
            repeated("orderBy desc limit 10", 3,
                    () -> store.query().orderBy("publishedAt", Direction.DESC).limit(10).get().size());
            repeated("eq orderBy limit 10", 3, () -> store.query().where("kind").eq("page")
                    .orderBy("publishedAt", Direction.DESC).limit(10).get().size());
            timed("stream", () -> {
                try (Stream<StorageRecord> all = store.stream()) {
                    return all.count();
                }
            });
            timed("verify", () -> store.verify().ok());
            timed("reindex", store::reindex);
        }
        row.put("heap MiB (sum of pool peaks)", Long.toString(peakBytes >> 20));
        row.put("max heap MiB", Long.toString(Runtime.getRuntime().maxMemory() >> 20));
    }

    /**
     * An indexed import: {@code putStream} of {@code n} generated records into an empty collection
     * with the sweep's three indexes (deleted first when a previous run left it).
     */
    private void putStream(Path root, int n) throws Exception {
        if (Files.exists(root)) {
            try (Stream<Path> all = Files.walk(root)) {
                all.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
        try (DocStore store = DocStore.open(root, COLLECTION)) {
            store.indexes().field("kind").index().field("bucket").index().field("publishedAt").range().sync();
            Iterable<Map<String, Object>> items = () -> java.util.stream.IntStream.range(0, n).mapToObj(i -> {
                Map<String, Object> fields = new LinkedHashMap<>();
                fields.put("kind", KINDS[i % KINDS.length]);
                fields.put("bucket", (long) (i % 10));
                fields.put("publishedAt", START + i);
                fields.put("title", "Record number " + i);
                return fields;
            }).iterator();
            timed("putStream (indexed)", () -> store.putStream(items));
        }
        row.put("heap MiB with putStream", Long.toString(peakBytes >> 20));
    }

    /** Every {@code n / GETS}-th id of the listing: spread over the whole collection. */
    private static List<String> sampleIds(DocStore store, int n) {
        long step = Math.max(1, n / GETS);
        List<String> ids = new ArrayList<>();
        long[] i = {0};
        store.ids().forEach(id -> {
            if (i[0]++ % step == 0 && ids.size() < GETS) {
                ids.add(id);
            }
        });
        return ids;
    }

    private String gets(DocStore store, List<String> ids) {
        double[] us = new double[ids.size()];
        resetPeaks();
        for (int i = 0; i < us.length; i++) {
            long t = System.nanoTime();
            if (store.get(ids.get(i)).isEmpty()) {
                throw new IllegalStateException("missing " + ids.get(i));
            }
            us[i] = (System.nanoTime() - t) / 1e3;
        }
        notePeak();
        Arrays.sort(us);
        return String.format(Locale.ROOT, "%.1f / %.1f", us[us.length / 2], us[(int) (us.length * 0.99)]);
    }

    /** Times one step; a step that runs out of heap is reported as {@code OOM} and the sweep goes on. */
    private <T> T timed(String name, Callable<T> step) throws Exception {
        if (skipped.contains(name)) {
            row.put(name, "-");
            return null;
        }
        resetPeaks();
        long t = System.nanoTime();
        T result;
        try {
            result = step.call();
        } catch (OutOfMemoryError e) {
            row.put(name, "OOM");
            return null;
        }
        row.put(name, ms((System.nanoTime() - t) / 1e6));
        notePeak();
        return result;
    }

    private void repeated(String name, int times, Callable<?> step) throws Exception {
        if (skipped.contains(name)) {
            row.put(name, "-");
            return;
        }
        double[] runs = new double[times];
        resetPeaks();
        try {
            for (int i = 0; i < times; i++) {
                long t = System.nanoTime();
                step.call();
                runs[i] = (System.nanoTime() - t) / 1e6;
            }
        } catch (OutOfMemoryError e) {
            row.put(name, "OOM");
            return;
        }
        notePeak();
        row.put(name, ms(median(runs)));
    }

    private static double median(double[] values) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        return sorted[sorted.length / 2];
    }

    private static String ms(double millis) {
        return millis >= 100 ? String.format(Locale.ROOT, "%,.0f", millis) : String.format(Locale.ROOT, "%.2f", millis);
    }

    private static void resetPeaks() {
        for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
            if (pool.getType() == MemoryType.HEAP) {
                pool.resetPeakUsage();
            }
        }
    }

    private void notePeak() {
        long sum = 0;
        for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
            if (pool.getType() == MemoryType.HEAP) {
                sum += pool.getPeakUsage().getUsed();
            }
        }
        peakBytes = Math.max(peakBytes, sum);
    }
}
