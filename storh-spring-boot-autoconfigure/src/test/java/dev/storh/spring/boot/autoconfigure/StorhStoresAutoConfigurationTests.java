package dev.storh.spring.boot.autoconfigure;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.stream.Stream;

import dev.storh.doc.DocStore;
import dev.storh.doc.index.IndexDefinition;
import dev.storh.log.SegmentedLog;
import dev.storh.queue.Queue;
import dev.storh.spring.boot.stores.LogStore;
import dev.storh.spring.boot.stores.QueueStore;
import dev.storh.spring.boot.stores.StoreType;
import dev.storh.spring.boot.stores.StorhStore;
import dev.storh.spring.boot.stores.StorhStoreOptions;
import dev.storh.spring.boot.stores.StorhStores;
import dev.storh.spring.data.core.StorhOperations;
import dev.storh.spring.data.core.StorhTemplate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.context.properties.bind.BindException;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The {@link StorhStores} registry, the log and queue beans and the {@code storh.*} store
 * properties of {@link StorhAutoConfiguration}, on a real temporary folder.
 */
class StorhStoresAutoConfigurationTests {

    @TempDir
    Path root;

    private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
        .withConfiguration(AutoConfigurations.of(StorhAutoConfiguration.class));

    @Test
    void templateTakesItsCollectionsFromTheRegistry() {
        this.contextRunner.withPropertyValues("storh.root=" + this.root).run((context) -> {
            assertThat(context).hasSingleBean(StorhStores.class).hasSingleBean(StorhTemplate.class);
            StorhStores stores = context.getBean(StorhStores.class);
            DocStore notes = context.getBean(StorhTemplate.class).docStore("notes");
            assertThat(stores.docStore("notes")).isSameAs(notes);
            assertThat(stores.stores()).extracting(StorhStore::type, StorhStore::name)
                .containsExactly(org.assertj.core.groups.Tuple.tuple(StoreType.COLLECTION, "notes"));
            assertThat(stores.collectionsFolder()).isEqualTo(this.root);
        });
    }

    @Test
    void logAndQueueBeansAreInjectableByQualifierWithTheirOptions() {
        this.contextRunner
            .withPropertyValues("storh.root=" + this.root, "storh.logs.events.max-segment-bytes=300B",
                    "storh.logs.events.sparse-index-interval=2", "storh.logs.events.retention=30d",
                    "storh.queues.jobs.processing-timeout=90s")
            .withUserConfiguration(UsesEventsAndJobs.class)
            .run((context) -> {
                assertThat(context).hasBean("events").hasBean("jobs");
                UsesEventsAndJobs user = context.getBean(UsesEventsAndJobs.class);
                for (int i = 0; i < 10; i++) {
                    user.events.put(Map.of("type", "city.created", "n", (long) i));
                }
                assertThat(user.events.stats().segments()).isGreaterThan(1);
                assertThat(user.events.collectionDir()).isEqualTo(this.root.resolve("events"));
                String job = user.jobs.enqueue(Map.of("kind", "geocode-check"));
                assertThat(user.jobs.claim()).hasValueSatisfying((claimed) -> assertThat(claimed.id()).isEqualTo(job));
                StorhStores stores = context.getBean(StorhStores.class);
                LogStore log = (LogStore) stores.find(StoreType.LOG, "events").orElseThrow();
                assertThat(log.log()).isSameAs(user.events);
                assertThat(log.retentionDays()).isEqualTo(30);
                QueueStore queue = (QueueStore) stores.find(StoreType.QUEUE, "jobs").orElseThrow();
                assertThat(queue.queue()).isSameAs(user.jobs);
                assertThat(queue.processingTimeout()).hasSeconds(90);
            });
    }

    @Test
    void applicationBeanNamedLikeALogWinsAndIsShownInTheRegistry() {
        Path elsewhere = this.root.resolve("elsewhere");
        this.contextRunner.withPropertyValues("storh.root=" + this.root, "storh.logs.events.max-segment-bytes=1KB")
            .withBean("events", SegmentedLog.class, () -> SegmentedLog.open(elsewhere, "events"))
            .run((context) -> {
                assertThat(context).hasSingleBean(SegmentedLog.class);
                SegmentedLog events = context.getBean("events", SegmentedLog.class);
                assertThat(events.collectionDir()).isEqualTo(elsewhere.resolve("events"));
                StorhStore shown = context.getBean(StorhStores.class).find(StoreType.LOG, "events").orElseThrow();
                assertThat(shown.engine()).isSameAs(events);
                assertThat(shown.owned()).isFalse();
            });
    }

