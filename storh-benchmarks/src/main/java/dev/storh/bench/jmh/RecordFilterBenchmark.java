package dev.storh.bench.jmh;

import dev.storh.query.Condition;
import dev.storh.query.Operator;
import dev.storh.query.RecordQuery;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Steady-state cost per row of the filters that every unindexed scan runs, the harness's
 * {@code filter.*} metrics: a {@link RecordQuery} equality, a {@link Condition} equality, on one
 * row shaped like the harness's ({@code kind, status, bucket, slug, publishedAt}).
 *
 * <pre>
 * java -cp storh-benchmarks/target/storh-benchmarks.jar org.openjdk.jmh.Main RecordFilterBenchmark
 * </pre>
 */
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
public class RecordFilterBenchmark extends StorhBenchmark {

    private final Map<String, Object> row = new LinkedHashMap<>(Map.of("kind", "page", "status", "published",
            "bucket", 4L, "slug", "item-4", "publishedAt", 1_700_000_000_004L));
    private final RecordQuery pages = RecordQuery.all().whereEqual("kind", "page");
    private final Condition published = new Condition("status", Operator.EQ, List.of("published"));
    private final String id = "0189f7e4-1a2b-7c3d-8e4f-5a6b7c8d9e0f";

    @Benchmark
    public boolean recordQueryEqual() {
        return pages.matchesData(row);
    }

    @Benchmark
    public boolean conditionEqual() {
        return published.matches(id, row);
    }
}
