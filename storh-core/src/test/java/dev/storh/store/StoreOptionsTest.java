package dev.storh.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.storh.StorageException;
import dev.storh.cache.Cache;
import dev.storh.cache.CacheValidation;
import dev.storh.doc.DocStoreOptions;
import dev.storh.log.Durability;
import dev.storh.log.LogPartition;
import dev.storh.log.SegmentedLogOptions;
import dev.storh.observe.StoreObserver;
import dev.storh.observe.StoreOperation;
import dev.storh.queue.QueueOptions;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

class StoreOptionsTest {

    @Test
    void everyEngineStartsFromTheSameDefaults() {
        for (StoreOptions options : new StoreOptions[] {DocStoreOptions.defaults(), SegmentedLogOptions.defaults(),
                QueueOptions.defaults()}) {
            assertThat(options.idGenerator()).as(options.getClass().getSimpleName()).isNull();
            assertThat(options.clock()).isEqualTo(Clock.systemUTC());
            assertThat(options.lockTimeout()).isEqualTo(Duration.ofSeconds(30));
            assertThat(options.cache()).isSameAs(options instanceof DocStoreOptions ? Cache.standard() : Cache.none());
            assertThat(options.observer()).isSameAs(StoreObserver.NONE);
        }
        assertThat(DocStoreOptions.defaults().cacheValidation()).isEqualTo(CacheValidation.STAT);
        assertThat(DocStoreOptions.defaults().schema()).isNull();
        SegmentedLogOptions log = SegmentedLogOptions.defaults();
        assertThat(log.maxSegmentBytes()).isEqualTo(1_048_576);
        assertThat(log.sparseIndexInterval()).isEqualTo(64);
        assertThat(log.partition()).isEqualTo(LogPartition.NONE);
        assertThat(log.partitionTimestampMs()).isNull();
        assertThat(log.durability()).isEqualTo(Durability.FSYNC);
        QueueOptions queue = QueueOptions.defaults();
        assertThat(queue.autoCompact()).isTrue();
        assertThat(queue.compactionThresholdBytes()).isEqualTo(1L << 20);
        assertThat(queue.maxBatch()).isEqualTo(1024);
    }

    @Test
    void theCommonSettersReturnTheEnginesBuilderAndKeepWhatTheyAreGiven() {
        Clock clock = Clock.fixed(Instant.parse("2026-01-02T03:04:05Z"), ZoneOffset.UTC);
        Supplier<String> ids = () -> "0190f1a2-0000-7000-8000-000000000000";
        StoreObserver observer = new StoreObserver() {
            @Override
            public void operation(StoreKind kind, String store, StoreOperation operation, boolean success,
                    long nanos) {
            }

            @Override
            public void fsync(String store, boolean directory, long nanos) {
            }
        };
        SegmentedLogOptions log = SegmentedLogOptions.builder().clock(clock).idGenerator(ids).lockTimeout(Duration.ofMillis(5))
                .observer(observer).maxSegmentBytes(256).partition(LogPartition.DAILY).build();

        assertThat(log.clock()).isSameAs(clock);
        assertThat(log.idGenerator()).isSameAs(ids);
        assertThat(log.lockTimeout()).isEqualTo(Duration.ofMillis(5));
        assertThat(log.observer()).isSameAs(observer);
        assertThat(log.maxSegmentBytes()).isEqualTo(256);
        assertThat(log.partition()).isEqualTo(LogPartition.DAILY);
        assertThat(QueueOptions.builder().lockTimeout(Duration.ofSeconds(-1)).maxBatch(1).build().lockTimeout())
                .isEqualTo(Duration.ofSeconds(-1));
    }

    @Test
    void settersRefuseOutOfRangeValuesAtOnceNamingThem() {
        assertThatThrownBy(() -> SegmentedLogOptions.builder().maxSegmentBytes(255)).isInstanceOf(StorageException.class)
                .hasMessage("Segment size must be at least 256 bytes. Got: 255");
        assertThatThrownBy(() -> SegmentedLogOptions.builder().sparseIndexInterval(0)).isInstanceOf(StorageException.class)
                .hasMessage("Sparse index interval must be at least 1. Got: 0");
        assertThatThrownBy(() -> QueueOptions.builder().compactionThresholdBytes(-1))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("compactionThresholdBytes must be at least 0, got -1");
        assertThatThrownBy(() -> QueueOptions.builder().maxBatch(0)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("maxBatch must be at least 1, got 0");
        assertThatThrownBy(() -> DocStoreOptions.builder().cacheValidation(null)).isInstanceOf(NullPointerException.class)
                .hasMessage("cacheValidation");
        assertThatThrownBy(() -> QueueOptions.builder().clock(null)).isInstanceOf(NullPointerException.class)
                .hasMessage("clock");
    }
}
