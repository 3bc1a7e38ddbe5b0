package dev.storh.queue;

import dev.storh.store.StoreOptions;

/**
 * Immutable options of a {@link Queue}, built with {@link #builder()}: the common settings of
 * {@link StoreOptions} (id generator, clock, lock timeout, cache, byte seam) plus the queue's
 * compaction and group commit settings; all defaults live here and in the base.
 *
 * <pre>
 * QueueOptions.builder().lockTimeout(Duration.ofSeconds(5)).compactionThresholdBytes(8 &lt;&lt; 20).build()
 * </pre>
 *
 * The clock stamps events ({@code ts}, whole seconds) and ages claims and done jobs; the cache is
 * not used by queues. Thread-safe (immutable).
 *
 * @see Queue#open(java.nio.file.Path, String, QueueOptions)
 */
public final class QueueOptions extends StoreOptions {

    /** Default size of {@code queue.log} below which it is never compacted automatically: 1 MiB. */
    public static final long DEFAULT_COMPACTION_THRESHOLD_BYTES = 1L << 20;

    /** Default most operations (not events) one group commit writes with one fsync. */
    public static final int DEFAULT_MAX_BATCH = 1024;

    private static final QueueOptions DEFAULTS = builder().build();

    private final boolean autoCompact;
    private final long compactionThresholdBytes;
    private final int maxBatch;

    private QueueOptions(Builder b) {
        super(b);
        this.autoCompact = b.autoCompact;
        this.compactionThresholdBytes = b.compactionThresholdBytes;
        this.maxBatch = b.maxBatch;
    }

    /**
     * @return the defaults: UUIDv7 ids, 30 s lock timeout, system UTC clock, automatic compaction
     *     above 1 MiB, batches of up to 1024 operations
     */
    public static QueueOptions defaults() {
        return DEFAULTS;
    }

    /**
     * @return a builder holding the defaults
     */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * @return whether writes compact {@code queue.log} once it passes the threshold and more than
     *     half of its lines are dead
     */
    public boolean autoCompact() {
        return autoCompact;
    }

    /**
     * @return the size in bytes below which {@code queue.log} is never compacted automatically
     */
    public long compactionThresholdBytes() {
        return compactionThresholdBytes;
    }

    /**
     * @return the most operations one group commit batch holds
     */
    public int maxBatch() {
        return maxBatch;
    }

    /** Builds {@link QueueOptions}; each setter checks its argument at once. */
    public static final class Builder extends StoreOptions.Builder<Builder, QueueOptions> {
        private boolean autoCompact = true;
        private long compactionThresholdBytes = DEFAULT_COMPACTION_THRESHOLD_BYTES;
        private int maxBatch = DEFAULT_MAX_BATCH;

        private Builder() {
            super(QueueOptions::new);
        }

        /**
         * @param enabled whether writes compact the log automatically; turn it off while PHP
         *     instances of the original share the queue (they cannot follow a rename, see {@link Queue})
         * @return this builder
         */
        public Builder autoCompact(boolean enabled) {
            this.autoCompact = enabled;
            return this;
        }

        /**
         * @param bytes the size below which {@code queue.log} is never compacted automatically, at least 0
         * @return this builder
         * @throws IllegalArgumentException when {@code bytes} is negative
         */
        public Builder compactionThresholdBytes(long bytes) {
            if (bytes < 0) {
                throw new IllegalArgumentException("compactionThresholdBytes must be at least 0, got " + bytes);
            }
            this.compactionThresholdBytes = bytes;
            return this;
        }

        /**
         * @param operations the most concurrent operations one group commit writes with one fsync, at least 1
         * @return this builder
         * @throws IllegalArgumentException when {@code operations} is below 1
         */
        public Builder maxBatch(int operations) {
            if (operations < 1) {
                throw new IllegalArgumentException("maxBatch must be at least 1, got " + operations);
            }
            this.maxBatch = operations;
            return this;
        }
    }
}
