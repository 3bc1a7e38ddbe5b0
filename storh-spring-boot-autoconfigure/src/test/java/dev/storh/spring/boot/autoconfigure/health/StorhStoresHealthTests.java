package dev.storh.spring.boot.autoconfigure.health;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import dev.storh.doc.DocStore;
import dev.storh.id.UuidV7;
import dev.storh.spring.boot.actuate.StorhStoresHealthContributor;
import dev.storh.spring.boot.autoconfigure.StorhAutoConfiguration;
import dev.storh.spring.boot.stores.StaleWriters;
import dev.storh.spring.boot.stores.StoreType;
import dev.storh.spring.boot.stores.StorhStore;
import dev.storh.spring.boot.stores.StorhStores;
import dev.storh.spring.boot.stores.VerifyResult;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.health.contributor.CompositeHealthContributor;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.ApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Health per store: the {@code storhCollections}, {@code storhLogs} and {@code storhQueues}
 * composites of {@link StorhHealthContributorAutoConfiguration}, on real files.
 */
class StorhStoresHealthTests {

    @TempDir
    Path root;

    private ApplicationContextRunner contextRunner() {
        return new ApplicationContextRunner()
            .withConfiguration(
                AutoConfigurations.of(StorhAutoConfiguration.class, StorhHealthContributorAutoConfiguration.class))
            .withPropertyValues("storh.root=" + this.root, "storh.collections.notes.indexes[0].field=text",
                "storh.logs.events.max-segment-bytes=1KB", "storh.queues.jobs.processing-timeout=1m");
    }

    @Test
    void oneHealthPerCollectionLogAndQueueAllUp() {
        contextRunner().run((context) -> {
            assertThat(context).hasBean("storhCollectionsHealthContributor")
                .hasBean("storhLogsHealthContributor")
                .hasBean("storhQueuesHealthContributor");
            assertThat(names(context, "storhCollectionsHealthContributor")).containsExactly("notes");
            assertThat(names(context, "storhLogsHealthContributor")).containsExactly("events");
            assertThat(names(context, "storhQueuesHealthContributor")).containsExactly("jobs");
            Health events = health(context, "storhLogsHealthContributor", "events");
            assertThat(events.getStatus()).isEqualTo(Status.UP);
            assertThat(events.getDetails()).containsEntry("type", "log")
                .containsEntry("path", this.root.resolve("events").toString())
                .containsEntry("staleWriters", List.of());
            assertThat(health(context, "storhQueuesHealthContributor", "jobs").getStatus()).isEqualTo(Status.UP);
        });
    }

    @Test
    void storeHealthWritesNothing() throws Exception {
        contextRunner().run((context) -> {
            List<String> before = tree(this.root);
            for (String contributor : List.of("storhCollectionsHealthContributor", "storhLogsHealthContributor",
                    "storhQueuesHealthContributor")) {
                for (String name : names(context, contributor)) {
                    assertThat(health(context, contributor, name).getStatus()).isEqualTo(Status.UP);
                }
            }
            // no probe file, no created folder, no changed time anywhere below the root
            assertThat(tree(this.root)).isEqualTo(before);
        });
    }

    @Test
    void aStoreFolderDeletedUnderTheApplicationIsDown() {
        contextRunner().run((context) -> {
            dev.storh.fs.AtomicFiles.deleteTree(this.root.resolve("jobs"));
            Health jobs = health(context, "storhQueuesHealthContributor", "jobs");
            assertThat(jobs.getStatus()).isEqualTo(Status.DOWN);
            assertThat(jobs.getDetails().get("reasons").toString()).contains(this.root.resolve("jobs").toString())
                .contains("does not exist");
            assertThat(this.root.resolve("jobs")).doesNotExist();
        });
    }

    private static List<String> tree(Path folder) throws java.io.IOException {
        try (java.util.stream.Stream<Path> files = java.nio.file.Files.walk(folder)) {
            return files.sorted().map((path) -> {
                try {
                    return folder.relativize(path) + " " + java.nio.file.Files.getLastModifiedTime(path);
                }
                catch (java.io.IOException ex) {
                    throw new java.io.UncheckedIOException(ex);
                }
            }).toList();
        }
    }

