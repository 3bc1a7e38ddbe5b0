package dev.storh.spring.boot.autoconfigure.metrics;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import dev.storh.StorageRecord;
import dev.storh.doc.DocStore;
import dev.storh.log.SegmentedLog;
import dev.storh.observe.StoreObserver;
import dev.storh.queue.Queue;
import dev.storh.spring.boot.actuate.StorhOperationMetrics;
import dev.storh.spring.boot.autoconfigure.StorhAutoConfiguration;
import dev.storh.spring.boot.autoconfigure.StorhRepositoriesAutoConfiguration;
import dev.storh.spring.boot.stores.StorhStores;
import dev.storh.spring.data.repository.config.EnableStorhRepositories;
import dev.storh.spring.sample.notes.Note;
import dev.storh.spring.sample.notes.NoteRepository;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Configuration;
import org.springframework.dao.DataRetrievalFailureException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * The {@code storh.operation} timers of data operations and the {@code storh.fsync} latency
 * distribution, read from the real {@link MeterRegistry} after real operations on real files.
 */
class StorhOperationMetricsTests {

    @TempDir
    Path root;

    private ApplicationContextRunner contextRunner() {
        return new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(MetricsAutoConfiguration.class, StorhAutoConfiguration.class,
                    StorhRepositoriesAutoConfiguration.class, StorhMetricsAutoConfiguration.class))
            .withBean(SimpleMeterRegistry.class)
            .withUserConfiguration(NotesConfig.class)
            .withPropertyValues("storh.root=" + this.root, "storh.queues.jobs.processing-timeout=1m",
                    "storh.logs.events.max-segment-bytes=1MB");
    }

    @Test
    void repositoryAndQueueOperationsAreTimedWithStoreOperationAndOutcome() {
        contextRunner().run((context) -> {
            assertThat(context).hasSingleBean(StorhOperationMetrics.class);
            MeterRegistry registry = context.getBean(MeterRegistry.class);
            NoteRepository notes = context.getBean(NoteRepository.class);
            Note first = notes.save(new Note(null, "one"));
            notes.save(new Note(null, "two"));
            notes.save(new Note(null, "three"));
            notes.save(new Note(null, "four"));
            assertThat(notes.findById(first.id())).contains(first);
            assertThat(notes.findByText("two")).hasSize(1);
            notes.deleteById(first.id());
            Queue jobs = context.getBean("jobs", Queue.class);
            jobs.enqueue(Map.of("kind", "a"));
            assertThat(jobs.claim()).isPresent();
            assertThat(jobs.claim()).isEmpty();
            SegmentedLog events = context.getBean("events", SegmentedLog.class);
            events.put(Map.of("type", "created"));
            events.appendMany(List.of(Map.of("type", "a"), Map.of("type", "b")));

            assertThat(count(registry, "collection", "note", "put", "success")).isEqualTo(4);
            assertThat(count(registry, "collection", "note", "get", "success")).isGreaterThanOrEqualTo(1);
            assertThat(count(registry, "collection", "note", "query", "success")).isGreaterThanOrEqualTo(1);
            assertThat(count(registry, "collection", "note", "delete", "success")).isEqualTo(1);
            assertThat(count(registry, "queue", "jobs", "claim", "success")).isEqualTo(2);
            assertThat(count(registry, "log", "events", "append", "success")).isEqualTo(2);
            Timer put = registry.get("storh.operation")
                .tags("type", "collection", "name", "note", "operation", "put", "outcome", "success")
                .timer();
            assertThat(put.totalTime(java.util.concurrent.TimeUnit.NANOSECONDS)).isPositive();
        });
    }

    @Test
    void aFailedReadIsTimedAsFailure() {
        contextRunner().run((context) -> {
            MeterRegistry registry = context.getBean(MeterRegistry.class);
            NoteRepository notes = context.getBean(NoteRepository.class);
            Note note = notes.save(new Note(null, "soon corrupt"));
            DocStore store = context.getBean(StorhStores.class).docStore("note");
            Files.write(store.pathForId(note.id()), "{not json".getBytes(StandardCharsets.UTF_8));
            assertThatExceptionOfType(DataRetrievalFailureException.class).isThrownBy(() -> notes.findById(note.id()));
            assertThat(count(registry, "collection", "note", "get", "failure")).isEqualTo(1);
        });
    }

    @Test
    void everyFsyncLandsInTheLatencyHistogram() {
        contextRunner().run((context) -> {
            MeterRegistry registry = context.getBean(MeterRegistry.class);
            DocStore store = context.getBean(StorhStores.class).docStore("note");
            StorageRecord record = store.put(Map.of("text", "synced"));
            store.put(Map.of("text", "again"), record.id());
            // each put: the batch journal's fdatasync; folders: the writer marker's and the new journal's (docs/batch-journal.md)
            Timer files = registry.get("storh.fsync").tags("name", "note", "target", "file").timer();
            Timer folders = registry.get("storh.fsync").tags("name", "note", "target", "directory").timer();
            assertThat(files.count()).isGreaterThanOrEqualTo(2);
            assertThat(folders.count()).isGreaterThanOrEqualTo(2);
            assertThat(files.takeSnapshot().histogramCounts()).as("percentile histogram buckets").isNotEmpty();
            assertThat(files.max(java.util.concurrent.TimeUnit.NANOSECONDS)).isPositive();
        });
    }

    @Test
    void withoutAMeterRegistryTheStoresAreNotObserved() {
        new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(StorhAutoConfiguration.class, StorhMetricsAutoConfiguration.class))
            .withPropertyValues("storh.root=" + this.root)
            .run((context) -> {
                assertThat(context).doesNotHaveBean(StoreObserver.class);
                assertThat(context.getBean(StorhStores.class).docStore("note").put(Map.of("text", "x"))).isNotNull();
            });
    }

    private static long count(MeterRegistry registry, String type, String name, String operation, String outcome) {
        Timer timer = registry.find("storh.operation")
            .tags("type", type, "name", name, "operation", operation, "outcome", outcome)
            .timer();
        return (timer != null) ? timer.count() : 0;
    }

    @Configuration(proxyBeanMethods = false)
    @EnableStorhRepositories(basePackageClasses = NoteRepository.class)
    static class NotesConfig {

    }

}
