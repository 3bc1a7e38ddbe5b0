package dev.storh.bench.jmh;

import dev.storh.StorageRecord;
import dev.storh.doc.DocStore;
import dev.storh.query.Direction;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.Warmup;

/**
 * DocStore queries on {@code records} documents (targets: indexed equality {@code limit(100)}
 * under 1 ms, indexed {@code count()} under 50 µs). Each record has {@code country} (one of 200
 * values, equality index), {@code admin1} (one of 20, equality index: with {@code country} it forms
 * a compound bucket), {@code population} (range index) and an unindexed {@code name}. The data is
 * built once in a temp folder (page cache warm, as a running service has it).
 *
 * <pre>
 * java -cp storh-benchmarks/target/storh-benchmarks.jar org.openjdk.jmh.Main DocStoreQueryBenchmark
 * </pre>
 */
public class DocStoreQueryBenchmark extends LargeBenchmark {

    @Param("100000")
    public int records;

    private DocStore store;

    @Setup(Level.Trial)
    public void load() throws IOException {
        createRoot("storh-bench-query");
        store = onRoot(DocStore.open(root, "places"));
        store.indexes().field("country").field("admin1").field("population").range().sync();
        Random random = new Random(42);
        List<Map<String, Object>> batch = new ArrayList<>();
        for (int i = 0; i < records; i++) {
            Map<String, Object> data = new LinkedHashMap<>();
            data.put("name", "place-" + i);
            data.put("country", "C" + (i % 200));
            data.put("admin1", "A" + random.nextInt(20));
            data.put("population", (long) random.nextInt(5_000_000));
            batch.add(data);
            if (batch.size() == 20_000) {
                store.putStream(batch);
                batch.clear();
            }
        }
        store.putStream(batch);
    }

    /** Indexed equality, first 100 records (500 match). */
    @Benchmark
    public List<StorageRecord> indexedEqualityLimit100() {
        return store.query().where("country").eq("C7").limit(100).get();
    }

    /** Indexed count of one value, from the value file's head. */
    @Benchmark
    public long indexedCount() {
        return store.query().where("country").eq("C7").count();
    }

    /** Range condition + orderBy on the same field + limit: index order, 10 records read. */
    @Benchmark
    public List<StorageRecord> rangeOrderByLimit10() {
        return store.query().where("population").gt(4_000_000).orderBy("population", Direction.DESC).limit(10).get();
    }

    /** Two equality conditions answered by the compound bucket (about 25 records). */
    @Benchmark
    public List<StorageRecord> compoundEquality() {
        return store.query().where("country").eq("C7").where("admin1").eq("A3").get();
    }

    /** Point read by id. */
    @Benchmark
    public Optional<StorageRecord> getById() {
        return store.get(store.query().where("country").eq("C9").limit(1).get().get(0).id());
    }

    /** Unindexed equality: reads every record file. */
    @Benchmark
    @BenchmarkMode(Mode.SingleShotTime)
    @OutputTimeUnit(TimeUnit.MILLISECONDS)
    @Warmup(iterations = 1)
    @Measurement(iterations = 3)
    public long unindexedScanCount() {
        return store.query().where("name").eq("place-12345").count();
    }
}
