package dev.storh.spring.boot.actuate;

import java.time.Duration;
import java.util.List;
import java.util.function.ToDoubleFunction;

import dev.storh.spring.boot.stores.BucketSizes;
import dev.storh.spring.boot.stores.CollectionStore;
import dev.storh.spring.boot.stores.LogStore;
import dev.storh.spring.boot.stores.QueueStore;
import dev.storh.spring.boot.stores.StorhStore;
import dev.storh.spring.boot.stores.StorhStores;
import dev.storh.spring.boot.stores.StorhStoresListener;
import dev.storh.spring.boot.stores.VerifyResult;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Measurement;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Statistic;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.binder.MeterBinder;

import org.springframework.util.Assert;

/**
 * Micrometer meters of every store in a {@link StorhStores} registry, including stores opened
 * after binding. Every meter carries the tags {@code type} ({@code collection}, {@code log},
 * {@code queue}) and {@code name} (the store's name):
 * <ul>
 * <li>{@code storh.records} (gauge; collections and logs): live records;</li>
 * <li>{@code storh.bucket.files} (distribution summary; collections): one sample per bucket
 * folder, so {@code COUNT} is 256, {@code TOTAL} the record files and {@code MAX} the fullest
 * bucket, from a count at most {@code bucketListingMaxAge} old;</li>
 * <li>{@code storh.writers.stale} (gauge; collections and logs): writer markers of crashed
 * writers;</li>
 * <li>{@code storh.queue.jobs} (gauge; queues, tag {@code state} = {@code pending},
 * {@code processing}, {@code done}): jobs per state;</li>
 * <li>{@code storh.log.segments} (gauge) and {@code storh.log.bytes} (gauge, bytes; logs);</li>
 * <li>{@code storh.operation} (timer, tags {@code operation} = {@code verify}, {@code repair},
 * {@code compact}, {@code reindex} and {@code outcome} = {@code success}, {@code failure}):
 * maintenance operations run through the registry (data operations and fsyncs are timed by
 * {@link StorhOperationMetrics} under {@code storh.operation} and {@code storh.fsync});</li>
 * <li>{@code storh.verify.runs} (counter, tag {@code outcome} = {@code ok}, {@code failed}),
 * {@code storh.verify.errors} (gauge: errors of the last verify) and {@code storh.verify.ok}
 * (gauge: 1 when the last verify was clean, 0 when not, NaN before the first).</li>
 * </ul>
 * Gauges read in-memory state when the registry is scraped: no scrape takes a store's lock or
 * reads a record. Log and queue gauges show the engine's state as of its last operation in this
 * process ({@code SegmentedLog.lastStats()}, {@code Queue.lastCounts()}), so appends by other
 * processes show after this process next touches the store; a collection's {@code storh.records}
 * comes from the DocStore's cached id listing ({@code DocStore.count()}: one listing of
 * {@code data/}, one status call per bucket folder, and a new listing only of buckets changed
 * since), and {@code storh.bucket.files} from the same listing at most
 * {@code bucketListingMaxAge} old. {@code storh.writers.stale} lists the store's writer markers
 * (a few files). A store that cannot be read (e.g. closed) reports NaN.
 */
public class StorhMetrics implements MeterBinder {

    private static final Duration DEFAULT_BUCKET_LISTING_MAX_AGE = Duration.ofSeconds(10);

    private final StorhStores stores;

    private final Duration bucketListingMaxAge;

    /**
     * Meters whose bucket listing is at most 10 seconds old.
     * @param stores the registry
     */
    public StorhMetrics(StorhStores stores) {
        this(stores, DEFAULT_BUCKET_LISTING_MAX_AGE);
    }

    /**
     * @param stores the registry
     * @param bucketListingMaxAge the oldest per-bucket count {@code storh.bucket.files} may
     * report; counting walks every id of the collection in memory
     */
    public StorhMetrics(StorhStores stores, Duration bucketListingMaxAge) {
        Assert.notNull(stores, "'stores' must not be null");
        Assert.notNull(bucketListingMaxAge, "'bucketListingMaxAge' must not be null");
        this.stores = stores;
        this.bucketListingMaxAge = bucketListingMaxAge;
    }

    @Override
    public void bindTo(MeterRegistry registry) {
        this.stores.addListener(new Binder(registry));
    }

    private static Tags tags(StorhStore store) {
        return Tags.of("type", store.type().tag(), "name", store.name());
    }

