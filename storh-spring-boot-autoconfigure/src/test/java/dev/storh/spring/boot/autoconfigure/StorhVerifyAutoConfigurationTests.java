package dev.storh.spring.boot.autoconfigure;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import dev.storh.doc.DocStore;
import dev.storh.id.UuidV7;
import dev.storh.spring.boot.autoconfigure.metrics.StorhMetricsAutoConfiguration;
import dev.storh.spring.boot.stores.StoreType;
import dev.storh.spring.boot.stores.StorhStore;
import dev.storh.spring.boot.stores.StorhStores;
import dev.storh.spring.boot.stores.StorhVerifyScheduler;
import dev.storh.spring.boot.stores.VerifyResult;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.scheduling.support.PeriodicTrigger;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link StorhVerifyAutoConfiguration}: scheduled verify runs on real files, their results in
 * the stores and in the meters.
 */
class StorhVerifyAutoConfigurationTests {

    private static final long WAIT_MS = 10_000;

    @TempDir
    Path root;

    private ApplicationContextRunner contextRunner() {
        return new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(MetricsAutoConfiguration.class, StorhAutoConfiguration.class,
                    StorhVerifyAutoConfiguration.class, StorhMetricsAutoConfiguration.class))
            .withBean(SimpleMeterRegistry.class)
            .withPropertyValues("storh.root=" + this.root, "storh.collections.notes.indexes[0].field=text",
                    "storh.logs.events.max-segment-bytes=1KB");
    }

    @Test
    void noScheduleWithoutCronOrInterval() {
        contextRunner().run((context) -> assertThat(context).doesNotHaveBean(StorhVerifyScheduler.class));
    }

    @Test
    void cronSchedulesTheVerify() {
        contextRunner().withPropertyValues("storh.verify.cron=0 0 3 * * *")
            .run((context) -> assertThat(context).hasSingleBean(StorhVerifyScheduler.class));
    }

    @Test
    void applicationSchedulerWins() {
        contextRunner().withPropertyValues("storh.verify.interval=1h")
            .withBean("myScheduler", StorhVerifyScheduler.class,
                    () -> new StorhVerifyScheduler(new StorhStores(this.root, new dev.storh.spring.boot.stores.StorhStoreOptions() {
                    }), new PeriodicTrigger(java.time.Duration.ofHours(1)), false))
            .run((context) -> assertThat(context).hasSingleBean(StorhVerifyScheduler.class).hasBean("myScheduler"));
    }

    @Test
    void intervalRunsTheVerifyOfEveryStoreAndCountsIt() {
        contextRunner().withPropertyValues("storh.verify.interval=100ms").run((context) -> {
            assertThat(context).hasSingleBean(StorhVerifyScheduler.class);
            StorhStores stores = context.getBean(StorhStores.class);
            MeterRegistry registry = context.getBean(MeterRegistry.class);
            StorhStore notes = stores.find(StoreType.COLLECTION, "notes").orElseThrow();
            StorhStore events = stores.find(StoreType.LOG, "events").orElseThrow();
            awaitVerified(events);
            VerifyResult last = awaitVerified(notes);
            assertThat(last.ok()).isTrue();
            assertThat(registry.get("storh.verify.runs").tags("type", "collection", "name", "notes", "outcome", "ok")
                .counter()
                .count()).isGreaterThanOrEqualTo(1);
            assertThat(registry.get("storh.verify.ok").tags("type", "log", "name", "events").gauge().value())
                .isEqualTo(1);
        });
    }

    @Test
    void repairAfterAFailedVerifyWhenAsked() {
        contextRunner().withPropertyValues("storh.verify.interval=100ms", "storh.verify.repair=true").run((context) -> {
            StorhStores stores = context.getBean(StorhStores.class);
            DocStore notes = stores.docStore("notes");
            notes.put(Map.of("text", "fine"));
            Path corrupt = notes.pathForId(UuidV7.generate());
            Files.createDirectories(corrupt.getParent());
            Files.writeString(corrupt, "{\"id\":");
            StorhStore store = stores.find(StoreType.COLLECTION, "notes").orElseThrow();
            long deadline = System.currentTimeMillis() + WAIT_MS;
            while (store.lastVerify().filter(VerifyResult::repaired).isEmpty()
                    && System.currentTimeMillis() < deadline) {
                Thread.sleep(20);
            }
            VerifyResult result = store.lastVerify().orElseThrow();
            assertThat(result.repaired()).isTrue();
            assertThat(result.ok()).isTrue();
            assertThat(corrupt).doesNotExist();
            assertThat(this.root.resolve("notes/.storh/corrupt").resolve(corrupt.getFileName())).exists();
            MeterRegistry registry = context.getBean(MeterRegistry.class);
            assertThat(registry.get("storh.verify.runs").tags("name", "notes", "outcome", "failed").counter().count())
                .isGreaterThanOrEqualTo(1);
        });
    }

    private static VerifyResult awaitVerified(StorhStore store) throws InterruptedException {
        long deadline = System.currentTimeMillis() + WAIT_MS;
        while (store.lastVerify().isEmpty() && System.currentTimeMillis() < deadline) {
            Thread.sleep(20);
        }
        return store.lastVerify().orElseThrow(() -> new AssertionError("No scheduled verify of " + store));
    }

}
