package dev.storh.spring.listener;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import dev.storh.queue.Queue;
import dev.storh.queue.QueueJob;
import dev.storh.spring.boot.actuate.StorhListenerMetrics;
import dev.storh.spring.boot.actuate.StorhListenersHealthIndicator;
import dev.storh.spring.boot.autoconfigure.StorhAutoConfiguration;
import dev.storh.spring.boot.autoconfigure.StorhListenerAutoConfiguration;
import dev.storh.spring.boot.stores.StorhStores;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The {@code storh.listener.*} meters and the {@code storhListeners} health component on a real
 * context.
 */
class StorhListenerObservabilityTests {

    private static final Duration WAIT = Duration.ofSeconds(30);

    @TempDir
    Path root;

    static class Listeners {

        final CountDownLatch slowGate = new CountDownLatch(1);

        @StorhListener(queue = "jobs", id = "picky", maxAttempts = "2", backoff = "10ms")
        void picky(QueueJob job) {
            if (Boolean.TRUE.equals(job.payload().get("bad"))) {
                throw new IllegalArgumentException("bad job");
            }
        }

        @StorhListener(queue = "slow", id = "slow")
        void slow(QueueJob job) throws InterruptedException {
            this.slowGate.await(1, TimeUnit.MINUTES);
        }

    }

    @Configuration(proxyBeanMethods = false)
    static class ListenersConfig {

        @Bean
        Listeners listeners() {
            return new Listeners();
        }

    }

    private ApplicationContextRunner runner() {
        return new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(StorhAutoConfiguration.class, StorhListenerAutoConfiguration.class))
            .withUserConfiguration(ListenersConfig.class)
            .withPropertyValues("storh.root=" + this.root, "storh.queues.slow.processing-timeout=1s",
                    "storh.queues.slow.listener.shutdown-timeout=100ms");
    }

    @Test
    void metersCountProcessedFailedRetriedAndDeadLetteredJobsPerListener() {
        runner().run((context) -> {
            MeterRegistry meters = new SimpleMeterRegistry();
            context.getBean(StorhListenerMetrics.class).bindTo(meters);
            Queue jobs = context.getBean(StorhStores.class).queue("jobs");
            jobs.enqueueMany(List.of(Map.of("n", 1L), Map.of("n", 2L), Map.of("bad", true)));
            Queue dead = context.getBean(StorhStores.class).queue("jobs.dead");
            await().atMost(WAIT).until(() -> dead.counts().pending() == 1 && jobs.counts().done() == 2);
            Tags tags = Tags.of("queue", "jobs", "listener", "picky");
            await().atMost(WAIT)
                .until(() -> meters.get("storh.listener.in.flight").tags(tags).gauge().value() == 0.0);
            assertThat(meters.get("storh.listener.processed").tags(tags).functionCounter().count()).isEqualTo(2.0);
            assertThat(meters.get("storh.listener.failed").tags(tags).functionCounter().count()).isEqualTo(2.0);
            assertThat(meters.get("storh.listener.retried").tags(tags).functionCounter().count()).isEqualTo(1.0);
            assertThat(meters.get("storh.listener.dead.lettered").tags(tags).functionCounter().count()).isEqualTo(1.0);
            assertThat(meters.get("storh.listener.consumers").tags(tags).gauge().value()).isEqualTo(1.0);
            assertThat(meters.get("storh.listener.latency").tags(tags).tag("outcome", "success").timer().count())
                .isEqualTo(2);
            assertThat(meters.get("storh.listener.latency").tags(tags).tag("outcome", "failure").timer().count())
                .isEqualTo(2);
            assertThat(meters.find("storh.listener.processed").tags("listener", "slow").functionCounter()).isNotNull();
        });
    }

    @Test
    @SuppressWarnings("unchecked")
    void healthIsDownWhenAContainerIsStoppedOrStuckAndUpWhenPaused() {
        runner().run((context) -> {
            StorhListenersHealthIndicator health = context.getBean("storhListenersHealthIndicator",
                    StorhListenersHealthIndicator.class);
            StorhListenerEndpointRegistry registry = context.getBean(StorhListenerEndpointRegistry.class);
            Health up = health.health(true);
            assertThat(up.getStatus()).isEqualTo(Status.UP);
            assertThat((Map<String, Object>) up.getDetails().get("picky")).containsEntry("state", "running")
                .containsEntry("queue", "jobs")
                .containsEntry("consumers", "1/1");

            registry.pause("picky");
            Health paused = health.health(true);
            assertThat(paused.getStatus()).isEqualTo(Status.UP);
            assertThat((Map<String, Object>) paused.getDetails().get("picky")).containsEntry("state", "paused");
            registry.resume("picky");

            registry.getListenerContainer("picky").stop();
            Health stopped = health.health(true);
            assertThat(stopped.getStatus()).isEqualTo(Status.DOWN);
            assertThat((List<String>) stopped.getDetails().get("reasons"))
                .containsExactly("Listener 'picky' on queue 'jobs' is stopped");
            registry.getListenerContainer("picky").start();
            assertThat(health.health(true).getStatus()).isEqualTo(Status.UP);

            Listeners listeners = context.getBean(Listeners.class);
            try {
                context.getBean(StorhStores.class).queue("slow").enqueue(Map.of("n", 1L));
                await().atMost(WAIT).until(() -> health.health(true).getStatus().equals(Status.DOWN));
                Health stuck = health.health(true);
                assertThat((List<String>) stuck.getDetails().get("reasons")).singleElement()
                    .asString()
                    .startsWith("Listener 'slow' has consumers busy on one job for longer than the processing timeout");
                assertThat((Map<String, Object>) ((Map<String, Object>) stuck.getDetails().get("slow")).get("stuck"))
                    .containsKey("slow-0");
            }
            finally {
                listeners.slowGate.countDown();
            }
            await().atMost(WAIT).until(() -> health.health(true).getStatus().equals(Status.UP));
        });
    }

}
