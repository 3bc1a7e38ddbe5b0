package dev.storh.doc;

import dev.storh.cache.Cache;
import dev.storh.cache.CacheValidation;
import dev.storh.schema.Schema;
import java.time.Duration;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * Immutable options of a {@link DocStore}, built with {@link #builder()}; all defaults live here.
 *
 * <pre>
 * DocStoreOptions.builder().lockTimeout(Duration.ofSeconds(5)).idGenerator(myIds).build()
 * </pre>
 *
 * @see DocStore#open(java.nio.file.Path, String, DocStoreOptions)
 */
public final class DocStoreOptions {

    /** Default longest wait for the collection write lock. */
    public static final Duration DEFAULT_LOCK_TIMEOUT = Duration.ofSeconds(30);

    private static final DocStoreOptions DEFAULTS = builder().build();

    private final Supplier<String> idGenerator;
    private final Duration lockTimeout;
    private final Schema schema;
    private final Cache cache;
    private final CacheValidation cacheValidation;
    private final java.util.function.Function<java.nio.file.Path, dev.storh.fs.StoreFiles> files;

    private DocStoreOptions(Builder b) {
        this.idGenerator = b.idGenerator;
        this.lockTimeout = b.lockTimeout;
        this.schema = b.schema;
        this.cache = b.cache;
        this.cacheValidation = b.cacheValidation;
        this.files = b.files;
    }

    /**
     * @return the record cache for point reads; {@link Cache#none()} by default
     */
    public Cache cache() {
        return cache;
    }

    /**
     * @return how cached records are checked against their files; STAT by default
     */
    public CacheValidation cacheValidation() {
        return cacheValidation;
    }

    /**
     * @return the collection's schema, or {@code null}
     */
    public Schema schema() {
        return schema;
    }

    /**
     * @return the default options: UUIDv7 ids, a 30-second lock timeout
     */
    public static DocStoreOptions defaults() {
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
     * @return the longest wait for the collection write lock; negative means no limit
     */
    public Duration lockTimeout() {
        return lockTimeout;
    }

    /** Builds {@link DocStoreOptions}; each setter checks its argument at once. */
    /**
     * @param collectionRoot the collection folder
     * @return the byte seam the store writes through (the local file system unless a test set another)
     */
    dev.storh.fs.StoreFiles files(java.nio.file.Path collectionRoot) {
        return files.apply(collectionRoot);
    }

    public static final class Builder {
        private Supplier<String> idGenerator;
        private Duration lockTimeout = DEFAULT_LOCK_TIMEOUT;
        private Schema schema;
        private Cache cache = Cache.none();
        private CacheValidation cacheValidation = CacheValidation.STAT;
        private java.util.function.Function<java.nio.file.Path, dev.storh.fs.StoreFiles> files =
                dev.storh.fs.LocalFiles::at;

        private Builder() {
        }

        /**
         * @param cache a cache, possibly shared with other stores; {@link Cache#none()} disables caching
         * @return this builder
         */
        public Builder cache(Cache cache) {
            this.cache = Objects.requireNonNull(cache, "cache");
            return this;
        }

        /**
         * @param validation how cached records are checked against their files
         * @return this builder
         */
        public Builder cacheValidation(CacheValidation validation) {
            this.cacheValidation = Objects.requireNonNull(validation, "cacheValidation");
            return this;
        }

        /**
         * @param schema validates every write and defines the collection's indexes on open; its
         *     collection name must equal the store's
         * @return this builder
         */
        public Builder schema(Schema schema) {
            this.schema = Objects.requireNonNull(schema, "schema");
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
         * @param timeout the longest wait for the write lock before a {@code LockTimeoutException};
         *     a negative duration waits without limit, as the original does
         * @return this builder
         * @throws NullPointerException when {@code timeout} is null
         */
        public Builder lockTimeout(Duration timeout) {
            this.lockTimeout = Objects.requireNonNull(timeout, "lockTimeout");
            return this;
        }

        /**
         * Puts another byte seam under the store (tests: a failing one); internal.
         *
         * @param files makes the seam for a collection folder
         * @return this builder
         */
        Builder files(java.util.function.Function<java.nio.file.Path, dev.storh.fs.StoreFiles> files) {
            this.files = Objects.requireNonNull(files, "files");
            return this;
        }

        /**
         * @return the immutable options
         */
        public DocStoreOptions build() {
            return new DocStoreOptions(this);
        }
    }
}
