package dev.storh.doc;

import dev.storh.CorruptRecordException;
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
import java.util.concurrent.atomic.AtomicLong;

/**
 * Point reads through a {@link Cache}. A file's version (size, modification time and identity, as
 * the byte seam's {@link StoreFiles#version} reports them) is read before the file is, so an entry
 * never claims a newer file than the bytes it holds; a mismatch only costs a re-read. An entry
 * keeps that version as its {@link CachedRecord#fileKey()} and the XXH3-128 of its bytes. In STAT
 * mode a hit costs one version look once the entry has settled (see {@link CacheValidation#STAT});
 * before, each hit also reads the file and compares the hash, except for records this store wrote
 * while no other writer was registered (a look at the writers folder instead). Negative entries (missing files) are
 * kept too and re-checked like positive ones, except in TRUST mode.
 *
 * <p>Settling early: the cache keeps a <em>clock floor</em>, the latest modification time it has
 * seen that the file system set itself (the writers folder's, which only markers coming and going
 * change, looked at most every {@value #FLOOR_REFRESH_MILLIS} ms before a look that may need it,
 * and those of the record files this store has just written). Times ahead of this machine's clock
 * are not taken (a copy that kept its times). A file whose time is earlier than a floor read before
 * the look that precedes a read of its bytes (or a check that they are still this store's) was
 * last written in an earlier clock tick than that look: any later write gives it a later time, so
 * the entry settles then and there. Thread-safe.
 */
final class RecordCache {

    /** The version of a name that is there but not a regular file (a link, a folder). */
    private static final String NOT_A_FILE = "not a file";

    /** How often, at most, the clock floor is raised from the writers folder's time (ms of this machine's clock). */
    static final long FLOOR_REFRESH_MILLIS = 10;

    /** Key prefixes by collection folder, one per folder opened in this process. */
    private static final java.util.concurrent.ConcurrentHashMap<String, String> KEY_PREFIXES =
            new java.util.concurrent.ConcurrentHashMap<>();
    private static final AtomicLong NEXT_KEY_PREFIX = new AtomicLong();

    /** A writers mark found unchanged after the clock floor had reached {@code floor}. */
    private record Verified(long mark, long floor) {
    }

