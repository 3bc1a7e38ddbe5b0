package dev.storh.bench.jmh;

import dev.storh.StorageRecord;
import dev.storh.doc.DocStore;
import dev.storh.query.FieldPath;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Nested and multikey queries on {@code records} books, answered from path indexes and, for
 * comparison, by a scan of an unindexed copy of the same records. Each book has a nested
 * {@code publisher.name} (one of 1,000 values, about 100 books each), {@code tags} (three of 50,
 * plus {@code "rare"} on 1 % of the books), {@code reviews} (one to three objects whose
 * {@code rating} is 1 to 5) and an {@code author} (case-folded path index). The data is built once
 * in a temp folder (page cache warm, as a running service has it), or once in the folder
 * {@code -Dstorh.bench.paths.dir=<dir>} names (kept, so each benchmark's trial reuses it).
 *
 * <pre>
 * java -Dstorh.bench.paths.dir=/tmp/paths -cp storh-benchmarks/target/storh-benchmarks.jar org.openjdk.jmh.Main \
 *     PathIndexQueryBenchmark -jvmArgsAppend -Dstorh.bench.paths.dir=/tmp/paths
 * </pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 3)
@Fork(1)
public class PathIndexQueryBenchmark {

    private static final FieldPath PUBLISHER = FieldPath.of("publisher", "name");
    private static final FieldPath TAGS = FieldPath.of("tags");
    private static final FieldPath RATING = FieldPath.of("reviews", "rating");
    private static final FieldPath AUTHOR = FieldPath.of("author");

    /** A folder to build the data in once and keep for later trials and runs (delete it afterwards). */
    static final String KEEP_DIR = "storh.bench.paths.dir";

    @Param("100000")
    public int records;

    private Path root;
    private DocStore indexed;
    private DocStore plain;

    @Setup(Level.Trial)
    public void load() throws IOException {
        String kept = System.getProperty(KEEP_DIR);
        root = kept != null ? Files.createDirectories(Path.of(kept)) : Files.createTempDirectory("storh-bench-paths");
        indexed = DocStore.open(root, "indexed");
        indexed.indexes().definePath(PUBLISHER, false, false).definePath(TAGS, false, false).definePath(RATING, false, false)
                .definePath(AUTHOR, false, true).sync();
        plain = DocStore.open(root, "plain");
        if (indexed.count() == records && plain.count() == records) {
            return; // built by an earlier trial in the kept folder
        }
        indexed.query().get().forEach(r -> indexed.delete(r.id()));
        plain.query().get().forEach(r -> plain.delete(r.id()));
        Random random = new Random(42);
        List<Map<String, Object>> books = IntStream.range(0, records).mapToObj(i -> book(i, random)).toList();
        indexed.putStream(books);
        plain.putStream(books);
    }

    private static Map<String, Object> book(int i, Random random) {
        Map<String, Object> data = new LinkedHashMap<>();
        data.put("title", "title-" + i);
        data.put("author", (i % 2 == 0 ? "Author " : "AUTHOR ") + (i % 5_000));
        data.put("publisher", Map.of("name", "P" + (i % 1_000), "city", "C" + random.nextInt(100)));
        List<Object> tags = new ArrayList<>(List.of("t" + random.nextInt(50), "t" + random.nextInt(50), "t" + random.nextInt(50)));
        if (i % 100 == 7) {
            tags.add("rare");
        }
        data.put("tags", tags);
        List<Object> reviews = new ArrayList<>();
        for (int r = random.nextInt(3); r >= 0; r--) {
            reviews.add(Map.of("rating", 1L + random.nextInt(5), "text", "ok"));
        }
        data.put("reviews", reviews);
        return data;
    }

    @TearDown(Level.Trial)
    public void delete() throws IOException {
        for (DocStore store : List.of(indexed, plain)) {
            store.close();
        }
        if (System.getProperty(KEEP_DIR) == null) {
            dev.storh.fs.AtomicFiles.deleteTree(root);
        }
    }

    /** Nested equality ({@code publisher.name}, about 100 matches), from the path index. */
    @Benchmark
    public List<StorageRecord> nestedEqualityIndexed() {
        return indexed.query().where(PUBLISHER).eq("P7").get();
    }

    /** Element of a list ({@code tags} has {@code "rare"}, 1,000 matches), first 100, from the multikey index. */
    @Benchmark
    public List<StorageRecord> multikeyHasLimit100Indexed() {
        return indexed.query().where(TAGS).has("rare").limit(100).get();
    }

    /** Count of an element of a list (1,000), from the multikey index (records re-checked). */
    @Benchmark
    public long multikeyHasCountIndexed() {
        return indexed.query().where(TAGS).has("rare").count();
    }

    /** A field of a list of objects ({@code reviews.rating = 5}) and a nested equality: the intersection. */
    @Benchmark
    public List<StorageRecord> listOfObjectsAndNestedIndexed() {
        return indexed.query().where(RATING).eq(5L).where(PUBLISHER).eq("P7").get();
    }

    /** Case-insensitive prefix (about 11 authors, 20 books each), from the case-folded index. */
    @Benchmark
    public List<StorageRecord> ignoreCasePrefixIndexed() {
        return indexed.query().where(AUTHOR).ignoringCase().prefix("author 123").get();
    }

    /** Which query {@link #scan} runs on the unindexed copy. */
    @State(Scope.Benchmark)
    public static class ScanQuery {
        /** {@code nested}: the nested equality; {@code multikeyCount}: the multikey count. */
        @Param({"nested", "multikeyCount"})
        public String query;
    }

    /** A query of the indexed benchmarks on the unindexed copy: reads every record file. */
    @Benchmark
    @BenchmarkMode(Mode.SingleShotTime)
    @OutputTimeUnit(TimeUnit.MILLISECONDS)
    @Warmup(iterations = 1)
    @Measurement(iterations = 3)
    public long scan(ScanQuery scan) {
        return switch (scan.query) {
            case "nested" -> plain.query().where(PUBLISHER).eq("P7").get().size();
            case "multikeyCount" -> plain.query().where(TAGS).has("rare").count();
            default -> throw new IllegalArgumentException(scan.query);
        };
    }
}
