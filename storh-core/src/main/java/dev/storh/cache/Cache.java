package dev.storh.cache;

import com.github.benmanes.caffeine.cache.Caffeine;
import dev.storh.StorageException;
import java.util.Optional;

/**
 * A record cache for DocStore point reads, shared by every store
 * instance it is given to: pass one {@code Cache.memory(...)} to several stores (of one or many
 * collections) and they share its budget and see each other's writes. Entries are keyed by the
 * collection folder (a short token per folder) and the id; a write or delete through any store replaces the entry, and
 * {@link CacheValidation} decides how entries are checked against the files before use.
 *
 * <pre>
 * Cache cache = Cache.memory(100_000, 256L &lt;&lt; 20);   // 100k entries, 256 MiB
 * DocStore.open(root, "pages", DocStoreOptions.builder().cache(cache).cacheValidation(CacheValidation.STAT).build());
 * </pre>
 *
 * Thread-safe (Caffeine underneath). The memory caches do their upkeep (eviction, draining the
 * buffers of recent reads and writes) on the thread that reads or writes, in small amortized steps:
 * no pool thread is woken for it, which on a busy machine cost a context switch per few reads.
 */
public abstract class Cache {

    private static final Cache NONE = new Cache() {
        @Override
        public Optional<CachedRecord> get(String key) {
            return Optional.empty();
        }

        @Override
        public void put(String key, CachedRecord value) {
            // caches nothing
        }

        @Override
        public void invalidate(String key) {
            // caches nothing
        }

        @Override
        public void invalidatePrefix(String prefix) {
            // nothing kept
        }

        @Override
        public long size() {
            return 0;
        }
    };

    /** Most entries of {@link #standard()}. */
    public static final long STANDARD_MAX_ENTRIES = 100_000;

    /** Most record bytes of {@link #standard()}, whatever the heap. */
    public static final long STANDARD_MAX_BYTES = 64L << 20;

    Cache() {
    }

    /**
     * The record cache every {@code DocStore} uses unless its options name another: one cache per
     * process, shared by all those stores, bounded by {@value #STANDARD_MAX_ENTRIES} entries and by
     * record bytes of 1/32 of the maximum heap ({@code Runtime.maxMemory()}), at most
     * {@link #STANDARD_MAX_BYTES} (64 MiB), whichever is reached first. Created on first use.
     *
     * @return the process-wide default record cache
     */
    public static Cache standard() {
        return Standard.CACHE;
    }

    /**
     * @return the cache that keeps nothing: a store given it reads every record from its file
     */
    public static Cache none() {
        return NONE;
    }

    /**
     * @param maxEntries most entries, at least 1
     * @return an in-memory cache bounded by entry count
     * @throws StorageException {@code "Memory cache max entries must be at least 1."}
     */
    public static Cache memory(long maxEntries) {
        if (maxEntries < 1) {
            throw new StorageException("Memory cache max entries must be at least 1.");
        }
        return new MemoryCache(Caffeine.newBuilder().maximumSize(maxEntries).executor(Runnable::run).build());
    }

    /**
     * Both budgets hold: each entry weighs its file size in bytes, but at least
     * {@code maxBytes / maxEntries}, so the cache never keeps more than {@code maxEntries} entries nor
     * more than {@code maxBytes} of record bytes (the original measures the whole process instead).
     *
     * @param maxEntries most entries, at least 1
     * @param maxBytes most bytes of cached record files, at least 1
     * @return an in-memory cache bounded by entries and bytes
     * @throws StorageException {@code "Memory cache max entries must be at least 1."} /
     *     {@code "Memory cache max bytes must be at least 1."}
     */
    public static Cache memory(long maxEntries, long maxBytes) {
        if (maxEntries < 1) {
            throw new StorageException("Memory cache max entries must be at least 1.");
        }
        if (maxBytes < 1) {
            throw new StorageException("Memory cache max bytes must be at least 1.");
        }
        long share = Math.max(1, (maxBytes + maxEntries - 1) / maxEntries);
        return new MemoryCache(Caffeine.newBuilder().maximumWeight(maxBytes).executor(Runnable::run)
                .weigher((String k, CachedRecord v) -> (int) Math.min(Integer.MAX_VALUE, Math.max(share, v.bytes())))
                .build());
    }

    /**
     * @param key the collection folder's token + NUL + id
     * @return the cached entry, if any
     */
    public abstract Optional<CachedRecord> get(String key);

    /**
     * @param key the collection folder's token + NUL + id
     * @param value the entry
     */
    public abstract void put(String key, CachedRecord value);

    /**
     * @param key the collection folder's token + NUL + id
     */
    public abstract void invalidate(String key);

    /**
     * @return the number of entries (approximate)
     */
    public abstract long size();

    /**
     * Drops every entry whose key starts with {@code prefix} (one collection's entries: its folder
     * token followed by NUL). Walks every key: meant for a store closing, not for hot paths.
     *
     * @param prefix the start of the keys to drop
     */
    public abstract void invalidatePrefix(String prefix);

    /** Holds {@link #standard()}, made on first use. */
    private static final class Standard {
        static final Cache CACHE = memory(STANDARD_MAX_ENTRIES,
                Math.max(1L << 20, Math.min(STANDARD_MAX_BYTES, Runtime.getRuntime().maxMemory() / 32)));
    }

    /** Caffeine-backed cache. */
    private static final class MemoryCache extends Cache {
        private final com.github.benmanes.caffeine.cache.Cache<String, CachedRecord> cache;

        MemoryCache(com.github.benmanes.caffeine.cache.Cache<String, CachedRecord> cache) {
            this.cache = cache;
        }

        @Override
        public Optional<CachedRecord> get(String key) {
            return Optional.ofNullable(cache.getIfPresent(key));
        }

        @Override
        public void put(String key, CachedRecord value) {
            cache.put(key, value);
        }

        @Override
        public void invalidate(String key) {
            cache.invalidate(key);
        }

        @Override
        public void invalidatePrefix(String prefix) {
            cache.asMap().keySet().removeIf(k -> k.startsWith(prefix));
        }

        @Override
        public long size() {
            cache.cleanUp();
            return cache.estimatedSize();
        }
    }
}
