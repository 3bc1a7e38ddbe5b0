package dev.storh.spring.boot.autoconfigure.endpoint;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import dev.storh.doc.DocStore;
import dev.storh.log.SegmentedLog;
import dev.storh.queue.Queue;
import dev.storh.spring.boot.actuate.StorhEndpoint;
import dev.storh.spring.boot.actuate.StorhEndpoint.CollectionDescriptor;
import dev.storh.spring.boot.actuate.StorhEndpoint.LogDescriptor;
import dev.storh.spring.boot.actuate.StorhEndpoint.QueueDescriptor;
import dev.storh.spring.boot.actuate.StorhEndpoint.StoresDescriptor;
import dev.storh.spring.boot.autoconfigure.StorhAutoConfiguration;
import dev.storh.spring.boot.stores.BucketSizes;
import dev.storh.spring.boot.stores.StaleWriters;
import dev.storh.spring.boot.stores.StorhStores;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * {@link StorhEndpointAutoConfiguration} and the {@link StorhEndpoint}'s answers on real files.
 */
class StorhEndpointAutoConfigurationTests {

    @TempDir
    Path root;

    private ApplicationContextRunner contextRunner() {
        return new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(StorhAutoConfiguration.class, StorhEndpointAutoConfiguration.class))
            .withPropertyValues("storh.root=" + this.root, "storh.logs.events.max-segment-bytes=1KB",
                    "storh.queues.jobs.processing-timeout=2m");
    }

    @Test
    void availableWhenExposed() {
        contextRunner().withPropertyValues("management.endpoints.web.exposure.include=storh")
            .run((context) -> assertThat(context).hasSingleBean(StorhEndpoint.class));
    }

    @Test
    void notAvailableWhenNotExposed() {
        contextRunner().run((context) -> assertThat(context).doesNotHaveBean(StorhEndpoint.class));
    }

    @Test
    void notAvailableWhenAccessIsNone() {
        contextRunner()
            .withPropertyValues("management.endpoints.web.exposure.include=storh",
                    "management.endpoint.storh.access=NONE")
            .run((context) -> assertThat(context).doesNotHaveBean(StorhEndpoint.class));
    }

    @Test
    void backsOffWithoutActuator() {
        contextRunner().withPropertyValues("management.endpoints.web.exposure.include=storh")
            .withClassLoader(new FilteredClassLoader("org.springframework.boot.actuate"))
            .run((context) -> assertThat(context).hasNotFailed()
                .hasSingleBean(StorhStores.class)
                .doesNotHaveBean("storhEndpoint"));
    }

    @Test
    void applicationEndpointWins() {
        contextRunner().withPropertyValues("management.endpoints.web.exposure.include=storh")
            .withBean("myEndpoint", StorhEndpoint.class,
                    () -> new StorhEndpoint(new StorhStores(this.root, new dev.storh.spring.boot.stores.StorhStoreOptions() {
                    })))
            .run((context) -> assertThat(context).hasSingleBean(StorhEndpoint.class).hasBean("myEndpoint"));
    }

    @Test
    @SuppressWarnings("unchecked")
    void listsEveryStoreWithBucketSizesWritersSegmentsAndQueueCounts() {
        contextRunner().withPropertyValues("management.endpoints.web.exposure.include=storh").run((context) -> {
            StorhStores stores = context.getBean(StorhStores.class);
            DocStore notes = stores.docStore("notes");
            for (int i = 0; i < 500; i++) {
                notes.put(Map.of("text", "note " + i));
            }
            SegmentedLog events = context.getBean("events", SegmentedLog.class);
            events.put(Map.of("type", "city.created"));
            Queue jobs = context.getBean("jobs", Queue.class);
            jobs.enqueue(Map.of("kind", "geocode-check"));
            Path stale = StaleWriters.leaveCrashedWriter(this.root.resolve("events"));

            StoresDescriptor all = context.getBean(StorhEndpoint.class).stores();
            assertThat(all.root()).isEqualTo(this.root.toString());
            assertThat(all.collections()).containsOnlyKeys("notes");
            CollectionDescriptor collection = (CollectionDescriptor) all.collections().get("notes");
            BucketSizes sizes = BucketSizes.of(this.root.resolve("notes"));
            assertThat(collection.records()).isEqualTo(500);
            assertThat(collection.buckets().count()).isEqualTo(256);
            assertThat(collection.buckets().sizes()).hasSize(256).containsKeys("00", "7f", "ff");
            assertThat(collection.buckets().sizes().values().stream().mapToLong(Integer::longValue).sum())
                .isEqualTo(500);
            assertThat(collection.buckets().total()).isEqualTo(500);
            assertThat(collection.buckets().min()).isEqualTo(sizes.min());
            assertThat(collection.buckets().max()).isEqualTo(sizes.max());
            assertThat(collection.buckets().mean()).isEqualTo(500 / 256.0);
            assertThat(collection.writers().live()).hasSize(1)
                .allSatisfy((name) -> assertThat(name).startsWith(ProcessHandle.current().pid() + "."));
            assertThat(collection.writers().stale()).isEmpty();
            assertThat(collection.lastVerify()).isNull();

            LogDescriptor log = (LogDescriptor) all.logs().get("events");
            assertThat(log.records()).isEqualTo(1);
            assertThat(log.segments()).isEqualTo(events.stats().segments());
            assertThat(log.bytes()).isEqualTo(events.stats().bytes());
            assertThat(log.writers().stale()).containsExactly(stale.toString());

            QueueDescriptor queue = (QueueDescriptor) all.queues().get("jobs");
            assertThat(queue.pending()).isEqualTo(1);
            assertThat(queue.processing()).isZero();
            assertThat(queue.processingTimeoutSeconds()).isEqualTo(120);

            assertThat(context.getBean(StorhEndpoint.class).store("logs", "events")).isInstanceOf(LogDescriptor.class);
            assertThat(context.getBean(StorhEndpoint.class).store("queue", "jobs")).isInstanceOf(QueueDescriptor.class);
            assertThat(context.getBean(StorhEndpoint.class).store("collections", "nope")).isNull();
            assertThat(context.getBean(StorhEndpoint.class).store("tables", "notes")).isNull();
        });
    }

    @Test
    @SuppressWarnings("unchecked")
    void writeOperationsRunVerifyRepairCompactAndReindex() {
        contextRunner().withPropertyValues("management.endpoints.web.exposure.include=storh").run((context) -> {
            StorhEndpoint endpoint = context.getBean(StorhEndpoint.class);
            context.getBean(StorhStores.class).docStore("notes").put(Map.of("text", "x"));
            Map<String, Object> verify = endpoint.run("collections", "notes", "verify");
            assertThat(verify).containsEntry("store", "collections/notes").containsEntry("operation", "verify");
            assertThat((Map<String, Object>) verify.get("report")).containsEntry("ok", true)
                .containsEntry("errors", List.of());
            assertThat((Map<String, Object>) endpoint.run("collections", "notes", "reindex").get("report"))
                .containsEntry("entries", 1L);
            assertThat((Map<String, Object>) endpoint.run("collections", "notes", "compact").get("report"))
                .containsEntry("records", 1L);
            assertThat((Map<String, Object>) endpoint.run("logs", "events", "repair").get("report"))
                .containsEntry("ok", true);
            assertThat((Map<String, Object>) endpoint.run("queues", "jobs", "compact").get("report"))
                .containsKey("bytesAfter");
            assertThat(((CollectionDescriptor) endpoint.store("collections", "notes")).lastVerify())
                .containsEntry("ok", true);
            assertThat(endpoint.run("collections", "nope", "verify")).isNull();
            assertThatIllegalArgumentException().isThrownBy(() -> endpoint.run("collections", "notes", "drop"))
                .withMessageContaining("'drop'");
            assertThatIllegalArgumentException().isThrownBy(() -> endpoint.run("logs", "events", "reindex"))
                .withMessageContaining("collections only");
        });
    }

}
