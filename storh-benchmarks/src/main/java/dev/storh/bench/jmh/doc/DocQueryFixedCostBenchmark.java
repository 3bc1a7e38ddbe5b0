package dev.storh.bench.jmh.doc;

import dev.storh.StorageRecord;
import dev.storh.bench.jmh.ShortBenchmark;
import dev.storh.doc.DocStore;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.Level;

/**
 * The indexed queries of the harness's {@code doc} section on its rows ({@code kind} page/post,
 * {@code bucket} i % 10, {@code publishedAt} start + i; equality indexes on kind and bucket, a range
 * index on publishedAt), warm: what a query costs besides its answer (planning, index file reads).
 * {@code firstRange*} reopen the store before each call, so the range index is read from its files.
 *
 * <pre>
 * java -cp storh-benchmarks/target/storh-benchmarks.jar org.openjdk.jmh.Main DocQueryFixedCostBenchmark
 * </pre>
 */
public class DocQueryFixedCostBenchmark extends ShortBenchmark {

    private static final long START = 1_700_000_000_000L;

    @Param("10000")
    public int records;

    private DocStore store;
    private String mid;

    @Setup(Level.Trial)
    public void load() throws IOException {
        createRoot("storh-bench-doc-query");
        try (DocStore fill = DocStore.open(root, "docs")) {
            fill.indexes().field("kind").index().field("bucket").index().field("publishedAt").range().sync();
            List<Map<String, Object>> rows = new ArrayList<>();
            for (int i = 0; i < records; i++) {
                Map<String, Object> row = new LinkedHashMap<>();
                row.put("kind", i % 2 == 0 ? "page" : "post");
                row.put("status", i % 3 == 0 ? "draft" : "published");
                row.put("bucket", (long) (i % 10));
                row.put("slug", "item-" + i);
                row.put("publishedAt", START + i);
                rows.add(row);
            }
            fill.putStream(rows);
            mid = fill.query().where("slug").eq("item-" + records / 2).first().orElseThrow().id();
        }
        store = onRoot(DocStore.open(root, "docs"));
    }

    /** {@code id eq} count: one record file. */
    @Benchmark
    public long idCount() {
        return store.query().where("id").eq(mid).count();
    }

    /** Equality count (half the records), from the value file. */
    @Benchmark
    public long indexedCount() {
        return store.query().where("kind").eq("page").count();
    }

    /** Two equality conditions counted from their compound bucket. */
    @Benchmark
    public long indexedCompoundCount() {
        return store.query().where("kind").eq("page").where("bucket").eq(4L).count();
    }

    /** Equality, the first 100 records. */
    @Benchmark
    public List<StorageRecord> indexedLimit100() {
        return store.query().where("kind").eq("page").limit(100).get();
    }

    /** A range of 191 records. */
    @Benchmark
    public List<StorageRecord> indexedRange() {
        return store.query().where("publishedAt").between(START + 10, START + 200).get();
    }

    /** The count of a range of 191 records. */
    @Benchmark
    public long indexedRangeCount() {
        return store.query().where("publishedAt").between(START + 10, START + 200).count();
    }

    /** A range matching every record, counted up to 100. */
    @Benchmark
    public long indexedRangeLimitCount() {
        return store.query().where("publishedAt").gte(START).limit(100).count();
    }

    /** The first range query of a freshly opened store: the range index comes from its files. */
    @Benchmark
    public List<StorageRecord> firstRangeQuery() {
        try (DocStore fresh = DocStore.open(root, "docs")) {
            return fresh.query().where("publishedAt").between(START + 10, START + 200).get();
        }
    }

    /** Opening a store alone, to subtract from {@link #firstRangeQuery}. */
    @Benchmark
    public long openOnly() {
        try (DocStore fresh = DocStore.open(root, "docs")) {
            return fresh.hashCode();
        }
    }
}
