package dev.storh.spring.listener;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

import dev.storh.StorageRecord;
import dev.storh.queue.Queue;
import dev.storh.queue.QueueCounts;
import dev.storh.queue.QueueJob;
import dev.storh.spring.boot.autoconfigure.InvalidStorhPropertyException;
import dev.storh.spring.boot.autoconfigure.StorhAutoConfiguration;
import dev.storh.spring.boot.autoconfigure.StorhListenerAutoConfiguration;
import dev.storh.spring.boot.stores.StoreType;
import dev.storh.spring.boot.stores.StorhStores;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.PropertyNamingStrategies;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * {@code @StorhListener} methods on a real application context over a real temporary folder:
 * parameter resolution and payload conversion, retries, dead letters, pause and resume.
 */
class StorhListenerTests {

    private static final Duration WAIT = Duration.ofSeconds(30);

    @TempDir
    Path root;

    private ApplicationContextRunner runner() {
        return new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(StorhAutoConfiguration.class, StorhListenerAutoConfiguration.class))
            .withPropertyValues("storh.root=" + this.root, "storh.queues.orders.processing-timeout=60s");
    }

    // ------------------------------------------------------------------ conversion

    record Address(String city, List<String> lines) {
    }

    record Order(String orderNumber, int quantity, Address address) {
    }

    /** A plain class with a no-argument constructor and setters. */
    static class Invoice {

        private String customerName;

        private long totalCents;

        public String getCustomerName() {
            return this.customerName;
        }

        public void setCustomerName(String customerName) {
            this.customerName = customerName;
        }

        public long getTotalCents() {
            return this.totalCents;
        }

        public void setTotalCents(long totalCents) {
            this.totalCents = totalCents;
        }

    }

    static class ConvertingListeners {

        final List<Order> orders = new CopyOnWriteArrayList<>();

        final List<Invoice> invoices = new CopyOnWriteArrayList<>();

        final List<Object[]> raw = new CopyOnWriteArrayList<>();

        @StorhListener(queue = "orders")
        void order(Order order) {
            this.orders.add(order);
        }

        @StorhListener(queue = "invoices", id = "invoicing")
        public void invoice(Invoice invoice, QueueJob job) {
            this.invoices.add(invoice);
        }

        @StorhListener(queue = "raw")
        void raw(StorageRecord record, QueueJob job, Map<String, Object> payload) {
            this.raw.add(new Object[] { record, job, payload });
        }

    }

    @Configuration(proxyBeanMethods = false)
    static class ConvertingConfig {

        @Bean
        ConvertingListeners listeners() {
            return new ConvertingListeners();
        }

        /** The application's mapper: snake_case names prove the listener uses it. */
        @Bean
        JsonMapper jsonMapper() {
            return JsonMapper.builder().propertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE).build();
        }

    }

    @Test
    void payloadsAreConvertedToRecordsAndClassesWithTheApplicationsMapper() {
        runner().withUserConfiguration(ConvertingConfig.class).run((context) -> {
            StorhStores stores = context.getBean(StorhStores.class);
            stores.queue("orders")
                .enqueue(Map.of("order_number", "A-17", "quantity", 3L, "address",
                        Map.of("city", "Cluj", "lines", List.of("Str. Memorandumului 1", "ap. 2"))));
            stores.queue("invoices").enqueue(Map.of("customer_name", "Ana", "total_cents", 12_345L));
            ConvertingListeners listeners = context.getBean(ConvertingListeners.class);
            await().atMost(WAIT).until(() -> listeners.orders.size() == 1 && listeners.invoices.size() == 1);
            assertThat(listeners.orders.get(0))
                .isEqualTo(new Order("A-17", 3, new Address("Cluj", List.of("Str. Memorandumului 1", "ap. 2"))));
            Invoice invoice = listeners.invoices.get(0);
            assertThat(invoice.getCustomerName()).isEqualTo("Ana");
            assertThat(invoice.getTotalCents()).isEqualTo(12_345L);
            await().atMost(WAIT).until(() -> stores.queue("orders").counts().equals(new QueueCounts(0, 0, 1)));
            await().atMost(WAIT).until(() -> stores.queue("invoices").counts().equals(new QueueCounts(0, 0, 1)));
            StorhListenerEndpointRegistry registry = context.getBean(StorhListenerEndpointRegistry.class);
            assertThat(registry.getListenerContainerIds()).containsExactlyInAnyOrder("listeners.order", "invoicing",
                    "listeners.raw");
        });
    }

    @Test
    void storageRecordAndJobParametersCarryIdAttemptsAndTimes() {
        runner().withUserConfiguration(ConvertingConfig.class).run((context) -> {
            Instant before = Instant.now().minusSeconds(1);
            String id = context.getBean(StorhStores.class).queue("raw").enqueue(Map.of("kind", "geocode-check", "n", 7L));
            ConvertingListeners listeners = context.getBean(ConvertingListeners.class);
            await().atMost(WAIT).until(() -> listeners.raw.size() == 1);
            Object[] args = listeners.raw.get(0);
            StorageRecord record = (StorageRecord) args[0];
            QueueJob job = (QueueJob) args[1];
            assertThat(record.id()).isEqualTo(id);
            assertThat(record.data()).containsEntry("kind", "geocode-check").containsEntry("n", 7L);
            assertThat(job.id()).isEqualTo(id);
            assertThat(job.attempts()).isEqualTo(1);
            assertThat(job.enqueuedAt()).isAfterOrEqualTo(before.truncatedTo(java.time.temporal.ChronoUnit.SECONDS));
            assertThat(job.claimedAt()).isAfterOrEqualTo(job.enqueuedAt());
            @SuppressWarnings("unchecked")
            Map<String, Object> payload = (Map<String, Object>) args[2];
            assertThat(payload).containsEntry("kind", "geocode-check");
        });
    }

    // ------------------------------------------------------------------ failures

    static class FailingListeners {

        final List<Integer> attempts = new CopyOnWriteArrayList<>();

        final AtomicInteger flaky = new AtomicInteger();

        @StorhListener(queue = "orders", maxAttempts = "${test.attempts:3}", backoff = "50ms")
        void alwaysFails(QueueJob job) {
            this.attempts.add(job.attempts());
            throw new IllegalStateException("no stock for job " + job.id() + " (attempt " + job.attempts() + ")");
        }

        @StorhListener(queue = "flaky", maxAttempts = "5", backoff = "20ms")
        void failsTwice(QueueJob job) {
            if (this.flaky.incrementAndGet() <= 2) {
                throw new IllegalStateException("not yet");
            }
        }

        @StorhListener(queue = "typed", deadLetterQueue = "typed-failures")
        void typed(Order order) {
            throw new AssertionError("never called: the payload does not convert");
        }

    }

    @Configuration(proxyBeanMethods = false)
    static class FailingConfig {

        @Bean
        FailingListeners failing() {
            return new FailingListeners();
        }

    }

    @Test
    @SuppressWarnings("unchecked")
    void failedJobsAreRetriedWithBackoffThenDeadLetteredAfterMaxAttempts() {
        runner().withUserConfiguration(FailingConfig.class).run((context) -> {
            StorhStores stores = context.getBean(StorhStores.class);
            Queue orders = stores.queue("orders");
            String id = orders.enqueue(Map.of("order_number", "A-1"));
            Queue dead = stores.queue("orders.dead");
            await().atMost(WAIT).until(() -> dead.counts().pending() == 1);
            FailingListeners listeners = context.getBean(FailingListeners.class);
            assertThat(listeners.attempts).containsExactly(1, 2, 3);
            assertThat(orders.counts()).isEqualTo(new QueueCounts(0, 0, 0));
            StorageRecord letter = dead.claim().orElseThrow();
            assertThat(letter.id()).isEqualTo(id);
            assertThat(letter.data()).containsEntry("job", Map.of("order_number", "A-1"))
                .containsEntry("attempts", 3L)
                .containsEntry("queue", "orders")
                .containsEntry("listener", "failing.alwaysFails")
                .containsKey("failedAt");
            Map<String, Object> error = (Map<String, Object>) letter.data().get("error");
            assertThat(error).containsEntry("class", IllegalStateException.class.getName())
                .containsEntry("message", "no stock for job " + id + " (attempt 3)");
            StorhListenerContainer container = context.getBean(StorhListenerEndpointRegistry.class)
                .getListenerContainer("failing.alwaysFails");
            assertThat(container.getFailed()).isEqualTo(3);
            assertThat(container.getRetried()).isEqualTo(2);
            assertThat(container.getDeadLettered()).isEqualTo(1);
            assertThat(container.getProcessed()).isZero();
            assertThat(stores.find(StoreType.QUEUE, "orders.dead")).isPresent();
        });
    }

    @Test
    void aJobThatRecoversIsCompletedOnce() {
        runner().withUserConfiguration(FailingConfig.class).run((context) -> {
            Queue flaky = context.getBean(StorhStores.class).queue("flaky");
            flaky.enqueue(Map.of("n", 1L));
            await().atMost(WAIT).until(() -> flaky.counts().equals(new QueueCounts(0, 0, 1)));
            FailingListeners listeners = context.getBean(FailingListeners.class);
            assertThat(listeners.flaky.get()).isEqualTo(3);
            assertThat(context.getBean(StorhStores.class).queue("flaky.dead").counts().pending()).isZero();
        });
    }

    @Test
    @SuppressWarnings("unchecked")
    void aPayloadThatCannotBeConvertedIsDeadLetteredAtOnce() {
        runner().withUserConfiguration(FailingConfig.class).run((context) -> {
            StorhStores stores = context.getBean(StorhStores.class);
            stores.queue("typed").enqueue(Map.of("quantity", "three dozen"));
            Queue dead = stores.queue("typed-failures");
            await().atMost(WAIT).until(() -> dead.counts().pending() == 1);
            StorageRecord letter = dead.claim().orElseThrow();
            assertThat(letter.data()).containsEntry("attempts", 1L);
            Map<String, Object> error = (Map<String, Object>) letter.data().get("error");
            assertThat(error).containsEntry("class", StorhListenerPayloadException.class.getName());
            assertThat((String) error.get("message")).contains("Order").contains("quantity");
            assertThat(stores.queue("typed").counts()).isEqualTo(new QueueCounts(0, 0, 0));
        });
    }

    @Test
    void theAttemptsPropertyComesFromPlaceholders() {
        runner().withUserConfiguration(FailingConfig.class).withPropertyValues("test.attempts=1").run((context) -> {
            StorhStores stores = context.getBean(StorhStores.class);
            stores.queue("orders").enqueue(Map.of("order_number", "A-2"));
            await().atMost(WAIT).until(() -> stores.queue("orders.dead").counts().pending() == 1);
            assertThat(context.getBean(FailingListeners.class).attempts).containsExactly(1);
        });
    }

    // ------------------------------------------------------------------ settings and lifecycle

    static class Recording {

        final ConcurrentLinkedQueue<String> seen = new ConcurrentLinkedQueue<>();

        @StorhListener(queue = "jobs", id = "worker")
        void handle(StorageRecord record) {
            this.seen.add(record.id());
        }

    }

    @Configuration(proxyBeanMethods = false)
    static class RecordingConfig {

        @Bean
        Recording recording() {
            return new Recording();
        }

    }

    @Configuration(proxyBeanMethods = false)
    @Import(RecordingConfig.class)
    static class UsesJobsBean {

        final Queue jobs;

        UsesJobsBean(@Qualifier("jobs") Queue jobs) {
            this.jobs = jobs;
        }

    }

    @Test
    void propertiesSetTheListenerAndTheQueueBeanIsTheOneConsumed() {
        runner().withUserConfiguration(UsesJobsBean.class)
            .withPropertyValues("storh.queues.jobs.processing-timeout=2m", "storh.queues.jobs.listener.concurrency=3",
                    "storh.queues.jobs.listener.batch-size=7", "storh.queues.jobs.listener.max-attempts=9",
                    "storh.queues.jobs.listener.backoff=250ms", "storh.queues.jobs.listener.dead-letter-queue=jobs-dlq",
                    "storh.queues.jobs.listener.shutdown-timeout=3s")
            .run((context) -> {
                StorhListenerContainer container = context.getBean(StorhListenerEndpointRegistry.class)
                    .getListenerContainer("worker");
                StorhListenerSettings settings = container.getSettings();
                assertThat(settings.concurrency()).isEqualTo(3);
                assertThat(settings.batchSize()).isEqualTo(7);
                assertThat(settings.maxAttempts()).isEqualTo(9);
                assertThat(settings.backoff()).isEqualTo(Duration.ofMillis(250));
                assertThat(settings.shutdownTimeout()).isEqualTo(Duration.ofSeconds(3));
                assertThat(settings.processingTimeout()).isEqualTo(Duration.ofMinutes(2));
                assertThat(container.getDeadLetterQueueName()).isEqualTo("jobs-dlq");
                assertThat(container.getQueue()).isSameAs(context.getBean(UsesJobsBean.class).jobs);
                await().atMost(WAIT).until(() -> container.getActiveConsumers() == 3);
                List<String> ids = container.getQueue().enqueueMany(List.of(Map.of("n", 1L), Map.of("n", 2L)));
                Recording recording = context.getBean(Recording.class);
                await().atMost(WAIT).until(() -> recording.seen.size() == 2);
                assertThat(recording.seen).containsExactlyInAnyOrderElementsOf(ids);
            });
    }

    @Test
    void badSettingsFailStartupNamingTheProperty() {
        runner().withUserConfiguration(RecordingConfig.class)
            .withPropertyValues("storh.queues.jobs.listener.concurrency=0")
            .run((context) -> {
                assertThat(context).hasFailed();
                InvalidStorhPropertyException invalid = find(context.getStartupFailure());
                assertThat(invalid.getProperty()).isEqualTo("storh.queues.jobs.listener.concurrency");
                assertThat(invalid.getValue()).isEqualTo(0);
                assertThat(invalid.getMessage()).contains("at least 1");
            });
    }

    private static InvalidStorhPropertyException find(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t instanceof InvalidStorhPropertyException invalid) {
                return invalid;
            }
        }
        throw new AssertionError("no InvalidStorhPropertyException in " + failure, failure);
    }

    static class BadAnnotation {

        @StorhListener(queue = "jobs", concurrency = "many")
        void handle(StorageRecord record) {
        }

    }

    static class TwoPayloads {

        @StorhListener(queue = "jobs")
        void handle(Order order, Invoice invoice) {
        }

    }

    @Test
    void unusableAnnotationsFailStartupNamingTheMethod() {
        runner().withBean(BadAnnotation.class)
            .run((context) -> assertThat(context).hasFailed()
                .getFailure()
                .hasMessageContaining(BadAnnotation.class.getName() + ".handle")
                .hasMessageContaining("concurrency must be a whole number, got 'many'"));
        runner().withBean(TwoPayloads.class)
            .run((context) -> assertThat(context).hasFailed()
                .getFailure()
                .hasMessageContaining(TwoPayloads.class.getName() + ".handle")
                .hasMessageContaining("more than one payload parameter"));
    }

    @Test
    void pauseAndResumeThroughTheRegistry() {
        runner().withUserConfiguration(RecordingConfig.class).run((context) -> {
            StorhListenerEndpointRegistry registry = context.getBean(StorhListenerEndpointRegistry.class);
            StorhListenerContainer container = registry.getListenerContainer("worker");
            Queue jobs = container.getQueue();
            Recording recording = context.getBean(Recording.class);
            registry.pause("worker");
            assertThat(container.isPaused()).isTrue();
            // a claim that was already under way when pausing may still take one batch: let it drain
            jobs.enqueue(Map.of("n", 0L));
            await().atMost(WAIT).until(() -> container.getInFlight() == 0);
            int before = recording.seen.size();
            String id = jobs.enqueue(Map.of("n", 1L));
            Thread.sleep(300);
            assertThat(recording.seen).hasSize(before).doesNotContain(id);
            assertThat(jobs.counts().pending()).isGreaterThanOrEqualTo(1);
            registry.resume("worker");
            await().atMost(WAIT).until(() -> recording.seen.contains(id));
            assertThat(container.isRunning()).isTrue();
        });
    }

    @Test
    void aLocalEnqueueWakesAWaitingConsumerAtOnce() throws Exception {
        runner().withUserConfiguration(RecordingConfig.class).run((context) -> {
            StorhListenerContainer container = context.getBean(StorhListenerEndpointRegistry.class)
                .getListenerContainer("worker");
            long seen = container.signals();
            Thread waiter = new Thread(() -> container.awaitSignal(seen, Duration.ofHours(1).toMillis()));
            waiter.start();
            container.getQueue().enqueue(Map.of("n", 1L));
            waiter.join(WAIT.toMillis());
            assertThat(waiter.isAlive()).as("an hour-long idle wait ended by the enqueue").isFalse();
            assertThat(container.signals()).isGreaterThan(seen);
        });
    }

}
