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
 * keeps that version as its {@link CachedRecord#fileKey()}. Negative entries (missing files) are
 * kept too and re-checked like positive ones, except in TRUST mode.
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
     * Caches a record this store has just written (under the write lock), so the next read of it
     * costs one stat (STAT), one read and a hash (HASH) or nothing (TRUST). The record is decoded
     * from the written bytes, so it shares nothing with the caller's maps. When the file cannot
     * be stat'ed the entry is dropped instead.
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
            CachedRecord look = look(path);
            if (look != null) {
                store(key, path, look, bytes);
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
        Optional<CachedRecord> hit = cache.get(key);
        if (hit.isPresent() && validation == CacheValidation.TRUST) {
            return hit.get().record();
        }
        CachedRecord look = look(path);
        if (hit.isPresent()) {
            CachedRecord cached = hit.get();
            if (look == null && cached.missing()) {
                return null;
            }
            if (look != null && !cached.missing() && java.util.Objects.equals(cached.fileKey(), look.fileKey())) {
                if (validation == CacheValidation.STAT) {
                    return cached.record();
                }
                beforeRead.run();
                byte[] bytes = readOrNull(path);
                if (bytes != null && IndexKeys.xxh128(bytes).equals(cached.hash())) {
                    return cached.record();
                }
                return store(key, path, look, bytes);
            }
        }
        if (look == null) {
            cache.put(key, new CachedRecord(null, -1, 0, null, null));
            return null;
        }
        beforeRead.run();
        return store(key, path, look, readOrNull(path));
    }

    private StorageRecord store(String key, Path path, CachedRecord look, byte[] bytes) {
        if (bytes == null) {
            cache.put(key, new CachedRecord(null, -1, 0, null, null));
            return null;
        }
        StorageRecord record = RecordFiles.decode(path, bytes);
        cache.put(key, new CachedRecord(record, bytes.length, look.modifiedNanos(), look.fileKey(),
                validation == CacheValidation.HASH ? IndexKeys.xxh128(bytes) : null));
        return record;
    }

    /**
     * @return the file's version as an entry's {@code fileKey}, null when nothing has the name (a
     *     link or folder there gets a version of its own: reading it then reports it corrupt)
     */
    private CachedRecord look(Path path) {
        String name = files.nameOf(path);
        try {
            java.util.Optional<String> version = files.version(name);
            if (version.isPresent()) {
                return new CachedRecord(null, 0, 0, version.get(), null);
            }
            return files.exists(name) ? new CachedRecord(null, 0, 0, "not a file", null) : null;
        } catch (IOException e) {
            throw new StorageException("Could not read storage file: " + path, e);
        }
    }

    private byte[] readOrNull(Path path) {
        return RecordFiles.readBytesOrNull(files, path);
    }
}
