package dev.storh.doc;

import dev.storh.cache.Cache;
import dev.storh.cache.CacheValidation;
import dev.storh.schema.Schema;
import dev.storh.store.StoreOptions;
import java.util.Objects;

/**
 * Immutable options of a {@link DocStore}, built with {@link #builder()}; all defaults live here
 * and in {@link StoreOptions} (id generator, clock, lock timeout, record cache, byte seam). The
 * record cache is on by default: {@link Cache#standard()}, one bounded cache per process, checked
 * in {@link CacheValidation#STAT} mode and filled by the store's own writes; pass
 * {@link Cache#none()} to read every record from its file.
 *
 * <pre>
 * DocStoreOptions.builder().lockTimeout(Duration.ofSeconds(5)).idGenerator(myIds).build()
 * </pre>
 *
 * @see DocStore#open(java.nio.file.Path, String, DocStoreOptions)
 */
public final class DocStoreOptions extends StoreOptions {

    private static final DocStoreOptions DEFAULTS = builder().build();

    private final Schema schema;
    private final CacheValidation cacheValidation;

    private DocStoreOptions(Builder b) {
        super(b);
        this.schema = b.schema;
        this.cacheValidation = b.cacheValidation;
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
     * @return the default options: UUIDv7 ids, a 30-second lock timeout, the standard record cache
     *     ({@link Cache#standard()}) with STAT validation
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

    /** Builds {@link DocStoreOptions}; each setter checks its argument at once. Not thread-safe. */
    public static final class Builder extends StoreOptions.Builder<Builder, DocStoreOptions> {
        private Schema schema;
        private CacheValidation cacheValidation = CacheValidation.STAT;

        private Builder() {
            super(DocStoreOptions::new);
            cache(Cache.standard());
        }

        /**
         * @param validation how cached records are checked against their files
         * @return this builder
         * @throws NullPointerException when {@code validation} is null
         */
        public Builder cacheValidation(CacheValidation validation) {
            this.cacheValidation = Objects.requireNonNull(validation, "cacheValidation");
            return this;
        }

        /**
         * @param schema validates every write and defines the collection's indexes on open; its
         *     collection name must equal the store's
         * @return this builder
         * @throws NullPointerException when {@code schema} is null
         */
        public Builder schema(Schema schema) {
            this.schema = Objects.requireNonNull(schema, "schema");
            return this;
        }
    }
}