    private static <T> double safely(T target, ToDoubleFunction<T> function) {
        try {
            return function.applyAsDouble(target);
        }
        catch (RuntimeException ex) {
            return Double.NaN;
        }
    }

    private final class Binder implements StorhStoresListener {

        private final MeterRegistry registry;

        Binder(MeterRegistry registry) {
            this.registry = registry;
        }

        @Override
        public void storeAdded(StorhStore store) {
            Tags tags = tags(store);
            store.accept(new StorhStore.Visitor<Void>() {

                @Override
                public Void collection(CollectionStore collection) {
                    gauge("storh.records", "Live records of the store.", null, collection,
                            (c) -> c.docStore().count(), tags);
                    bucketFiles(collection, tags);
                    staleWriters(collection, tags);
                    return null;
                }

                @Override
                public Void log(LogStore log) {
                    gauge("storh.records", "Live records of the store.", null, log,
                            (l) -> l.log().lastStats().records(), tags);
                    gauge("storh.log.segments", "Segment files of the log.", null, log,
                            (l) -> l.log().lastStats().segments(), tags);
                    gauge("storh.log.bytes", "Bytes of the log's segment files.", "bytes", log,
                            (l) -> l.log().lastStats().bytes(), tags);
                    staleWriters(log, tags);
                    return null;
                }

                @Override
                public Void queue(QueueStore queue) {
                    gauge("storh.queue.jobs", "Jobs of the queue in the state.", null, queue,
                            (q) -> q.queue().lastCounts().pending(), tags.and("state", "pending"));
                    gauge("storh.queue.jobs", "Jobs of the queue in the state.", null, queue,
                            (q) -> q.queue().lastCounts().processing(), tags.and("state", "processing"));
                    gauge("storh.queue.jobs", "Jobs of the queue in the state.", null, queue,
                            (q) -> q.queue().lastCounts().done(), tags.and("state", "done"));
                    return null;
                }

            });
            gauge("storh.verify.errors", "Errors found by the last verify.", null, store,
                    (s) -> s.lastVerify().map((r) -> (double) r.errors().size()).orElse(Double.NaN), tags);
            gauge("storh.verify.ok", "1 when the last verify was clean, 0 when it failed.", null, store,
                    (s) -> s.lastVerify().map((r) -> r.ok() ? 1.0 : 0.0).orElse(Double.NaN), tags);
        }

        /** Queues keep no writer markers; the other stores count their crashed writers'. */
        private void staleWriters(StorhStore store, Tags tags) {
            gauge("storh.writers.stale", "Writer markers of crashed writers.", null, store,
                    (s) -> s.staleWriters().size(), tags);
        }

        @Override
        public void operationCompleted(StorhStore store, String operation, Duration duration, Throwable failure) {
            Timer.builder("storh.operation")
                .description("Maintenance operations on the store.")
                .tags(tags(store))
                .tag("operation", operation)
                .tag("outcome", (failure != null) ? "failure" : "success")
                .register(this.registry)
                .record(duration);
        }

        @Override
        public void verified(StorhStore store, VerifyResult result) {
            Counter.builder("storh.verify.runs")
                .description("Verify runs of the store.")
                .tags(tags(store))
                .tag("outcome", result.ok() ? "ok" : "failed")
                .register(this.registry)
                .increment();
        }

        private void bucketFiles(CollectionStore collection, Tags tags) {
            Duration maxAge = StorhMetrics.this.bucketListingMaxAge;
            List<Measurement> measurements = List.of(new Measurement(() -> BucketSizes.BUCKETS, Statistic.COUNT),
                    new Measurement(() -> safely(collection, (c) -> c.bucketSizes(maxAge).total()), Statistic.TOTAL),
                    new Measurement(() -> safely(collection, (c) -> c.bucketSizes(maxAge).max()), Statistic.MAX));
            Meter.builder("storh.bucket.files", Meter.Type.DISTRIBUTION_SUMMARY, measurements)
                .description("Record files per bucket folder of the collection (one sample per bucket).")
                .baseUnit("files")
                .tags(tags)
                .register(this.registry);
        }

        private <T> void gauge(String name, String description, String baseUnit, T target,
                ToDoubleFunction<T> value, Tags tags) {
            Gauge.builder(name, target, (t) -> safely(t, value))
                .description(description)
                .baseUnit(baseUnit)
                .tags(tags)
                .strongReference(true)
                .register(this.registry);
        }

    }

}
