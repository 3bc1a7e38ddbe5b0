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
 * record cache, the byte seam and the observer, kept together in {@link Common}. Each engine's
 * options are an immutable record of {@link #common()} and its own settings, built with a builder
 * whose common setters live in {@link Builder}. Thread-safe (immutable).
 */
public interface StoreOptions {

    /** Default longest wait for a store's write lock. */
    Duration DEFAULT_LOCK_TIMEOUT = Duration.ofSeconds(30);

    /**
     * @return the settings every engine shares
     */
    Common common();

    /**
     * @return the supplier of ids for records written without one, or {@code null} for the
     *     engine's own UUIDv7 generator
     */
    default Supplier<String> idGenerator() {
        return common().idGenerator();
    }

    /**
     * @return the clock for timestamps the engine writes; the system UTC clock by default
     */
    default Clock clock() {
        return common().clock();
    }

    /**
     * @return the longest wait for the write lock; negative waits without limit
     */
    default Duration lockTimeout() {
        return common().lockTimeout();
    }

    /**
     * @return the record cache for point reads; {@link Cache#none()} by default
     */
    default Cache cache() {
        return common().cache();
    }

    /**
     * @param folder the store's folder
     * @return the byte seam the engine reaches that folder's files through
     */
    default StoreFiles files(Path folder) {
        return Observed.files(common().files().apply(folder), observer());
    }

    /**
     * @return told the latency of data operations and fsyncs; {@link StoreObserver#NONE} by default
     */
    default StoreObserver observer() {
        return common().observer();
    }

    /**
     * The settings every engine shares, as {@link Builder} collects them; see the getters of
     * {@link StoreOptions} for each.
     *
     * @param idGenerator supplies ids for records written without one, or {@code null} for UUIDv7s
     * @param clock the clock for timestamps the engine writes
     * @param lockTimeout the longest wait for the write lock; negative waits without limit
     * @param cache the record cache for point reads
     * @param files makes the byte seam for a store folder
     * @param observer told the latency of data operations and fsyncs
     */
    record Common(Supplier<String> idGenerator, Clock clock, Duration lockTimeout, Cache cache,
            Function<Path, StoreFiles> files, StoreObserver observer) {

        /**
         * @throws NullPointerException when a setting other than {@code idGenerator} is null
         */
        public Common {
            Objects.requireNonNull(clock, "clock");
            Objects.requireNonNull(lockTimeout, "lockTimeout");
            Objects.requireNonNull(cache, "cache");
            Objects.requireNonNull(files, "files");
            Objects.requireNonNull(observer, "observer");
        }
    }

    /**
     * The common setters of every engine's options builder.
     *
     * @param <B> the engine's builder type, returned by every setter
     * @param <O> the engine's options type
     */
    abstract class Builder<B extends Builder<B, O>, O extends StoreOptions> {
        private Supplier<String> idGenerator;
        private Clock clock = Clock.systemUTC();
        private Duration lockTimeout = DEFAULT_LOCK_TIMEOUT;
        private Cache cache = Cache.none();
        private Function<Path, StoreFiles> files = LocalFiles::at;
        private StoreObserver observer = StoreObserver.NONE;

        /** A builder with every default. */
        protected Builder() {
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
         * @return the common settings given so far
         */
        protected final Common common() {
            return new Common(idGenerator, clock, lockTimeout, cache, files, observer);
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
        public abstract O build();
    }
}
