package dev.storh.bench.jmh;

import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Warmup;

/**
 * {@link StorhBenchmark} for calls over large data sets (around 100,000 records), in microseconds:
 * two warm-up iterations of two seconds and three measured iterations of three seconds, one second
 * longer than {@link ShortBenchmark}'s, since these calls vary more (JMH reads these from the
 * superclass).
 */
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 3)
public abstract class LargeBenchmark extends StorhBenchmark {
}
