package dev.storh.queue;

import java.time.Clock;
import java.time.Duration;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * Immutable options of a {@link Queue}, built with {@link #builder()}; all defaults live here.
 *
 * <pre>
 * QueueOptions.builder().lockTimeout(Duration.ofSeconds(5)).compactionThresholdBytes(8 &lt;&lt; 20).build()
 * </pre>
 *
 * @see Queue#open(java.nio.file.Path, String, QueueOptions)
 */
public final class QueueOptions {

    /** Default longest wait for the queue lock. */
    public static final Duration DEFAULT_LOCK_TIMEOUT = Duration.ofSeconds(30);

    /** Default size of {@code queue.log} below which it is never compacted automatically: 1 MiB. */
    public static final long DEFAULT_COMPACTION_THRESHOLD_BYTES = 1L << 20;

    /** Default most operations (not events) one group commit writes with one fsync. */
    public static final int DEFAULT_MAX_BATCH = 1024;

    private static final QueueOptions DEFAULTS = builder().build();

    private final Supplier<String> idGenerator;
    private final Duration lockTimeout;
    private final Clock clock;
    private final boolean autoCompact;
    private final long compactionThresholdBytes;
    private final int maxBatch;
    private final java.util.function.Function<java.nio.file.Path, dev.storh.fs.StoreFiles> files;

    private QueueOptions(Builder b) {
        this.idGenerator = b.idGenerator;
        this.lockTimeout = b.lockTimeout;
        this.clock = b.clock;
        this.files = b.files;
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
     * @return the custom id generator, or {@code null} for the built-in UUIDv7 generator
     */
    public Supplier<String> idGenerator() {
        return idGenerator;
    }

    /**
     * @return the longest wait for the queue lock; negative means no limit
     */
    public Duration lockTimeout() {
        return lockTimeout;
    }

    /**
     * @return the clock that stamps events ({@code ts}, whole seconds) and ages claims and done jobs
     */
    public Clock clock() {
        return clock;
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

    /**
     * @param directory the queue's folder
     * @return the byte seam the queue writes through (the local file system unless a test set another)
     */
    dev.storh.fs.StoreFiles files(java.nio.file.Path directory) {
        return files.apply(directory);
    }

    /** Builds {@link QueueOptions}; each setter checks its argument at once. */
    public static final class Builder {
        private Supplier<String> idGenerator;
        private Duration lockTimeout = DEFAULT_LOCK_TIMEOUT;
        private Clock clock = Clock.systemUTC();
        private boolean autoCompact = true;
        private long compactionThresholdBytes = DEFAULT_COMPACTION_THRESHOLD_BYTES;
        private int maxBatch = DEFAULT_MAX_BATCH;
        private java.util.function.Function<java.nio.file.Path, dev.storh.fs.StoreFiles> files =
                dev.storh.fs.LocalFiles::at;

        private Builder() {
        }

        /**
         * @param generator supplies ids for jobs enqueued without one; each id is validated as a UUIDv7
         * @return this builder
         * @throws NullPointerException when {@code generator} is null
         */
        public Builder idGenerator(Supplier<String> generator) {
            this.idGenerator = Objects.requireNonNull(generator, "idGenerator");
            return this;
        }

        /**
         * @param timeout the longest wait for the queue lock before a {@code LockTimeoutException};
         *     negative waits without limit, as the original does
         * @return this builder
         * @throws NullPointerException when {@code timeout} is null
         */
        public Builder lockTimeout(Duration timeout) {
            this.lockTimeout = Objects.requireNonNull(timeout, "lockTimeout");
            return this;
        }

        /**
         * @param clock the time source for event timestamps and timeouts (tests pass a fixed or
         *     offset clock instead of sleeping)
         * @return this builder
         * @throws NullPointerException when {@code clock} is null
         */
        public Builder clock(Clock clock) {
            this.clock = Objects.requireNonNull(clock, "clock");
            return this;
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

        /**
         * Puts another byte seam under the queue (tests: a failing one); internal.
         *
         * @param files makes the seam for a queue folder
         * @return this builder
         */
        Builder files(java.util.function.Function<java.nio.file.Path, dev.storh.fs.StoreFiles> files) {
            this.files = Objects.requireNonNull(files, "files");
            return this;
        }

        /**
         * @return the immutable options
         */
        public QueueOptions build() {
            return new QueueOptions(this);
        }
    }
}
