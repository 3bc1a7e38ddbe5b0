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
 * before, each hit also reads the file and compares the hash, except for records this store wrote
 * while no other writer was registered (a look at the writers folder instead). Negative entries (missing files) are
 * kept too and re-checked like positive ones, except in TRUST mode. Thread-safe.
 */
final class RecordCache {

    /** The version of a name that is there but not a regular file (a link, a folder). */
    private static final String NOT_A_FILE = "not a file";

    private final StoreFiles files;
    private final Cache cache;
    private final CacheValidation validation;
    private final String prefix;
    private final WriterQuiet quiet;
    private final String dataName;

    /**
     * @param files the collection's seam
     * @param layout the collection's names
     * @param cache the cache, shared by many stores
     * @param validation how entries are checked
     * @param writerPrefix this store instance's writer prefix (its marker's name)
     */
    RecordCache(StoreFiles files, DocLayout layout, Cache cache, CacheValidation validation, String writerPrefix) {
        Path collectionRoot = layout.root();
        this.dataName = files.nameOf(layout.dataDir());
        this.files = files;
        this.cache = cache;
        this.validation = validation;
        this.prefix = collectionRoot.toAbsolutePath().normalize() + "\0";
        this.quiet = new WriterQuiet(files, writerPrefix);
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
     * nothing (TRUST). In STAT mode an entry written while no other writer is registered in the
     * collection (see {@link WriterQuiet}) is trusted before it settles too, as long as no writer
     * registers: a hit then costs a look at the file and one at the writers folder. The record is
     * decoded from the written bytes, so it shares nothing with the caller's maps. When the file
     * cannot be looked at the entry is dropped instead.
     *
     * @param id lowercase id (its record file was just renamed into place)
     * @param bytes the bytes written to it
     */
    void fill(String id, byte[] bytes) {
        if (!enabled()) {
            return;
        }
        String key = prefix + id;
        String name = nameOf(id);
        Path path = files.path(name);
        try {
            String version = look(name);
            if (version != null && !NOT_A_FILE.equals(version)) {
                long mark = validation == CacheValidation.STAT ? quiet.markFor(files.modifiedMillis(version)) : -1;
                store(key, path, version, bytes, System.currentTimeMillis(), mark);
                return;
            }
        } catch (StorageException e) {
            // fall through: nothing safe to keep
        }
        cache.invalidate(key);
    }

    /**
     * @param id lowercase id
     * @param beforeRead runs before the file's bytes are read (not on hits that read nothing), to
     *     refuse paths through symbolic links
     * @return the record, or {@code null} when the file is missing
     */
    StorageRecord get(String id, Runnable beforeRead) {
        String key = prefix + id;
        String name = nameOf(id);
        CachedRecord cached = cache.get(key).orElse(null);
        if (cached != null && validation == CacheValidation.TRUST) {
            return cached.record();
        }
        String version = look(name);
        long seen = System.currentTimeMillis();
        if (cached != null) {
            if (version == null && cached.missing()) {
                return null;
            }
            if (version != null && !cached.missing() && version.equals(cached.fileKey())) {
                boolean stat = validation == CacheValidation.STAT;
                boolean settles = stat && seen - cached.seenMillis() >= CacheValidation.SETTLE_MILLIS;
                if (stat && (cached.settled() || quiet.unchanged(cached.writersMark()))) {
                    if (settles && !cached.settled()) {
                        cache.put(key, cached.asSettled());
                    }
                    return cached.record();
                }
                beforeRead.run();
                Path path = files.path(name);
                byte[] bytes = RecordFiles.readBytesOrNull(files, name, path);
                if (bytes == null || !IndexKeys.xxh128(bytes).equals(cached.hash())) {
                    return store(key, path, version, bytes, cached.seenMillis(), -1);
                }
                if (settles) {
                    cache.put(key, cached.asSettled());
                } else if (cached.writersMark() >= 0) {
                    cache.put(key, cached.withoutWritersMark());
                }
                return cached.record();
            }
        }
        if (version == null) {
            cache.put(key, CachedRecord.MISSING);
            return null;
        }
        beforeRead.run();
        Path path = files.path(name);
        return store(key, path, version, RecordFiles.readBytesOrNull(files, name, path), seen, -1);
    }

    /**
     * Whether a record file is there, told by the cache for one version look: an entry whose file
     * still has the version it was read or written at is the same file (present), a negative entry
     * whose name still has no file is still missing; as {@link #get}, a hit reads no bytes and so
     * checks no links.
     *
     * @param id lowercase id
     * @return {@code TRUE} or {@code FALSE} when the cache knows, {@code null} when the caller must look
     */
    Boolean knownPresence(String id) {
        if (!enabled()) {
            return null;
        }
        CachedRecord cached = cache.get(prefix + id).orElse(null);
        if (cached == null) {
            return null;
        }
        String version = look(nameOf(id));
        if (cached.missing()) {
            return version == null ? Boolean.FALSE : null;
        }
        return version != null && !NOT_A_FILE.equals(version) && version.equals(cached.fileKey()) ? Boolean.TRUE : null;
    }

    /**
     * Drops every entry of this collection from the cache (a closing store's entries would only
     * crowd out those of the stores still open); a store of the collection still open reads its
     * records again.
     */
    void forget() {
        cache.invalidatePrefix(prefix);
    }

    /**
     * Keeps the bytes read (or written) after a look at {@code version}. The settle time counts
     * from {@code seen} or from the file's modification time when the version tells it and it is
     * earlier; an entry whose file was last modified {@link CacheValidation#SETTLE_MILLIS} or more
     * before the look is settled at once (any later write gets a later time).
     */
    private StorageRecord store(String key, Path path, String version, byte[] bytes, long seen, long writersMark) {
        if (bytes == null) {
            cache.put(key, CachedRecord.MISSING);
            return null;
        }
        StorageRecord record = RecordFiles.decode(path, bytes);
        long modified = NOT_A_FILE.equals(version) ? -1 : files.modifiedMillis(version);
        long from = modified >= 0 ? Math.min(seen, modified) : seen;
        boolean settled = seen - from >= CacheValidation.SETTLE_MILLIS;
        cache.put(key, new CachedRecord(record, bytes.length, version, IndexKeys.xxh128(bytes), from, settled,
                settled ? -1 : writersMark));
        return record;
    }

    /**
     * @param lowerId a lowercase id
     * @return the seam's name of its record file, {@code data/<bucket>/<id>.jsonc}
     */
    String nameOf(String lowerId) {
        return DocLayout.recordName(dataName, lowerId);
    }

    /**
     * @param name a record file's seam name
     * @return the file's version as an entry's {@code fileKey}, null when nothing has the name (a
     *     link or folder there gets a version of its own: reading it then reports it corrupt)
     */
    private String look(String name) {
        try {
            Optional<String> version = files.likelyFileVersion(name); // one lstat: a record looked up is most often there
            if (version.isPresent()) {
                return version.get();
            }
            return files.exists(name) ? NOT_A_FILE : null;
        } catch (IOException e) {
            throw new StorageException("Could not read storage file: " + files.path(name), e);
        }
    }

}
