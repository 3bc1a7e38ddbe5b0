package dev.storh.store;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Objects;
import java.util.function.Function;
import java.util.function.Supplier;

import dev.storh.cache.Cache;
import dev.storh.fs.LocalFiles;
import dev.storh.fs.StoreFiles;
import dev.storh.observe.Observed;
import dev.storh.observe.StoreObserver;

/**
 * What every engine's options have in common: the id generator, the clock, the lock timeout, the
 * record cache and the byte seam. Each engine's options class extends it and adds its own; all
 * are immutable and built with a builder whose common setters live in {@link Builder}.
 */
public abstract class StoreOptions {

    /** Default longest wait for a store's write lock. */
    public static final Duration DEFAULT_LOCK_TIMEOUT = Duration.ofSeconds(30);

    private final Supplier<String> idGenerator;
    private final Clock clock;
    private final Duration lockTimeout;
    private final Cache cache;
    private final Function<Path, StoreFiles> files;
    private final StoreObserver observer;

    /**
     * @param builder the common settings
     */
    protected StoreOptions(Builder<?, ?> builder) {
        this.idGenerator = builder.idGenerator;
        this.clock = builder.clock;
        this.lockTimeout = builder.lockTimeout;
        this.cache = builder.cache;
        this.files = builder.files;
        this.observer = builder.observer;
    }

    /**
     * @return the supplier of ids for records written without one, or {@code null} for the
     *     engine's own UUIDv7 generator
     */
    public Supplier<String> idGenerator() {
        return idGenerator;
    }

    /**
     * @return the clock for timestamps the engine writes; the system UTC clock by default
     */
    public Clock clock() {
        return clock;
    }

    /**
     * @return the longest wait for the write lock; negative waits without limit
     */
    public Duration lockTimeout() {
        return lockTimeout;
    }

    /**
     * @return the record cache for point reads; {@link Cache#none()} by default
     */
    public Cache cache() {
        return cache;
    }

    /**
     * @param folder the store's folder
     * @return the byte seam the engine reaches that folder's files through
     */
    public StoreFiles files(Path folder) {
        return Observed.files(files.apply(folder), observer);
    }

    /**
     * @return told the latency of data operations and fsyncs; {@link StoreObserver#NONE} by default
     */
    public StoreObserver observer() {
        return observer;
    }

    /**
     * The common setters of every engine's options builder.
     *
     * @param <B> the engine's builder type, returned by every setter
     * @param <O> the engine's options type
     */
    public abstract static class Builder<B extends Builder<B, O>, O extends StoreOptions> {
        private Supplier<String> idGenerator;
        private Clock clock = Clock.systemUTC();
        private Duration lockTimeout = DEFAULT_LOCK_TIMEOUT;
        private Cache cache = Cache.none();
        private Function<Path, StoreFiles> files = LocalFiles::at;
        private StoreObserver observer = StoreObserver.NONE;
        private final Function<B, O> factory;

        /**
         * A builder with every default.
         *
         * @param factory the engine's options constructor, which {@link #build()} calls with this builder
         */
        protected Builder(Function<B, O> factory) {
            this.factory = factory;
        }

        /**
         * @return this builder, typed as the engine's ({@code B} is the engine's builder class, by
         *     the declaration {@code class Builder extends StoreOptions.Builder<Builder, Options>})
         */
        @SuppressWarnings("unchecked")
        protected final B self() {
            return (B) this;
        }

        /**
         * @param generator supplies ids for records written without one; each id is validated as a UUIDv7
         * @return this builder
         * @throws NullPointerException when {@code generator} is null
         */
        public B idGenerator(Supplier<String> generator) {
            this.idGenerator = Objects.requireNonNull(generator, "idGenerator");
            return self();
        }

        /**
         * @param clock the clock for timestamps the engine writes
         * @return this builder
         * @throws NullPointerException when {@code clock} is null
         */
        public B clock(Clock clock) {
            this.clock = Objects.requireNonNull(clock, "clock");
            return self();
        }

        /**
         * @param timeout the longest wait for the write lock before a {@code LockTimeoutException};
         *     a negative duration waits without limit, as the original does
         * @return this builder
         * @throws NullPointerException when {@code timeout} is null
         */
        public B lockTimeout(Duration timeout) {
            this.lockTimeout = Objects.requireNonNull(timeout, "lockTimeout");
            return self();
        }

        /**
         * @param cache a cache, possibly shared with other stores; {@link Cache#none()} disables caching
         * @return this builder
         * @throws NullPointerException when {@code cache} is null
         */
        public B cache(Cache cache) {
            this.cache = Objects.requireNonNull(cache, "cache");
            return self();
        }

        /**
         * Puts another byte seam under the store: a blob-storage backend, or in tests one that fails
         * at a chosen commit point. The local file system by default.
         *
         * @param files makes the seam for a store folder
         * @return this builder
         * @throws NullPointerException when {@code files} is null
         */
        public B files(Function<Path, StoreFiles> files) {
            this.files = Objects.requireNonNull(files, "files");
            return self();
        }

        /**
         * Times the store's data operations (put, get, query, delete, claim, append) and the fsyncs
         * of its byte seam; the Spring module binds this to Micrometer.
         *
         * @param observer told each latency, on the calling thread; {@link StoreObserver#NONE}
         *     (the default) times nothing
         * @return this builder
         * @throws NullPointerException when {@code observer} is null
         */
        public B observer(StoreObserver observer) {
            this.observer = Objects.requireNonNull(observer, "observer");
            return self();
        }

        /**
         * @return the immutable options
         */
        public final O build() {
            return factory.apply(self());
        }
    }
}
