package dev.storh.spring.boot.autoconfigure;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import dev.storh.fs.LocalFiles;
import dev.storh.log.SegmentedLog;
import dev.storh.queue.Queue;
import dev.storh.spring.boot.stores.StoreFilesFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A {@link StoreFilesFactory} bean is the backend of every store Boot opens: here one that keeps
 * each store's files in another folder than {@code storh.root}, as a remote backend would.
 */
class StoreFilesFactoryTests {

    @TempDir
    Path root;

    @TempDir
    Path elsewhere;

    private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
        .withConfiguration(AutoConfigurations.of(StorhAutoConfiguration.class));

    @Test
    void localFilesAreTheDefaultBackend() {
        this.contextRunner.withPropertyValues("storh.root=" + this.root, "storh.queues.jobs.processing-timeout=1m")
            .run((context) -> {
                context.getBean("jobs", Queue.class).enqueue(Map.of("n", 1L));
                assertThat(this.root.resolve("jobs/queue.log")).isRegularFile();
                assertThat(StoreFilesFactory.LOCAL.isLocal()).isTrue();
            });
    }

    @Test
    void aFactoryBeanMovesLogsAndQueuesOntoItsBackend() {
        this.contextRunner.withUserConfiguration(Elsewhere.class)
            .withBean("elsewhere", Path.class, () -> this.elsewhere)
            .withPropertyValues("storh.root=" + this.root, "storh.logs.audit.max-segment-bytes=1KB",
                    "storh.queues.jobs.processing-timeout=1m")
            .run((context) -> {
                assertThat(context).hasNotFailed();
                SegmentedLog audit = context.getBean("audit", SegmentedLog.class);
                String id = audit.put(Map.of("n", 7L)).id();
                context.getBean("jobs", Queue.class).enqueueMany(List.of(Map.of("n", 1L), Map.of("n", 2L)));
                assertThat(audit.get(id)).hasValueSatisfying((r) -> assertThat(r.data()).containsEntry("n", 7L));
            });
        assertThat(this.elsewhere.resolve("jobs/queue.log")).isRegularFile();
        assertThat(this.elsewhere.resolve("audit/manifest.jsonc")).isRegularFile();
        assertThat(this.root.resolve("jobs/queue.log")).doesNotExist();
        assertThat(this.root.resolve("audit/manifest.jsonc")).doesNotExist();
        try (var segments = Files.list(this.elsewhere.resolve("audit/segments"))) {
            assertThat(segments.map((p) -> p.getFileName().toString())).contains("seg-000001.ndjson");
        }
        catch (java.io.IOException ex) {
            throw new AssertionError(ex);
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class Elsewhere {

        @Bean
        StoreFilesFactory storeFilesFactory(Path elsewhere) {
            return (collections, folder) -> LocalFiles.at(elsewhere.resolve(collections.relativize(folder)));
        }

    }

}