    @Test
    void collectionsOpenedLaterShowFromTheNextCall() {
        contextRunner().run((context) -> {
            context.getBean(StorhStores.class).docStore("later");
            assertThat(names(context, "storhCollectionsHealthContributor")).containsExactly("later", "notes");
        });
    }

    @Test
    void staleWriterMarkerOfACrashedWriterIsDownNamingItThenUpAfterRepair() {
        contextRunner().run((context) -> {
            Path notes = this.root.resolve("notes");
            Path marker = StaleWriters.leaveCrashedWriter(notes);
            Health down = health(context, "storhCollectionsHealthContributor", "notes");
            assertThat(down.getStatus()).isEqualTo(Status.DOWN);
            assertThat(down.getDetails()).containsEntry("staleWriters", List.of(marker.toString()));
            assertThat((List<String>) down.getDetails().get("reasons")).singleElement()
                .asString()
                .contains("Stale writer marker of a crashed writer: " + marker);

            StorhStore store = context.getBean(StorhStores.class).find(StoreType.COLLECTION, "notes").orElseThrow();
            Map<String, Object> report = store.repair();
            assertThat(report).containsEntry("staleWritersRemoved", 1);
            assertThat(marker).doesNotExist();
            assertThat(StaleWriters.orphanTempFiles(notes)).isZero();
            assertThat(health(context, "storhCollectionsHealthContributor", "notes").getStatus())
                .isEqualTo(Status.UP);
        });
    }

    @Test
    void failedLastVerifyIsDownWithItsErrorsThenUpAfterRepair() {
        contextRunner().run((context) -> {
            StorhStores stores = context.getBean(StorhStores.class);
            DocStore notes = stores.docStore("notes");
            notes.put(Map.of("text", "fine"));
            Path corrupt = notes.pathForId(UuidV7.generate());
            Files.createDirectories(corrupt.getParent());
            Files.writeString(corrupt, "not json");
            StorhStore store = stores.find(StoreType.COLLECTION, "notes").orElseThrow();
            VerifyResult failed = store.verify();
            assertThat(failed.ok()).isFalse();
            Health down = health(context, "storhCollectionsHealthContributor", "notes");
            assertThat(down.getStatus()).isEqualTo(Status.DOWN);
            assertThat(down.getDetails().get("reasons").toString()).contains("failed").contains(corrupt.toString());

            VerifyResult repaired = store.verify(true);
            assertThat(repaired.ok()).isTrue();
            assertThat(repaired.repaired()).isTrue();
            assertThat(corrupt).doesNotExist();
            Health up = health(context, "storhCollectionsHealthContributor", "notes");
            assertThat(up.getStatus()).isEqualTo(Status.UP);
            assertThat((Map<String, Object>) up.getDetails().get("lastVerify")).containsEntry("ok", true)
                .containsEntry("repaired", true);
        });
    }

    @Test
    void switchedOffWithTheFolderHealth() {
        contextRunner().withPropertyValues("management.health.storh.enabled=false")
            .run((context) -> assertThat(context).doesNotHaveBean(StorhStoresHealthContributor.class));
    }

    @Test
    void applicationContributorOfTheSameNameWins() {
        contextRunner()
            .withBean("storhLogsHealthContributor", HealthIndicator.class, () -> () -> Health.unknown().build())
            .run((context) -> {
                assertThat(context.getBeansOfType(StorhStoresHealthContributor.class)).containsOnlyKeys(
                        "storhCollectionsHealthContributor", "storhQueuesHealthContributor");
            });
    }

    private static List<String> names(ApplicationContext context, String bean) {
        return context.getBean(bean, CompositeHealthContributor.class)
            .stream()
            .map(CompositeHealthContributor.Entry::name)
            .toList();
    }

    private static Health health(ApplicationContext context, String bean, String store) {
        return ((HealthIndicator) context.getBean(bean, CompositeHealthContributor.class).getContributor(store))
            .health(true);
    }

}
