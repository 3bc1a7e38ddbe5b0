package dev.storh.azure.blob.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.storh.StorageRecord;
import dev.storh.azure.blob.AzureBlobBackend;
import dev.storh.azure.blob.Azurite;
import dev.storh.log.SegmentedLog;
import dev.storh.queue.Queue;
import dev.storh.queue.QueueCounts;
import dev.storh.azure.blob.spring.places.Place;
import dev.storh.azure.blob.spring.places.PlaceRepository;
import dev.storh.spring.boot.autoconfigure.StorhAutoConfiguration;
import dev.storh.spring.boot.autoconfigure.StorhRepositoriesAutoConfiguration;
import dev.storh.spring.boot.autoconfigure.health.StorhHealthContributorAutoConfiguration;
import dev.storh.spring.boot.autoconfigure.metrics.StorhMetricsAutoConfiguration;
import dev.storh.spring.boot.stores.StoreFilesFactory;
import dev.storh.spring.boot.stores.StorhStores;
import dev.storh.spring.data.repository.config.EnableStorhRepositories;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Configuration;
import org.springframework.dao.OptimisticLockingFailureException;

/**
 * {@code storh.backend=azure-blob} moves the stores Boot opens onto the container: a repository's
 * collection, the log and the queue of {@code storh.*} properties write blobs, timed as on files, and
 * a second application on the same container reads what the first wrote; of two instances saving
 * one version of an entity, the stale one fails with {@link OptimisticLockingFailureException}.
 */
class StorhAzureBlobBootStoresTest {

    @TempDir
    Path root;

    private ApplicationContextRunner runner(String container) {
        return runner(container, "storh");
    }

