package dev.storh.bench.jmh.doc;

import dev.storh.bench.jmh.LargeBenchmark;
import dev.storh.doc.DocStore;
import java.io.IOException;
import java.util.Iterator;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;

/**
 * The cost of one {@code put} of a new record and of one {@code delete}, with four indexes
 * ({@code kind}, {@code status}, {@code tag} plain, {@code rank} range), when {@code shared}
 * records already hold the new record's {@code kind}: the write should cost the same whether that
 * value's id list holds a thousand ids or a hundred thousand. {@code layout} is the index layout:
 * {@code original} (the original's value files, readable by it) or {@code deltas} (storh's opt-in
 * append-only value files, see docs/indexes.md).
 *
 * <pre>
 * java -cp storh-benchmarks/target/storh-benchmarks.jar org.openjdk.jmh.Main DocWriteScalingBenchmark \
 *     -p shared=1000,100000 -p layout=original,deltas
 * </pre>
 */
public class DocWriteScalingBenchmark extends LargeBenchmark {

    @Param({"1000", "100000"})
    public int shared;

    @Param({"original", "deltas"})
    public String layout;

    private DocStore store;
    private final AtomicLong rank = new AtomicLong();
    private String victim;

    @Setup(Level.Trial)
    public void load() throws IOException {
        createRoot("storh-bench-docwrite");
        store = onRoot(DocStore.open(root, "items"));
        store.indexes().valueDeltas(layout.equals("deltas")).field("kind").field("status").field("tag").field("rank")
                .range().sync();
        Iterable<Map<String, ?>> rows = () -> new Iterator<Map<String, ?>>() {
            private int i;

            @Override
            public boolean hasNext() {
                return i < shared;
            }

            @Override
            public Map<String, ?> next() {
                i++;
                return row();
            }
        };
        store.putStream(rows);
    }

    private Map<String, Object> row() {
        long n = rank.incrementAndGet();
        return Map.of("kind", "shared", "status", "s" + (n % 4), "tag", "t" + (n % 10), "rank", n);
    }

    /** A record for {@link #delete} to remove, put before each call (not measured). */
    @Setup(Level.Invocation)
    public void putVictim() {
        victim = store.put(row()).id();
    }

    @Benchmark
    public String put() {
        return store.put(row()).id();
    }

    @Benchmark
    public boolean delete() {
        return store.delete(victim);
    }
}
