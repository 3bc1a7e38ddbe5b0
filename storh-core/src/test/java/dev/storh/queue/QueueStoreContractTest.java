package dev.storh.queue;

import static dev.storh.queue.QueueTestSupport.id;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.storh.StorageException;
import dev.storh.store.Store;
import dev.storh.store.StoreKind;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The queue seen through the store contract: kind, name, folder, stats counting jobs in every
 * state, and the report shapes the CLI and the Actuator endpoint print.
 */
class QueueStoreContractTest {

    @TempDir
    Path root;

    @Test
    void aQueueIsAStoreOfKindQueueWithItsReportsInTheirJsonShape() {
        try (Queue queue = Queue.open(root, "jobs", QueueOptions.builder().lockTimeout(Duration.ofSeconds(5)).build())) {
            Store<?, ?, ?> store = queue;
            assertThat(store.kind()).isEqualTo(StoreKind.QUEUE);
            assertThat(store.name()).isEqualTo("jobs");
            assertThat(store.directory()).isEqualTo(root.toAbsolutePath().normalize().resolve("jobs"));
            queue.enqueue(Map.of("n", 1L), id(1));
            queue.enqueue(Map.of("n", 2L), id(2));
            queue.enqueue(Map.of("n", 3L), id(3));
            queue.claim();
            queue.complete(queue.claim().orElseThrow().id());

            QueueStats stats = queue.stats();
            assertThat(stats.records()).isEqualTo(3);
            assertThat(store.stats().records()).isEqualTo(3);
            assertThat(stats.bytes()).isPositive();
            assertThat(store.verify().toMap()).containsEntry("ok", true).containsEntry("errors", List.of())
                    .containsEntry("stats", Map.of("pending", 1L, "processing", 1L, "done", 1L, "bytes", stats.bytes()));
            assertThat(store.health().toMap()).isEqualTo(store.verify().toMap());
            assertThat(store.repair().toMap()).containsExactly(Map.entry("ok", true), Map.entry("requeued", 0L));
            assertThat(queue.repair(Duration.ZERO).toMap()).containsExactly(Map.entry("ok", true),
                    Map.entry("requeued", 1L));
            Map<String, Object> compact = store.compact().toMap();
            assertThat(compact).containsOnlyKeys("ok", "bytesBefore", "bytesAfter", "events")
                    .containsEntry("ok", true).containsEntry("events", 3L);
        }
    }

    @Test
    void badQueueNamesAreRefusedWithTheQueueMessage() {
        for (String bad : new String[] {"", ".", "..", "a/b", "a\\b", "a\0b"}) {
            assertThatThrownBy(() -> Queue.open(root, bad)).as(bad).isInstanceOf(StorageException.class)
                    .hasMessageStartingWith("Invalid queue name: \"")
                    .hasMessageContaining("(a queue is one folder name under the root; '/', '\\', NUL, '.', '..'"
                            + " and empty names are refused)");
        }
    }
}