    @Test
    void applicationQueueBeanIsShownInTheRegistry() {
        this.contextRunner.withPropertyValues("storh.root=" + this.root)
            .withBean("mail", Queue.class, () -> Queue.open(this.root, "mail"))
            .run((context) -> assertThat(context.getBean(StorhStores.class).find(StoreType.QUEUE, "mail"))
                .hasValueSatisfying((store) -> assertThat(store.engine()).isSameAs(context.getBean(Queue.class))));
    }

    @Test
    void applicationRegistryWins() {
        StorhStores own = new StorhStores(this.root.resolve("own"), new StorhStoreOptions() {
        });
        this.contextRunner.withPropertyValues("storh.root=" + this.root)
            .withBean(StorhStores.class, () -> own)
            .run((context) -> {
                assertThat(context).hasSingleBean(StorhStores.class);
                assertThat(context.getBean(StorhOperations.class).collectionsFolder())
                    .isEqualTo(this.root.resolve("own"));
            });
    }

    @Test
    void applicationOperationsLendTheirCollectionsToTheRegistry() {
        this.contextRunner.withPropertyValues("storh.root=" + this.root, "storh.collections.notes.indexes[0].field=text")
            .withBean(StorhOperations.class, () -> new StorhTemplate(this.root))
            .run((context) -> {
                assertThat(context).doesNotHaveBean("storhTemplate");
                DocStore notes = context.getBean(StorhOperations.class).docStore("notes");
                assertThat(context.getBean(StorhStores.class).docStore("notes")).isSameAs(notes);
            });
    }

    @Test
    void configuredCollectionsAreOpenedAtStartupWithTheirIndexesAndCache() {
        this.contextRunner
            .withPropertyValues("storh.root=" + this.root, "storh.cache.max-entries=1000", "storh.cache.max-bytes=4MB",
                    "storh.cache.validation=hash", "storh.collections.cities.indexes[0].field=country",
                    "storh.collections.cities.indexes[1].field=name", "storh.collections.cities.indexes[1].range=true",
                    "storh.collections.cities.cache.max-entries=10", "storh.collections.cities.cache.validation=trust")
            .run((context) -> {
                StorhStores stores = context.getBean(StorhStores.class);
                assertThat(stores.find(StoreType.COLLECTION, "cities")).isPresent();
                DocStore cities = stores.docStore("cities");
                assertThat(cities.indexes().definitions()).extracting(IndexDefinition::field)
                    .containsExactlyInAnyOrder("country", "name");
                String id = cities.put(Map.of("name", "Cluj", "country", "RO")).id();
                assertThat(cities.get(id)).isPresent();
                assertThat(cities.query().where("country").eq("RO").count()).isEqualTo(1);
            });
    }

    @Test
    void closingTheContextClosesLogsQueuesAndCollectionsAndRemovesTheirWriterMarkers() throws Exception {
        this.contextRunner.withPropertyValues("storh.root=" + this.root, "storh.logs.events.max-segment-bytes=1KB",
                "storh.queues.jobs.processing-timeout=1m")
            .withUserConfiguration(UsesEventsAndJobs.class)
            .run((context) -> {
                UsesEventsAndJobs user = context.getBean(UsesEventsAndJobs.class);
                user.events.put(Map.of("type", "city.created"));
                context.getBean(StorhTemplate.class).docStore("notes").put(Map.of("text", "hello"));
                assertThat(markers(this.root.resolve("events"))).hasSize(1);
                assertThat(markers(this.root.resolve("notes"))).hasSize(1);
            });
        assertThat(markers(this.root.resolve("events"))).isEmpty();
        assertThat(markers(this.root.resolve("notes"))).isEmpty();
    }

    @Test
    void segmentSizeBelowTheMinimumFailsNamingTheProperty() {
        assertFailsNaming("storh.logs.events.max-segment-bytes=12B", "storh.logs.events.max-segment-bytes",
                "Segment size must be at least 256 bytes");
    }

