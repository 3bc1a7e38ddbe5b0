package dev.storh.doc;

import dev.storh.StorageException;
import dev.storh.StorageRecord;
import dev.storh.cache.Cache;
import dev.storh.cache.CacheValidation;
import dev.storh.cache.CachedRecord;
import dev.storh.doc.index.IndexKeys;
import dev.storh.fs.StoreFiles;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Optional;

/**
 * Point reads through a {@link Cache}. A file's version (size, modification time and identity, as
 * the byte seam's {@link StoreFiles#version} reports them) is read before the file is, so an entry
 * never claims a newer file than the bytes it holds; a mismatch only costs a re-read. An entry
 * keeps that version as its {@link CachedRecord#fileKey()} and the XXH3-128 of its bytes. In STAT
 * mode a hit costs one version look once the entry has settled (see {@link CacheValidation#STAT});
 * before, each hit also reads the file and compares the hash. Negative entries (missing files) are
 * kept too and re-checked like positive ones, except in TRUST mode. Thread-safe.
 */
final class RecordCache {

    private final StoreFiles files;
    private final Cache cache;
    private final CacheValidation validation;
    private final String prefix;

    RecordCache(StoreFiles files, Cache cache, CacheValidation validation, Path collectionRoot) {
        this.files = files;
        this.cache = cache;
        this.validation = validation;
        this.prefix = collectionRoot.toAbsolutePath().normalize() + "\0";
    }

    boolean enabled() {
        return cache != Cache.none();
    }

    void invalidate(String id) {
        cache.invalidate(prefix + id);
    }

    /**
     * Caches a record this store has just written (under the write lock), so the next reads of it
     * cost one version look (STAT, once settled), one read and a hash (HASH, or STAT before) or
     * nothing (TRUST). The record is decoded from the written bytes, so it shares nothing with the
     * caller's maps. When the file cannot be looked at the entry is dropped instead.
     *
     * @param id lowercase id
     * @param path its record file, just renamed into place
     * @param bytes the bytes written to it
     */
    void fill(String id, Path path, byte[] bytes) {
        if (!enabled()) {
            return;
        }
        String key = prefix + id;
        try {
            Object version = look(path);
            if (version != null) {
                store(key, path, version, bytes, System.currentTimeMillis());
                return;
            }
        } catch (StorageException e) {
            // fall through: nothing safe to keep
        }
        cache.invalidate(key);
    }

    /**
     * @param id lowercase id
     * @param path its record file
     * @param beforeRead runs before the file's bytes are read (not on hits that read nothing), to
     *     refuse paths through symbolic links
     * @return the record, or {@code null} when the file is missing
     */
    StorageRecord get(String id, Path path, Runnable beforeRead) {
        String key = prefix + id;
        CachedRecord cached = cache.get(key).orElse(null);
        if (cached != null && validation == CacheValidation.TRUST) {
            return cached.record();
        }
        Object version = look(path);
        long seen = System.currentTimeMillis();
        if (cached != null) {
            if (version == null && cached.missing()) {
                return null;
            }
            if (version != null && !cached.missing() && version.equals(cached.fileKey())) {
                if (validation == CacheValidation.STAT && cached.settled()) {
                    return cached.record();
                }
                beforeRead.run();
                byte[] bytes = readOrNull(path);
                if (bytes == null || !IndexKeys.xxh128(bytes).equals(cached.hash())) {
                    return store(key, path, version, bytes, cached.seenMillis());
                }
                if (validation == CacheValidation.STAT && seen - cached.seenMillis() >= CacheValidation.SETTLE_MILLIS) {
                    cache.put(key, cached.asSettled());
                }
                return cached.record();
            }
        }
        if (version == null) {
            cache.put(key, CachedRecord.MISSING);
            return null;
        }
        beforeRead.run();
        return store(key, path, version, readOrNull(path), seen);
    }

    private StorageRecord store(String key, Path path, Object version, byte[] bytes, long seen) {
        if (bytes == null) {
            cache.put(key, CachedRecord.MISSING);
            return null;
        }
        StorageRecord record = RecordFiles.decode(path, bytes);
        cache.put(key, new CachedRecord(record, bytes.length, version, IndexKeys.xxh128(bytes), seen, false));
        return record;
    }

    /**
     * @return the file's version as an entry's {@code fileKey}, null when nothing has the name (a
     *     link or folder there gets a version of its own: reading it then reports it corrupt)
     */
    private Object look(Path path) {
        String name = files.nameOf(path);
        try {
            Optional<String> version = files.version(name);
            if (version.isPresent()) {
                return version.get();
            }
            return files.exists(name) ? "not a file" : null;
        } catch (IOException e) {
            throw new StorageException("Could not read storage file: " + path, e);
        }
    }

    private byte[] readOrNull(Path path) {
        return RecordFiles.readBytesOrNull(files, path);
    }
}
