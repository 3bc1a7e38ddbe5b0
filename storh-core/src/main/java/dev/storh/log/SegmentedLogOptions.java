package dev.storh.log;

import dev.storh.StorageException;
import dev.storh.store.StoreOptions;
import java.util.Objects;

/**
 * Immutable options of a {@link SegmentedLog}, built with {@link #builder()}; all defaults live here
 * and in {@link StoreOptions} (id generator, clock, lock timeout, cache, byte seam).
 *
 * <pre>
 * SegmentedLogOptions.builder().maxSegmentBytes(4 &lt;&lt; 20).sparseIndexInterval(64)
 *         .partition(LogPartition.DAILY).build()
 * </pre>
 *
 * A log reads its records from its segments, so the {@link #cache()} setting is accepted and unused.
 *
 * @see SegmentedLog#open(java.nio.file.Path, String, SegmentedLogOptions)
 */
public final class SegmentedLogOptions extends StoreOptions {

    /** Default size at which the active segment is rolled: 1 MiB. */
    public static final long DEFAULT_MAX_SEGMENT_BYTES = 1_048_576;
    /** Smallest allowed {@code maxSegmentBytes}. */
    public static final long MIN_SEGMENT_BYTES = 256;
    /** Default sparse index interval: every 64th line. */
    public static final int DEFAULT_SPARSE_INDEX_INTERVAL = 64;

    private static final SegmentedLogOptions DEFAULTS = builder().build();

    private final long maxSegmentBytes;
    private final int sparseIndexInterval;
    private final LogPartition partition;
    private final Long partitionTimestampMs;
    private final Durability durability;

    private SegmentedLogOptions(Builder b) {
        super(b);
        this.maxSegmentBytes = b.maxSegmentBytes;
        this.sparseIndexInterval = b.sparseIndexInterval;
        this.partition = b.partition;
        this.partitionTimestampMs = b.partitionTimestampMs;
        this.durability = b.durability;
    }

    /**
     * @return 1 MiB segments, interval 64, no partition, UUIDv7 ids, fsync, 30 s lock timeout, system UTC clock
     */
    public static SegmentedLogOptions defaults() {
        return DEFAULTS;
    }

    /**
     * @return a builder holding the defaults
     */
    public static Builder builder() {
        return new Builder();
    }

    /** @return size in bytes at or past which the active segment is rolled */
    public long maxSegmentBytes() {
        return maxSegmentBytes;
    }

    /** @return every how many lines a sparse index entry is kept */
    public int sparseIndexInterval() {
        return sparseIndexInterval;
    }

    /** @return the date partitioning */
    public LogPartition partition() {
        return partition;
    }

    /** @return the instant (ms) that picks the partition folder, or {@code null} for "now" at open */
    public Long partitionTimestampMs() {
        return partitionTimestampMs;
    }

    /** @return when appends are reported done */
    public Durability durability() {
        return durability;
    }

    /**
     * Builds {@link SegmentedLogOptions}; each setter checks its argument at once. The common
     * setters (id generator, clock for partitions and retention, lock timeout, cache, byte seam) are
     * {@link StoreOptions.Builder}'s.
     */
    public static final class Builder extends StoreOptions.Builder<Builder, SegmentedLogOptions> {
        private long maxSegmentBytes = DEFAULT_MAX_SEGMENT_BYTES;
        private int sparseIndexInterval = DEFAULT_SPARSE_INDEX_INTERVAL;
        private LogPartition partition = LogPartition.NONE;
        private Long partitionTimestampMs;
        private Durability durability = Durability.FSYNC;

        private Builder() {
            super(SegmentedLogOptions::new);
        }

        /**
         * @param bytes roll the active segment once its size reaches this many bytes
         * @return this builder
         * @throws StorageException {@code "Segment size must be at least 256 bytes."} naming the value
         */
        public Builder maxSegmentBytes(long bytes) {
            if (bytes < MIN_SEGMENT_BYTES) {
                throw new StorageException("Segment size must be at least 256 bytes. Got: " + bytes);
            }
            this.maxSegmentBytes = bytes;
            return this;
        }

        /**
         * @param lines keep a sparse index entry for every this many lines (line 0 included)
         * @return this builder
         * @throws StorageException {@code "Sparse index interval must be at least 1."} naming the value
         */
        public Builder sparseIndexInterval(int lines) {
            if (lines < 1) {
                throw new StorageException("Sparse index interval must be at least 1. Got: " + lines);
            }
            this.sparseIndexInterval = lines;
            return this;
        }

        /**
         * @param partition date partitioning of the collection folder
         * @return this builder
         * @throws NullPointerException when {@code partition} is null
         */
        public Builder partition(LogPartition partition) {
            this.partition = Objects.requireNonNull(partition, "partition");
            return this;
        }

        /**
         * @param timestampMs the instant (ms since the epoch) whose UTC date picks the partition folder;
         *     {@code null} means the clock's time at open
         * @return this builder
         */
        public Builder partitionTimestampMs(Long timestampMs) {
            this.partitionTimestampMs = timestampMs;
            return this;
        }

        /**
         * @param durability when appends are reported done
         * @return this builder
         * @throws NullPointerException when {@code durability} is null
         */
        public Builder durability(Durability durability) {
            this.durability = Objects.requireNonNull(durability, "durability");
            return this;
        }
    }
}