    @Test
    void retentionInHoursFailsNamingTheProperty() {
        assertFailsNaming("storh.logs.events.retention=12h", "storh.logs.events.retention", "whole days");
    }

    @Test
    void sparseIntervalBelowOneFailsNamingTheProperty() {
        assertFailsNaming("storh.logs.events.sparse-index-interval=0", "storh.logs.events.sparse-index-interval",
                "at least 1");
    }

    @Test
    void negativeProcessingTimeoutFailsNamingTheProperty() {
        assertFailsNaming("storh.queues.jobs.processing-timeout=-5s", "storh.queues.jobs.processing-timeout",
                "zero or more");
    }

    @Test
    void cacheBytesWithoutEntriesFailsNamingTheProperty() {
        assertFailsNaming("storh.cache.max-bytes=1MB", "storh.cache.max-entries", "needs max-entries");
    }

    @Test
    void aLogAndAQueueOfOneNameFailNamingTheProperty() {
        this.contextRunner
            .withPropertyValues("storh.root=" + this.root, "storh.logs.work.max-segment-bytes=1KB",
                    "storh.queues.work.processing-timeout=1m")
            .run((context) -> assertThat(context.getStartupFailure()).rootCause()
                .isInstanceOf(InvalidStorhPropertyException.class)
                .hasMessageContaining("storh.queues.work")
                .hasMessageContaining("already used by storh.logs.work"));
    }

    @Test
    void cronAndIntervalTogetherFailNamingTheProperty() {
        this.contextRunner
            .withPropertyValues("storh.root=" + this.root, "storh.verify.cron=0 0 3 * * *", "storh.verify.interval=1h")
            .run((context) -> assertThat(context.getStartupFailure()).rootCause()
                .isInstanceOf(InvalidStorhPropertyException.class)
                .hasMessageContaining("'storh.verify.interval'"));
    }

    @Test
    void badCronFailsNamingTheProperty() {
        assertFailsNaming("storh.verify.cron=every night", "storh.verify.cron", "");
    }

    @Test
    void unknownCacheValidationModeFailsNamingTheProperty() {
        this.contextRunner.withPropertyValues("storh.root=" + this.root, "storh.cache.validation=never")
            .run((context) -> {
                BindException bind = findCause(context.getStartupFailure(), BindException.class);
                assertThat(bind).isNotNull();
                assertThat(bind.getMessage()).contains("storh.cache.validation");
                assertThat(bind.getProperty().getName().toString()).isEqualTo("storh.cache.validation");
                assertThat(bind.getProperty().getValue()).isEqualTo("never");
            });
    }

    private void assertFailsNaming(String property, String name, String reason) {
        this.contextRunner.withPropertyValues("storh.root=" + this.root, property).run((context) -> {
            InvalidStorhPropertyException failure = findCause(context.getStartupFailure(),
                    InvalidStorhPropertyException.class);
            assertThat(failure).as("startup failure of " + property).isNotNull();
            assertThat(failure.getProperty()).isEqualTo(name);
            assertThat(failure.getReason()).contains(reason);
            FailureAnalysis analysis = new InvalidStorhPropertyFailureAnalyzer().analyze(context.getStartupFailure());
            assertThat(analysis).isNotNull();
            assertThat(analysis.getDescription()).contains("'" + name + "'").contains(reason);
            assertThat(analysis.getAction()).contains("'" + name + "'");
        });
    }

    private static <T extends Throwable> T findCause(Throwable failure, Class<T> type) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (type.isInstance(cause)) {
                return type.cast(cause);
            }
        }
        return null;
    }

    private static java.util.List<Path> markers(Path collection) throws java.io.IOException {
        Path writers = collection.resolve(".storh").resolve("writers");
        if (!Files.isDirectory(writers)) {
            return java.util.List.of();
        }
        try (Stream<Path> files = Files.list(writers)) {
            return files.toList();
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class UsesEventsAndJobs {

        final SegmentedLog events;

        final Queue jobs;

        UsesEventsAndJobs(@Qualifier("events") SegmentedLog events, @Qualifier("jobs") Queue jobs) {
            this.events = events;
            this.jobs = jobs;
        }

        @Bean
        String marker() {
            return "uses events and jobs";
        }

    }

}
