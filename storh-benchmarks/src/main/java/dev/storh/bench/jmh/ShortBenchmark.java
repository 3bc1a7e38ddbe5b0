package dev.storh.bench.jmh;

import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Warmup;

/**
 * {@link StorhBenchmark} with a short run for the engines' per-call paths, in microseconds: two
 * warm-up and three measured iterations of two seconds (JMH reads these from the superclass).
 * Run one with {@code java -cp storh-benchmarks/target/storh-benchmarks.jar org.openjdk.jmh.Main <name>}.
 */
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 2)
public abstract class ShortBenchmark extends StorhBenchmark {
}
