package dev.storh.spring.boot.autoconfigure;

import dev.storh.cache.CacheValidation;

import org.springframework.util.unit.DataSize;

/**
 * Record cache settings: {@code storh.cache} for the cache shared by every collection, and
 * {@code storh.collections.<name>.cache} for a collection's own cache. Without
 * {@code max-entries} the collections use storh's standard record cache ({@code Cache.standard()}:
 * one per process, 100,000 entries, record bytes up to 1/32 of the heap and at most 64 MiB).
 */
public class StorhCacheProperties {

    /**
     * Most records kept in memory; at least 1. When unset, storh's standard cache is used (one per
     * process: 100,000 records, record bytes up to 1/32 of the heap and at most 64MB).
     */
    private Long maxEntries;

    /**
     * Most bytes of record files kept in memory (e.g. 64MB); at least 1B. When unset, only the
     * entry count bounds the cache.
     */
    private DataSize maxBytes;

    /**
     * How a cached record is checked against its file before it is returned: 'stat' (size,
     * nanosecond time and inode), 'hash' (as stat, plus the file's XXH3-128) or 'trust' (no file
     * check). Defaults to 'stat'; a collection's cache defaults to the value of
     * 'storh.cache.validation'.
     */
    private CacheValidation validation;

    /**
     * @return most cached records, or {@code null} for the standard cache
     */
    public Long getMaxEntries() {
        return this.maxEntries;
    }

    /**
     * @param maxEntries most cached records, or {@code null} for the standard cache
     */
    public void setMaxEntries(Long maxEntries) {
        this.maxEntries = maxEntries;
    }

    /**
     * @return most cached bytes, or {@code null} when only the entry count bounds the cache
     */
    public DataSize getMaxBytes() {
        return this.maxBytes;
    }

    /**
     * @param maxBytes most cached bytes, or {@code null}
     */
    public void setMaxBytes(DataSize maxBytes) {
        this.maxBytes = maxBytes;
    }

    /**
     * @return the validation mode, or {@code null} for the default
     */
    public CacheValidation getValidation() {
        return this.validation;
    }

    /**
     * @param validation the validation mode, or {@code null} for the default
     */
    public void setValidation(CacheValidation validation) {
        this.validation = validation;
    }

}
