package dev.storh.spring.boot.actuate;

import java.time.Duration;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

import dev.storh.observe.StoreObserver;
import dev.storh.observe.StoreOperation;
import dev.storh.store.StoreKind;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;

import org.springframework.util.Assert;

/**
 * The {@link StoreObserver} of the stores a {@link dev.storh.spring.boot.stores.StorhStores}
 * registry opens, as Micrometer timers:
 * <ul>
 * <li>{@code storh.operation}, tags {@code type} ({@code collection}, {@code log},
 * {@code queue}), {@code name} (the store), {@code operation} ({@code put}, {@code get},
 * {@code query}, {@code delete}, {@code claim}, {@code append}) and {@code outcome}
 * ({@code success}, {@code failure}): the latency of each data operation, beside the maintenance
 * operations {@link StorhMetrics} times under the same name;</li>
 * <li>{@code storh.fsync}, tags {@code name} (the store folder) and {@code target} ({@code file},
 * {@code directory}): the latency of every fsync, as a percentile histogram (1 ms to 10 s, for
 * registries that aggregate them, such as Prometheus) and fixed buckets at 1, 2, 5, 10, 20, 50,
 * 100 and 500 ms and 1 s, so every registry shows the distribution.</li>
 * </ul>
 * Meters are registered on first use. Thread-safe; recording is a map lookup and a timer update.
 */
public class StorhOperationMetrics implements StoreObserver {

    /** Fixed latency buckets of {@code storh.fsync}, for registries without percentile histograms. */
    private static final Duration[] FSYNC_BUCKETS = { Duration.ofMillis(1), Duration.ofMillis(2), Duration.ofMillis(5),
            Duration.ofMillis(10), Duration.ofMillis(20), Duration.ofMillis(50), Duration.ofMillis(100),
            Duration.ofMillis(500), Duration.ofSeconds(1) };

    private final MeterRegistry registry;

    private final ConcurrentHashMap<OperationKey, Timer> operations = new ConcurrentHashMap<>();

    private final ConcurrentHashMap<FsyncKey, Timer> fsyncs = new ConcurrentHashMap<>();

    /**
     * @param registry where the timers go
     */
    public StorhOperationMetrics(MeterRegistry registry) {
        Assert.notNull(registry, "'registry' must not be null");
        this.registry = registry;
    }

    @Override
    public void operation(StoreKind kind, String store, StoreOperation operation, boolean success, long nanos) {
        this.operations.computeIfAbsent(new OperationKey(kind, store, operation, success), this::operationTimer)
            .record(nanos, TimeUnit.NANOSECONDS);
    }

    @Override
    public void fsync(String store, boolean directory, long nanos) {
        this.fsyncs.computeIfAbsent(new FsyncKey(store, directory), this::fsyncTimer).record(nanos, TimeUnit.NANOSECONDS);
    }

    private Timer operationTimer(OperationKey key) {
        return Timer.builder("storh.operation")
            .description("Latency of storh store operations")
            .tags("type", key.kind().label(), "name", key.store(), "operation", key.operation().tag(), "outcome",
                    key.success() ? "success" : "failure")
            .register(this.registry);
    }

    private Timer fsyncTimer(FsyncKey key) {
        return Timer.builder("storh.fsync")
            .description("Latency of fsyncs of storh files and folders")
            .tags("name", key.store(), "target", key.directory() ? "directory" : "file")
            .publishPercentileHistogram()
            .serviceLevelObjectives(FSYNC_BUCKETS)
            .minimumExpectedValue(Duration.ofMillis(1))
            .maximumExpectedValue(Duration.ofSeconds(10))
            .register(this.registry);
    }

    private record OperationKey(StoreKind kind, String store, StoreOperation operation, boolean success) {
    }

    private record FsyncKey(String store, boolean directory) {
    }

}
