package dev.storh.bench.jmh;

import dev.storh.id.UuidV7;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Steady-state cost of the id hot paths that the harness's {@code uuid.*} metrics time once:
 * generation on the counter path and the wall-clock path, validation and timestamp extraction
 * (upper-case input, the slower case).
 *
 * <pre>
 * java -cp storh-benchmarks/target/storh-benchmarks.jar org.openjdk.jmh.Main UuidV7Benchmark
 * </pre>
 */
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
public class UuidV7Benchmark extends StorhBenchmark {

    private final String upper = UuidV7.generate(1_700_000_000_000L).toUpperCase(Locale.ROOT);

    @Benchmark
    public String generateNow() {
        return UuidV7.generate();
    }

    @Benchmark
    public String generateFixedTimestamp() {
        return UuidV7.generate(1_700_000_000_001L);
    }

    @Benchmark
    public boolean validateUpperCase() {
        return UuidV7.isValid(upper);
    }

    @Benchmark
    public long timestampUpperCase() {
        return UuidV7.timestampMs(upper);
    }
}
