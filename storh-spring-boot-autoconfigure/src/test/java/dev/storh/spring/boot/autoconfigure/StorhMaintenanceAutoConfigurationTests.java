package dev.storh.spring.boot.autoconfigure;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;

import dev.storh.StorageRecord;
import dev.storh.log.SegmentedLog;
import dev.storh.queue.Queue;
import dev.storh.spring.boot.stores.LogStore;
import dev.storh.spring.boot.stores.PartitionedLog;
import dev.storh.spring.boot.stores.StoreType;
import dev.storh.spring.boot.stores.StorhMaintenanceScheduler;
import dev.storh.spring.boot.stores.StorhStores;
import dev.storh.spring.boot.stores.StorhVerifyScheduler;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Log retention, requeue of timed-out claims and partition moves run on their own schedules,
 * without a verify schedule, in real contexts on real folders; the clock is injected as the
 * {@code storhClock} bean.
 */
class StorhMaintenanceAutoConfigurationTests {

    @TempDir
    Path root;

    private final MutableClock clock = new MutableClock(Instant.parse("2026-12-01T23:59:30Z"));

    private ApplicationContextRunner contextRunner() {
        return new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(StorhAutoConfiguration.class, StorhVerifyAutoConfiguration.class,
                    StorhMaintenanceAutoConfiguration.class))
            .withBean("storhClock", Clock.class, () -> this.clock)
            .withPropertyValues("storh.root=" + this.root);
    }

    @Test
    void runsByDefaultWithoutAVerifySchedule() {
        contextRunner().run((context) -> {
            assertThat(context).doesNotHaveBean(StorhVerifyScheduler.class);
            assertThat(context.getBean(StorhMaintenanceScheduler.class).isRunning()).isTrue();
        });
    }

    @Test
    void canBeSwitchedOffAndRefusesAnIntervalThatIsNotPositive() {
        contextRunner().withPropertyValues("storh.maintenance.enabled=false")
            .run((context) -> assertThat(context).doesNotHaveBean(StorhMaintenanceScheduler.class));
        contextRunner().withPropertyValues("storh.maintenance.requeue-interval=0s")
            .run((context) -> assertThat(context).hasFailed()
                .getFailure()
                .rootCause()
                .hasMessageContaining("storh.maintenance.requeue-interval"));
    }

    @Test
    void aDailyLogMovesToTheNextPartitionWhenTheDateChanges() {
        contextRunner().withPropertyValues("storh.logs.events.partition=daily").run((context) -> {
            PartitionedLog events = context.getBean("events", PartitionedLog.class);
            StorageRecord first = events.put(Map.of("n", 1L));
            assertThat(events.folder()).isEqualTo(this.root.resolve("events/partitions/2026-12-01"));

            this.clock.set(Instant.parse("2026-12-02T00:00:01Z"));
            StorageRecord second = events.put(Map.of("n", 2L));
            Path day2 = this.root.resolve("events/partitions/2026-12-02");
            assertThat(events.folder()).isEqualTo(day2);
            assertThat(events.current().get(second.id())).isPresent();
            assertThat(events.current().get(first.id())).isEmpty();
            try (SegmentedLog day1 = SegmentedLog.open(this.root.resolve("events/partitions"), "2026-12-01")) {
                assertThat(day1.get(first.id())).isPresent();
                assertThat(day1.count()).isEqualTo(1);
            }

            // without any write, the maintenance pass moves the registry (health, metrics) along
            StorhStores stores = context.getBean(StorhStores.class);
            this.clock.set(Instant.parse("2026-12-03T08:00:00Z"));
            assertThat(context.getBean(StorhMaintenanceScheduler.class).rollPartitions()).isEqualTo(1);
            LogStore store = (LogStore) stores.find(StoreType.LOG, "events").orElseThrow();
            assertThat(store.path()).isEqualTo(this.root.resolve("events/partitions/2026-12-03"));
            assertThat(context.getBean(StorhMaintenanceScheduler.class).rollPartitions()).isZero();
        });
    }

    @Test
    void aMonthlyLogMovesToTheNextMonth() {
        this.clock.set(Instant.parse("2026-12-31T23:00:00Z"));
        contextRunner().withPropertyValues("storh.logs.audit.partition=monthly").run((context) -> {
            PartitionedLog audit = context.getBean("audit", PartitionedLog.class);
            audit.put(Map.of("n", 1L));
            assertThat(audit.folder().getFileName()).hasToString("2026-12");
            this.clock.set(Instant.parse("2027-01-01T00:00:00Z"));
            audit.put(Map.of("n", 2L));
            assertThat(audit.folder()).isEqualTo(this.root.resolve("audit/partitions/2027-01"));
            assertThat(audit.current().count()).isEqualTo(1);
        });
    }

    @Test
    void retentionRunsWithoutVerifyAndUsesTheInjectedClock() {
        this.clock.set(Instant.now());
        contextRunner().withPropertyValues("storh.logs.audit.retention=1d").run((context) -> {
            SegmentedLog audit = context.getBean("audit", SegmentedLog.class);
            audit.put(Map.of("n", 1L));
            audit.put(Map.of("n", 2L));
            StorhMaintenanceScheduler maintenance = context.getBean(StorhMaintenanceScheduler.class);
            assertThat(maintenance.applyRetention()).containsEntry("audit", 0L);
            assertThat(audit.count()).isEqualTo(2);
            // two days later by the application's clock, both records are past the retention
            this.clock.set(Instant.now().plus(Duration.ofDays(2)));
            assertThat(maintenance.applyRetention()).containsEntry("audit", 2L);
            assertThat(audit.count()).isZero();
        });
    }

    @Test
    void retentionOfADailyLogDeletesWholePartitionsPastTheRetention() {
        contextRunner().withPropertyValues("storh.logs.events.partition=daily", "storh.logs.events.retention=2d")
            .run((context) -> {
                PartitionedLog events = context.getBean("events", PartitionedLog.class);
                for (String day : List.of("2026-12-01", "2026-12-02", "2026-12-03", "2026-12-04")) {
                    this.clock.set(Instant.parse(day + "T10:00:00Z"));
                    events.put(Map.of("day", day));
                }
                Path partitions = this.root.resolve("events/partitions");
                this.clock.set(Instant.parse("2026-12-05T12:00:00Z"));
                context.getBean(StorhMaintenanceScheduler.class).applyRetention();
                // the cutoff is 2026-12-03T12:00: the 1st and 2nd ended before it
                try (Stream<Path> left = Files.list(partitions)) {
                    assertThat(left.map((p) -> p.getFileName().toString()).sorted())
                        .containsExactly("2026-12-03", "2026-12-04");
                }
            });
    }

    @Test
    void timedOutClaimsAreRequeuedOnTheirOwnSchedule() {
        contextRunner()
            .withPropertyValues("storh.queues.jobs.processing-timeout=0s", "storh.maintenance.requeue-interval=20ms")
            .run((context) -> {
                Queue jobs = context.getBean("jobs", Queue.class);
                jobs.enqueue(Map.of("task", "resize"));
                assertThat(jobs.claim()).isPresent();
                // the scheduler's thread puts the claim back; no verify schedule is configured
                long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
                while (jobs.counts().pending() == 0 && System.nanoTime() < deadline) {
                    Thread.sleep(10);
                }
                assertThat(jobs.counts().pending()).isEqualTo(1);
                assertThat(jobs.counts().processing()).isZero();
            });
    }

    @Test
    void requeueHonoursEachQueuesTimeout() {
        contextRunner().withPropertyValues("storh.queues.fast.processing-timeout=0s", "storh.queues.slow.processing-timeout=1h")
            .run((context) -> {
                Queue fast = context.getBean("fast", Queue.class);
                Queue slow = context.getBean("slow", Queue.class);
                fast.enqueue(Map.of("n", 1L));
                slow.enqueue(Map.of("n", 1L));
                fast.claim();
                slow.claim();
                context.getBean(StorhMaintenanceScheduler.class).stop();
                assertThat(context.getBean(StorhMaintenanceScheduler.class).requeueTimedOut())
                    .containsEntry("fast", 1)
                    .containsEntry("slow", 0);
                assertThat(slow.counts().processing()).isEqualTo(1);
            });
    }

    /** A clock the test moves by hand. */
    static final class MutableClock extends Clock {

        private final AtomicReference<Instant> now;

        MutableClock(Instant start) {
            this.now = new AtomicReference<>(start);
        }

        void set(Instant instant) {
            this.now.set(instant);
        }

        @Override
        public ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return this.now.get();
        }

    }

}
