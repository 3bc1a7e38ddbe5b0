package dev.storh.spring.listener;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import dev.storh.StorageRecord;
import dev.storh.queue.Queue;
import dev.storh.queue.QueueCounts;
import dev.storh.queue.QueueJob;
import dev.storh.spring.boot.autoconfigure.StorhAutoConfiguration;
import dev.storh.spring.boot.autoconfigure.StorhListenerAutoConfiguration;
import dev.storh.spring.boot.stores.StorhStores;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Closing the context while jobs are in flight: they finish within the shutdown timeout, or go
 * back to pending after it; claimed jobs not started go back to pending; none is left processing
 * and none is lost.
 */
class StorhListenerShutdownTests {

    private static final Duration WAIT = Duration.ofSeconds(30);

    private static final int JOBS = 12;

    @TempDir
    Path root;

    /** Blocks every job until {@link #release} opens; records what started and what returned. */
    static class Gate {

        final CountDownLatch release = new CountDownLatch(1);

        final Set<String> started = ConcurrentHashMap.newKeySet();

        final Set<String> finished = ConcurrentHashMap.newKeySet();

        @StorhListener(queue = "jobs", id = "gated", concurrency = "2", batchSize = "4")
        void handle(StorageRecord record) throws InterruptedException {
            this.started.add(record.id());
            this.release.await(1, TimeUnit.MINUTES);
            this.finished.add(record.id());
        }

    }

    @Configuration(proxyBeanMethods = false)
    static class GateConfig {

        @Bean
        Gate gate() {
            return new Gate();
        }

    }

    private ApplicationContextRunner runner(String shutdownTimeout) {
        return new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(StorhAutoConfiguration.class, StorhListenerAutoConfiguration.class))
            .withUserConfiguration(GateConfig.class)
            .withPropertyValues("storh.root=" + this.root, "storh.queues.jobs.processing-timeout=1h",
                    "storh.queues.jobs.listener.shutdown-timeout=" + shutdownTimeout);
    }

    private List<String> enqueue(ConfigurableApplicationContext context) {
        List<Map<String, Object>> jobs = new ArrayList<>();
        for (int i = 0; i < JOBS; i++) {
            jobs.add(Map.of("n", (long) i));
        }
        return context.getBean(StorhStores.class).queue("jobs").enqueueMany(jobs);
    }

    @Test
    void jobsInFlightFinishAndUnstartedOnesGoBackToPending() throws Exception {
        Gate[] gate = new Gate[1];
        List<String> ids = new ArrayList<>();
        runner("30s").run((context) -> {
            gate[0] = context.getBean(Gate.class);
            ids.addAll(enqueue(context));
            await().atMost(WAIT).until(() -> gate[0].started.size() == 2);
            StorhListenerContainer container = context.getBean(StorhListenerEndpointRegistry.class)
                .getListenerContainer("gated");
            assertThat(container.getInFlight()).isEqualTo(8); // two batches of four claimed
            Thread opener = new Thread(() -> {
                await().atMost(WAIT).until(() -> !container.isRunning());
                gate[0].release.countDown();
            });
            opener.start();
            // the runner closes the context here: the stop waits for the two running jobs
        });
        assertThat(gate[0].finished).isEqualTo(gate[0].started).hasSize(2);
        try (Queue jobs = Queue.open(this.root, "jobs")) {
            assertThat(jobs.counts()).isEqualTo(new QueueCounts(JOBS - 2, 0, 2));
            assertThat(jobs.verify().ok()).isTrue();
            // the released jobs were not attempted: their next delivery is their first
            List<QueueJob> rest = jobs.claimJobs(JOBS);
            assertThat(rest).extracting(QueueJob::id)
                .containsExactlyInAnyOrderElementsOf(ids.stream().filter((id) -> !gate[0].started.contains(id)).toList());
            assertThat(rest).allSatisfy((job) -> assertThat(job.attempts()).isEqualTo(1));
        }
    }

    @Test
    void jobsStillRunningAfterTheShutdownTimeoutGoBackToPending() throws Exception {
        Gate[] gate = new Gate[1];
        runner("300ms").run((context) -> {
            gate[0] = context.getBean(Gate.class);
            enqueue(context);
            await().atMost(WAIT).until(() -> gate[0].started.size() == 2);
        });
        try {
            assertThat(gate[0].finished).isEmpty();
            try (Queue jobs = Queue.open(this.root, "jobs")) {
                assertThat(jobs.counts()).isEqualTo(new QueueCounts(JOBS, 0, 0));
                List<QueueJob> all = jobs.claimJobs(JOBS);
                // the two that ran keep their attempt; the others were never started
                assertThat(all).filteredOn((job) -> gate[0].started.contains(job.id()))
                    .extracting(QueueJob::attempts)
                    .containsExactly(2, 2);
                assertThat(all).filteredOn((job) -> !gate[0].started.contains(job.id()))
                    .allSatisfy((job) -> assertThat(job.attempts()).isEqualTo(1));
            }
        }
        finally {
            gate[0].release.countDown();
        }
        // a handler returning after its job was given back does not complete it
        await().atMost(WAIT).until(() -> gate[0].finished.size() == 2);
        Thread.sleep(200);
        try (Queue jobs = Queue.open(this.root, "jobs")) {
            assertThat(jobs.counts().done()).isZero();
        }
    }

}