    /** An application on the container; two with other {@code storh.root}s are two instances of one application. */
    private ApplicationContextRunner runner(String container, String instance) {
        return new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(StorhAzureBlobAutoConfiguration.class,
                        StorhAzureBlobStoresAutoConfiguration.class, StorhAutoConfiguration.class,
                        StorhRepositoriesAutoConfiguration.class, MetricsAutoConfiguration.class,
                        StorhMetricsAutoConfiguration.class, StorhHealthContributorAutoConfiguration.class))
                .withBean(SimpleMeterRegistry.class).withUserConfiguration(Places.class)
                .withPropertyValues("storh.backend=azure-blob", "storh.azure.blob.connection-string="
                        + Azurite.connectionString(), "storh.azure.blob.container=" + container,
                        "storh.root=" + root.resolve(instance), "storh.logs.audit.max-segment-bytes=1KB",
                        "storh.queues.jobs.processing-timeout=10m");
    }

    private static long timed(MeterRegistry registry, String type, String name, String operation) {
        return registry.get("storh.operation").tags("type", type, "name", name, "operation", operation, "outcome", "success")
                .timer().count();
    }

    @Test
    void logsAndQueuesFromPropertiesLiveInTheContainer() {
        String container = Azurite.freshContainer();
        List<String> appended = new ArrayList<>();
        runner(container).run(context -> {
            assertThat(context).hasNotFailed();
            assertThat(context.getBean(StoreFilesFactory.class).isLocal()).isFalse();
            SegmentedLog audit = context.getBean("audit", SegmentedLog.class);
            for (int i = 0; i < 30; i++) {
                appended.add(audit.put(Map.of("n", (long) i, "pad", "x".repeat(60))).id());
            }
            Queue jobs = context.getBean("jobs", Queue.class);
            jobs.enqueueMany(List.of(Map.of("job", "a"), Map.of("job", "b")));
            Optional<StorageRecord> claimed = jobs.claim();
            assertThat(claimed).isPresent();
            jobs.complete(claimed.get().id());
            PlaceRepository places = context.getBean(PlaceRepository.class);
            Place saved = places.save(Place.of("Cluj", 286_598));
            places.save(Place.of("Iasi", 271_692));
            assertThat(places.findById(saved.id())).contains(saved);
            assertThat(places.findByName("Iasi")).singleElement().satisfies(p -> assertThat(p.population()).isEqualTo(271_692L));
            assertThat(context.getBean(StorhStores.class).stores()).hasSize(3);
            MeterRegistry registry = context.getBean(MeterRegistry.class);
            assertThat(timed(registry, "log", "audit", "append")).as("metrics as for files").isEqualTo(30);
            assertThat(timed(registry, "queue", "jobs", "claim")).isEqualTo(1);
            assertThat(registry.get("storh.queue.jobs").tags("name", "jobs", "state", "pending").gauge().value()).isEqualTo(1.0);
            assertThat(registry.get("storh.log.segments").tags("name", "audit").gauge().value()).isGreaterThan(1.0);
        });
        AzureBlobBackend backend = Azurite.backend(container);
        try {
            List<String> blobs = backend.container().listBlobs().stream().map(b -> b.getName()).toList();
            assertThat(blobs).anySatisfy(n -> assertThat(n).matches("[0-9a-f]{3}/jobs/queue\\.log"));
            assertThat(blobs.stream().filter(n -> n.matches("[0-9a-f]{2}/places/data/[0-9a-f-]{36}\\.jsonc")).count())
                    .as("records are blobs named bucket first: %s", blobs).isEqualTo(2);
            assertThat(blobs.stream().filter(n -> n.matches("[0-9a-f]/audit/segments/seg-\\d+\\.ndjson")).count())
                    .as("the 1KB segments rolled: %s", blobs).isGreaterThan(1);
        } finally {
            backend.close();
        }
        runner(container).run(context -> {
            SegmentedLog audit = context.getBean("audit", SegmentedLog.class);
            assertThat(audit.count()).isEqualTo(30);
            assertThat(audit.stream().map(StorageRecord::id).toList()).containsExactlyElementsOf(appended);
            assertThat(audit.get(appended.get(7))).hasValueSatisfying(r -> assertThat(r.data()).containsEntry("n", 7L));
            assertThat(context.getBean("jobs", Queue.class).counts()).isEqualTo(new QueueCounts(1, 0, 1));
            assertThat(context.getBean(PlaceRepository.class).findAll()).extracting(Place::name)
                    .containsExactlyInAnyOrder("Cluj", "Iasi");
        });
        Azurite.backend(container).container().delete();
    }

    @Test
    void aStaleSaveFromAnotherInstanceFailsWithOptimisticLocking() {
        String container = Azurite.freshContainer();
        runner(container, "one").run(one -> runner(container, "two").run(two -> {
            PlaceRepository first = one.getBean(PlaceRepository.class);
            PlaceRepository second = two.getBean(PlaceRepository.class);
            Place saved = first.save(Place.of("Brasov", 237_589));
            Place seenByTwo = second.findById(saved.id()).orElseThrow();
            assertThat(seenByTwo).isEqualTo(saved);
            Place newer = second.save(seenByTwo.withPopulation(240_000));
            assertThat(newer.version()).isEqualTo(saved.version() + 1);
            assertThatThrownBy(() -> first.save(saved.withPopulation(1))).isInstanceOf(OptimisticLockingFailureException.class)
                    .hasMessageContaining(saved.id());
            assertThat(first.findById(saved.id())).contains(newer);
        }));
        Azurite.backend(container).container().delete();
    }

    @Test
    void theStorhHealthComponentChecksAndNamesTheContainerNotTheLocalRoot() {
        String container = Azurite.freshContainer();
        runner(container).run(context -> {
            assertThat(context).hasNotFailed();
            HealthIndicator storh = context.getBean("storhHealthIndicator", HealthIndicator.class);
            assertThat(storh).isInstanceOf(StorhBlobStoresHealthIndicator.class);
            context.getBean(PlaceRepository.class).save(Place.of("Sibiu", 134_309));
            Health up = storh.health(true);
            assertThat(up.getStatus()).isEqualTo(Status.UP);
            assertThat(up.getDetails()).containsEntry("backend", "azure-blob").containsEntry("container", container)
                    .containsEntry("collections", List.of("places")).containsEntry("logs", List.of("audit"))
                    .containsEntry("queues", List.of("jobs")).doesNotContainKeys("root", "exists", "staleWriters");
            assertThat(up.getDetails().get("url").toString()).endsWith("/" + container);
            try (java.util.stream.Stream<Path> local = java.nio.file.Files.walk(root)) {
                assertThat(local.filter(java.nio.file.Files::isRegularFile)).as("no file below the local root").isEmpty();
            }
            context.getBean(AzureBlobBackend.class).container().delete();
            Health down = storh.health(true);
            assertThat(down.getStatus()).isEqualTo(Status.DOWN);
            assertThat(down.getDetails()).containsEntry("container", container)
                    .containsEntry("error", "container " + container + " does not exist");
        });
    }

    /** The application's repositories. */
    @Configuration(proxyBeanMethods = false)
    @EnableStorhRepositories(basePackageClasses = PlaceRepository.class)
    static class Places {
    }
}