    private final StoreFiles files;
    private final Cache cache;
    private final CacheValidation validation;
    private final String prefix;
    private final WriterQuiet quiet;
    private final String dataName;
    private final AtomicLong floor = new AtomicLong(-1);
    private volatile long floorLookedAt = -FLOOR_REFRESH_MILLIS;
    private volatile Verified verified = new Verified(-1, -1);

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
        this.prefix = keyPrefix(collectionRoot.toAbsolutePath().normalize().toString());
        this.quiet = new WriterQuiet(files, writerPrefix);
    }

    /**
     * The start of a collection's cache keys: a short token per collection folder, the same for every
     * store of the folder in this process (so they share entries), then NUL. Keys of a few dozen
     * characters instead of the folder's whole path are hashed and compared on every read.
     */
    private static String keyPrefix(String folder) {
        return KEY_PREFIXES.computeIfAbsent(folder, f -> Long.toString(NEXT_KEY_PREFIX.incrementAndGet(), 36) + "\0");
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
                long written = files.modifiedMillis(version);
                long mark = validation == CacheValidation.STAT ? quiet.markFor(written) : -1;
                long now = System.currentTimeMillis();
                store(key, path, version, bytes, now, mark, -1);
                raiseFloor(written, now); // the file system's clock at this write: later writes get later times
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
        boolean stat = validation == CacheValidation.STAT;
        // read before the look: a time below it was set in an earlier clock tick than the look
        long floorBefore = stat && (cached == null || !cached.settled()) ? floorBeforeLook() : -1;
        String version = look(name);
        if (cached != null) {
            if (version == null && cached.missing()) {
                return null;
            }
            if (version != null && !cached.missing() && version.equals(cached.fileKey())) {
                if (stat && cached.settled()) {
                    return cached.record();
                }
                return unsettledHit(key, name, version, cached, stat, floorBefore, beforeRead);
            }
        }
        if (version == null) {
            cache.put(key, CachedRecord.MISSING);
            return null;
        }
        beforeRead.run();
        Path path = files.path(name);
        long sizeSeen = NOT_A_FILE.equals(version) ? -1 : files.sizeOf(version);
        byte[] bytes = RecordFiles.readBytesOrNull(files, name, path, sizeSeen);
        try {
            return store(key, path, version, bytes, System.currentTimeMillis(), -1, floorBefore);
        } catch (CorruptRecordException e) {
            if (sizeSeen < 0 || bytes == null) {
                throw e;
            }
            // read by the size seen: on a file system that reads short before a file's end the bytes may
            // be cut, so the file is read whole before it counts as corrupt
            return store(key, path, version, RecordFiles.readBytesOrNull(files, name, path), System.currentTimeMillis(), -1,
                    floorBefore);
        }
    }

    /**
     * A hit on an entry not yet settled whose file still has the entry's version: trusted when its
     * writers mark still holds (or held after the clock floor passed the file's time), else the
     * bytes are read and compared. Settles the entry once the bytes are confirmed after the settle
     * time, or after a look preceded by a clock floor later than the file's time.
     */
    private StorageRecord unsettledHit(String key, String name, String version, CachedRecord cached, boolean stat,
            long floorBefore, Runnable beforeRead) {
        long modified = files.modifiedMillis(version);
        boolean settles = stat && (System.currentTimeMillis() - cached.seenMillis() >= CacheValidation.SETTLE_MILLIS
                || modified >= 0 && modified < floorBefore);
        long mark = cached.writersMark();
        if (stat && mark >= 0) {
            Verified v = verified;
            if (v.mark() == mark && modified >= 0 && modified < v.floor()) {
                // No writer registered until after the floor passed this file's time: the bytes are
                // this store's, and any later write gives the file a later time. That is what a
                // settled entry stands for, so it is settled (one cache write per entry): its next
                // hits cost the version look alone.
                cache.put(key, cached.asSettled());
                return cached.record();
            }
            if (quiet.unchanged(mark)) {
                if (floorBefore > v.floor() || v.mark() != mark) {
                    verified = new Verified(mark, floorBefore);
                }
                if (settles) {
                    cache.put(key, cached.asSettled());
                }
                return cached.record();
            }
        }
        beforeRead.run();
        Path path = files.path(name);
        byte[] bytes = RecordFiles.readBytesOrNull(files, name, path);
        if (bytes == null || !IndexKeys.xxh128(bytes).equals(cached.hash())) {
            return store(key, path, version, bytes, cached.seenMillis(), -1, floorBefore);
        }
        if (settles) {
            cache.put(key, cached.asSettled());
        } else if (mark >= 0) {
            cache.put(key, cached.withoutWritersMark());
        }
        return cached.record();
    }

    /**
     * @return the clock floor, first raised from the writers folder's time when it was last looked
     *     at {@link #FLOOR_REFRESH_MILLIS} ms ago or more (one look); -1 when none is known
     */
    private long floorBeforeLook() {
        long now = System.currentTimeMillis();
        if (now - floorLookedAt >= FLOOR_REFRESH_MILLIS || now < floorLookedAt) {
            floorLookedAt = now;
            raiseFloor(quiet.folderMillis(), now);
        }
        return floor.get();
    }

    /**
     * @param millis a modification time the file system set itself, or -1
     * @param now this machine's clock when it was read
     */
    private void raiseFloor(long millis, long now) {
        if (millis >= 0 && millis <= now) { // a time ahead of this clock was not set by it
            floor.accumulateAndGet(millis, Math::max);
        }
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
     * before the look is settled at once (any later write gets a later time), and so is one whose
     * time is earlier than {@code floorBefore}, a clock floor read before the look.
     */
    private StorageRecord store(String key, Path path, String version, byte[] bytes, long seen, long writersMark,
            long floorBefore) {
        if (bytes == null) {
            cache.put(key, CachedRecord.MISSING);
            return null;
        }
        StorageRecord record = RecordFiles.decode(path, bytes);
        long modified = NOT_A_FILE.equals(version) ? -1 : files.modifiedMillis(version);
        long from = modified >= 0 ? Math.min(seen, modified) : seen;
        boolean settled = seen - from >= CacheValidation.SETTLE_MILLIS || modified >= 0 && modified < floorBefore;
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
