package dev.storh.spring.boot.autoconfigure.metrics;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

import dev.storh.doc.DocStore;
import dev.storh.fs.CollectionLock;
import dev.storh.log.SegmentedLog;
import dev.storh.queue.Queue;
import dev.storh.spring.boot.actuate.StorhMetrics;
import dev.storh.spring.boot.autoconfigure.StorhAutoConfiguration;
import dev.storh.spring.boot.stores.BucketSizes;
import dev.storh.spring.boot.stores.StaleWriters;
import dev.storh.spring.boot.stores.StoreType;
import dev.storh.spring.boot.stores.StorhStores;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Statistic;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link StorhMetricsAutoConfiguration} and the meters of {@link StorhMetrics}, on real files.
 */
class StorhMetricsAutoConfigurationTests {

    @TempDir
    Path root;

    private ApplicationContextRunner contextRunner() {
        return new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(MetricsAutoConfiguration.class, StorhAutoConfiguration.class,
                    StorhMetricsAutoConfiguration.class))
            .withBean(SimpleMeterRegistry.class)
            .withPropertyValues("storh.root=" + this.root, "storh.logs.events.max-segment-bytes=256B",
                "storh.queues.jobs.processing-timeout=1m");
    }

    @Test
    void metersOfCollectionsLogsAndQueuesCarryTheirValues() {
        contextRunner().run((context) -> {
            assertThat(context).hasSingleBean(StorhMetrics.class);
            MeterRegistry registry = context.getBean(MeterRegistry.class);
            StorhStores stores = context.getBean(StorhStores.class);
            DocStore notes = stores.docStore("notes");
            for (int i = 0; i < 300; i++) {
                notes.put(Map.of("text", "note " + i));
            }
            SegmentedLog events = context.getBean("events", SegmentedLog.class);
            for (int i = 0; i < 5; i++) {
                events.put(Map.of("type", "city.created", "n", (long) i));
            }
            Queue jobs = context.getBean("jobs", Queue.class);
            jobs.enqueue(Map.of("kind", "a"));
            jobs.enqueue(Map.of("kind", "b"));
            jobs.claim();

            BucketSizes sizes = BucketSizes.of(this.root.resolve("notes"));
            assertThat(sizes.total()).isEqualTo(300);
            assertThat(gauge(registry, "storh.records", "collection", "notes")).isEqualTo(300);
            Meter buckets = registry.get("storh.bucket.files").tags("type", "collection", "name", "notes").meter();
            assertThat(buckets.getId().getType()).isEqualTo(Meter.Type.DISTRIBUTION_SUMMARY);
            assertThat(measure(buckets, Statistic.COUNT)).isEqualTo(256);
            assertThat(measure(buckets, Statistic.TOTAL)).isEqualTo(300);
            assertThat(measure(buckets, Statistic.MAX)).isEqualTo(sizes.max());
            assertThat(gauge(registry, "storh.writers.stale", "collection", "notes")).isZero();

            assertThat(gauge(registry, "storh.records", "log", "events")).isEqualTo(5);
            assertThat(gauge(registry, "storh.log.segments", "log", "events"))
                .isEqualTo(events.stats().segments())
                .isGreaterThan(1);
            assertThat(gauge(registry, "storh.log.bytes", "log", "events")).isEqualTo(events.stats().bytes());

            assertThat(registry.get("storh.queue.jobs").tags("name", "jobs", "state", "pending").gauge().value())
                .isEqualTo(1);
            assertThat(registry.get("storh.queue.jobs").tags("name", "jobs", "state", "processing").gauge().value())
                .isEqualTo(1);
            assertThat(registry.get("storh.queue.jobs").tags("name", "jobs", "state", "done").gauge().value())
                .isZero();
            assertThat(gauge(registry, "storh.verify.ok", "queue", "jobs")).isNaN();
        });
    }

    @Test
    void scrapesReadInMemoryStateWhileAnotherWriterHoldsTheLocks() {
        contextRunner().run((context) -> {
            MeterRegistry registry = context.getBean(MeterRegistry.class);
            SegmentedLog events = context.getBean("events", SegmentedLog.class);
            events.put(Map.of("type", "a"));
            Queue jobs = context.getBean("jobs", Queue.class);
            jobs.enqueue(Map.of("kind", "a"));
            // another writer appends, then holds both locks (flock on separate open files conflicts
            // even within one process): a gauge that took a lock would wait 30 s, then report NaN
            try (SegmentedLog other = SegmentedLog.open(this.root, "events");
                    Queue otherJobs = Queue.open(this.root, "jobs")) {
                other.put(Map.of("type", "b"));
                otherJobs.enqueue(Map.of("kind", "b"));
            }
            try (CollectionLock logLock = CollectionLock.open(this.root.resolve("events/collection.lock"));
                    CollectionLock queueLock = CollectionLock.open(this.root.resolve("jobs/queue.lock"))) {
                logLock.lock(Duration.ofSeconds(5));
                queueLock.lock(Duration.ofSeconds(5));
                try {
                    // this process's view as of its last operation
                    assertThat(gauge(registry, "storh.records", "log", "events")).isEqualTo(1);
                    assertThat(registry.get("storh.queue.jobs").tags("name", "jobs", "state", "pending").gauge().value())
                        .isEqualTo(1);
                }
                finally {
                    queueLock.unlock();
                    logLock.unlock();
                }
            }
            // the next operation of this process sees the other writer's records
            assertThat(events.count()).isEqualTo(2);
            assertThat(jobs.counts().pending()).isEqualTo(2);
            assertThat(gauge(registry, "storh.records", "log", "events")).isEqualTo(2);
            assertThat(registry.get("storh.queue.jobs").tags("name", "jobs", "state", "pending").gauge().value())
                .isEqualTo(2);
        });
    }

    @Test
    void staleWritersAndMaintenanceOperationsAreCounted() {
        contextRunner().run((context) -> {
            MeterRegistry registry = context.getBean(MeterRegistry.class);
            StorhStores stores = context.getBean(StorhStores.class);
            stores.docStore("notes").put(Map.of("text", "x"));
            StaleWriters.leaveCrashedWriter(this.root.resolve("notes"));
            assertThat(gauge(registry, "storh.writers.stale", "collection", "notes")).isEqualTo(1);
            var notes = stores.find(StoreType.COLLECTION, "notes").orElseThrow();
            notes.verify();
            notes.repair();
            assertThat(gauge(registry, "storh.writers.stale", "collection", "notes")).isZero();
            assertThat(registry.get("storh.verify.runs").tags("name", "notes", "outcome", "ok").counter().count())
                .isEqualTo(1);
            assertThat(gauge(registry, "storh.verify.ok", "collection", "notes")).isEqualTo(1);
            assertThat(gauge(registry, "storh.verify.errors", "collection", "notes")).isZero();
            assertThat(registry.get("storh.operation")
                .tags("name", "notes", "operation", "repair", "outcome", "success")
                .timer()
                .count()).isEqualTo(1);
            assertThat(registry.get("storh.operation").tags("name", "notes", "operation", "verify").timer().count())
                .isEqualTo(1);
        });
    }

    @Test
    void backsOffWithoutAMeterRegistry() {
        new ApplicationContextRunner()
            .withConfiguration(
                    AutoConfigurations.of(StorhAutoConfiguration.class, StorhMetricsAutoConfiguration.class))
            .withPropertyValues("storh.root=" + this.root)
            .run((context) -> assertThat(context).hasNotFailed().doesNotHaveBean(StorhMetrics.class));
    }

    @Test
    void backsOffWithoutMicrometer() {
        new ApplicationContextRunner()
            .withConfiguration(
                    AutoConfigurations.of(StorhAutoConfiguration.class, StorhMetricsAutoConfiguration.class))
            .withPropertyValues("storh.root=" + this.root)
            .withClassLoader(new FilteredClassLoader(MeterRegistry.class))
            .run((context) -> assertThat(context).hasNotFailed()
                .hasSingleBean(StorhStores.class)
                .doesNotHaveBean("storhMetrics"));
    }

    @Test
    void applicationMetricsWin() {
        contextRunner().withBean("myMetrics", StorhMetrics.class,
                () -> new StorhMetrics(new StorhStores(this.root, new dev.storh.spring.boot.stores.StorhStoreOptions() {
                })))
            .run((context) -> assertThat(context).hasSingleBean(StorhMetrics.class).hasBean("myMetrics"));
    }

    private static double gauge(MeterRegistry registry, String name, String type, String store) {
        return registry.get(name).tags("type", type, "name", store).gauge().value();
    }

    private static double measure(Meter meter, Statistic statistic) {
        for (var measurement : meter.measure()) {
            if (measurement.getStatistic() == statistic) {
                return measurement.getValue();
            }
        }
        throw new AssertionError("No " + statistic + " in " + meter.getId());
    }

}
