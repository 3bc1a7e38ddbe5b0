package dev.storh.spring.boot.autoconfigure;

import dev.storh.cache.CacheValidation;

import org.springframework.util.unit.DataSize;

/**
 * Record cache settings: {@code storh.cache} for the cache shared by every collection, and
 * {@code storh.collections.<name>.cache} for a collection's own cache. Without
 * {@code max-entries} the collections use storh's standard record cache ({@code Cache.standard()}:
 * one per process, 100,000 entries, record bytes up to 1/32 of the heap and at most 64 MiB).
 * Immutable, bound through its constructor.
 *
 * @param maxEntries Most records kept in memory; at least 1. When unset, storh's standard cache is
 *     used (one per process: 100,000 records, record bytes up to 1/32 of the heap and at most 64MB).
 * @param maxBytes Most bytes of record files kept in memory (e.g. 64MB); at least 1B. When unset,
 *     only the entry count bounds the cache.
 * @param validation How a cached record is checked against its file before it is returned: 'stat'
 *     (size, nanosecond time and inode), 'hash' (as stat, plus the file's XXH3-128) or 'trust' (no
 *     file check). Defaults to 'stat'; a collection's cache defaults to the value of
 *     'storh.cache.validation'.
 */
public record StorhCacheProperties(Long maxEntries, DataSize maxBytes, CacheValidation validation) {

}
