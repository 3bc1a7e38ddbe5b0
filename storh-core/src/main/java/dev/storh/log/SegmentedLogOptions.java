package dev.storh.log;

import dev.storh.StorageException;
import java.time.Clock;
import java.time.Duration;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * Immutable options of a {@link SegmentedLog}, built with {@link #builder()}; all defaults live here.
 *
 * <pre>
 * SegmentedLogOptions.builder().maxSegmentBytes(4 &lt;&lt; 20).sparseIndexInterval(64)
 *         .partition(LogPartition.DAILY).build()
 * </pre>
 *
 * @see SegmentedLog#open(java.nio.file.Path, String, SegmentedLogOptions)
 */
public final class SegmentedLogOptions {

    /** Default size at which the active segment is rolled: 1 MiB. */
    public static final long DEFAULT_MAX_SEGMENT_BYTES = 1_048_576;
    /** Smallest allowed {@code maxSegmentBytes}. */
    public static final long MIN_SEGMENT_BYTES = 256;
    /** Default sparse index interval: every 64th line. */
    public static final int DEFAULT_SPARSE_INDEX_INTERVAL = 64;
    /** Default longest wait for the collection lock. */
    public static final Duration DEFAULT_LOCK_TIMEOUT = Duration.ofSeconds(30);

    private static final SegmentedLogOptions DEFAULTS = builder().build();

    private final long maxSegmentBytes;
    private final int sparseIndexInterval;
    private final LogPartition partition;
    private final Long partitionTimestampMs;
    private final Supplier<String> idGenerator;
    private final Durability durability;
    private final Duration lockTimeout;
    private final Clock clock;

    private SegmentedLogOptions(Builder b) {
        this.maxSegmentBytes = b.maxSegmentBytes;
        this.sparseIndexInterval = b.sparseIndexInterval;
        this.partition = b.partition;
        this.partitionTimestampMs = b.partitionTimestampMs;
        this.idGenerator = b.idGenerator;
        this.durability = b.durability;
        this.lockTimeout = b.lockTimeout;
        this.clock = b.clock;
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

    /** @return the custom id generator, or {@code null} for the built-in UUIDv7 generator */
    public Supplier<String> idGenerator() {
        return idGenerator;
    }

    /** @return when appends are reported done */
    public Durability durability() {
        return durability;
    }

    /** @return the longest wait for the collection lock; negative means no limit */
    public Duration lockTimeout() {
        return lockTimeout;
    }

    /** @return the clock for partitions and retention */
    public Clock clock() {
        return clock;
    }

    /** Builds {@link SegmentedLogOptions}; each setter checks its argument at once. */
    public static final class Builder {
        private long maxSegmentBytes = DEFAULT_MAX_SEGMENT_BYTES;
        private int sparseIndexInterval = DEFAULT_SPARSE_INDEX_INTERVAL;
        private LogPartition partition = LogPartition.NONE;
        private Long partitionTimestampMs;
        private Supplier<String> idGenerator;
        private Durability durability = Durability.FSYNC;
        private Duration lockTimeout = DEFAULT_LOCK_TIMEOUT;
        private Clock clock = Clock.systemUTC();

        private Builder() {
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
         * @param generator supplies ids for records put without one; each id is validated as a UUIDv7
         * @return this builder
         * @throws NullPointerException when {@code generator} is null
         */
        public Builder idGenerator(Supplier<String> generator) {
            this.idGenerator = Objects.requireNonNull(generator, "idGenerator");
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

        /**
         * @param timeout the longest wait for the collection lock before a {@code LockTimeoutException};
         *     negative waits without limit, as the original does
         * @return this builder
         * @throws NullPointerException when {@code timeout} is null
         */
        public Builder lockTimeout(Duration timeout) {
            this.lockTimeout = Objects.requireNonNull(timeout, "lockTimeout");
            return this;
        }

        /**
         * @param clock the time source for the partition date and retention cutoffs
         * @return this builder
         * @throws NullPointerException when {@code clock} is null
         */
        public Builder clock(Clock clock) {
            this.clock = Objects.requireNonNull(clock, "clock");
            return this;
        }

        /**
         * @return the immutable options
         */
        public SegmentedLogOptions build() {
            return new SegmentedLogOptions(this);
        }
    }
}
