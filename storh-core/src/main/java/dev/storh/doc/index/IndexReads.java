package dev.storh.doc.index;

import dev.storh.fs.StoreFiles;
import dev.storh.StorageException;
import dev.storh.StorageRecord;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;

/**
 * The read side of a collection's indexes: ids and counts from equality and compound value files,
 * the state of range files (kept in memory until their files change), and the list of records
 * range lines cannot hold. Every read runs under the shared side of the {@link IndexSwap}, so it
 * never sees a half-swapped set. Thread-safe.
 */
final class IndexReads {

    private final StoreFiles files;
    private final Path entries;
    private final IndexSwap swap;
    private final IndexManager.Locker locker;
    private final IndexManager.RecordSource records;
    private final Map<String, CachedRange> rangeCache = new ConcurrentHashMap<>();
    private final ValueCounts counts;
    private final Map<String, Versioned<List<String>>> listed = new ConcurrentHashMap<>();
    private final java.util.concurrent.atomic.AtomicLong listedIds = new java.util.concurrent.atomic.AtomicLong();
    private final Map<String, Versioned<java.util.Set<String>>> unindexed = new ConcurrentHashMap<>();
    private final Map<String, Seeking> seeks = new ConcurrentHashMap<>();
    private final Map<String, RangeFiles> rangeFiles = new ConcurrentHashMap<>();
    private final IndexTrust trust;
    private final KeptHeads heads;

    /**
     * A seek over a field's range files as they were (its stamps), or {@code null} when they are not
     * provably in order, and whether it may be used without looking at them ({@link IndexTrust}).
     */
    private record Seeking(IndexManifest.Stamp main, IndexManifest.Stamp delta, IndexManifest.Stamp checkpoints, RangeSeek seek,
            IndexTrust.Vouch vouch) {
    }

    /** What a file held when it had a version ({@link StoreFiles#version}), and whether it may be used without a look. */
    private record Versioned<T>(String version, T value, IndexTrust.Vouch vouch) {
    }

    private static final class CachedRange {
        final IndexManifest.Stamp main;
        final IndexManifest.Stamp delta;
        final Map<String, Object> state;
        volatile RangeView view;
        /** Whether the state may be used without a look at the files ({@link IndexTrust}). */
        volatile IndexTrust.Vouch vouch = IndexTrust.Vouch.NONE;

        CachedRange(IndexManifest.Stamp main, IndexManifest.Stamp delta, Map<String, Object> state) {
            this.main = main;
            this.delta = delta;
            this.state = state;
        }
    }

    /**
     * @param files the collection's byte seam
     * @param entries the live {@code entries/} folder
     * @param swap the swap lock shared with writes and rebuilds
     * @param locker runs actions under the collection write lock
     * @param records the collection's records
     * @param trust when state checked before may be used without looking at its files again
     */
    IndexReads(StoreFiles files, Path entries, IndexSwap swap, IndexManager.Locker locker, IndexManager.RecordSource records,
            IndexTrust trust) {
        this.trust = trust;
        this.heads = new KeptHeads(trust);
        this.counts = new ValueCounts(files, trust);
        this.files = files;
        this.entries = entries;
        this.swap = swap;
        this.locker = locker;
        this.records = records;
    }

    /** Drops the cached state of one range field (its files changed). */
    void forget(String field) {
        rangeCache.remove(field);
        seeks.remove(field);
        unindexed.remove(field);
    }

    /** Drops every cached range state (the tree was replaced). */
    void forgetAll() {
        rangeCache.clear();
        seeks.clear();
        counts.clear();
        listed.clear();
        heads.clear();
        listedIds.set(0);
        unindexed.clear();
    }

    /**
     * @param d a definition
     * @param value an indexable value (JSON model)
     * @return ids whose field may be identical to the value, ascending: on a range field exactly those;
     *     on an equality field every id filed under the value's key(s), which also holds values the
     *     original reads as the same double (check the records)
     */
    List<String> idsEqual(IndexDefinition d, Object value) {
        return swap.reading(() -> idsEqualUnlocked(d, value));
    }

    private List<String> idsEqualUnlocked(IndexDefinition d, Object value) {
        Object v = dev.storh.query.Values.normalise(value);
        if (!IndexKeys.isIndexable(v)) {
            return List.of();
        }
        if (d.range()) {
            List<String> sought = slices(d.field()).ids(
                    new dev.storh.query.Condition(d.field(), dev.storh.query.Operator.EQ, java.util.Collections.singletonList(v)));
            if (sought != null) {
                return sought;
            }
            List<String> ids = new ArrayList<>();
            rangeState(d.field()).forEach((id, stored) -> {
                if (dev.storh.query.Values.identical(stored, v)) {
                    ids.add(id);
                }
            });
            ids.sort(null);
            return ids;
        }
        List<String> keys = IndexKeys.valueKeys(v);
        Path dir = IndexLayout.equalityDir(entries, d.field());
        if (keys.size() == 1) {
            return idsOfFile("e\0" + d.field() + "\0" + keys.get(0), IndexLayout.valueFile(dir, keys.get(0)));
        }
        java.util.TreeSet<String> ids = new java.util.TreeSet<>();
        keys.forEach(key -> ids.addAll(EqualityFiles.ids(files, IndexLayout.valueFile(dir, key))));
        return new ArrayList<>(ids);
    }

    /** The most ids kept from value files; a file holding more than a quarter of it is read each time. */
    private static final int MAX_LISTED_IDS = 1 << 17;

    /**
     * The ids of a value file (its delta merged), kept with the file's version so that a repeated
     * look-up costs one metadata read of the file and of its delta: the parsed list is reused until
     * either changes. At most {@link #MAX_LISTED_IDS} ids are kept; past it the cache starts again.
     *
     * @param lookup what names the file in the cache (its kind, fields and key)
     * @return the ids, ascending, unmodifiable
     */
    private List<String> idsOfFile(String lookup, Path file) {
        IndexTrust.Look look = trust.look();
        Versioned<List<String>> cached = listed.get(lookup);
        if (cached != null && trust.holds(cached.vouch(), look)) {
            return cached.value();
        }
        String version = versionOf(file, files.nameOf(file), cached == null || cached.version() != null);
        if (version == null) {
            // No value file (a delta alone is one being removed): no id, and no read to fail. The
            // absence is kept too, so that the next look-up of this value expects no file.
            listed.put(lookup, new Versioned<>(null, List.of(), trust.vouch(look, -1)));
            return List.of();
        }
        IndexTrust.Vouch vouch = trust.vouch(look, files.modifiedMillis(version));
        if (cached != null && version.equals(cached.version())) {
            listed.put(lookup, new Versioned<>(version, cached.value(), vouch));
            return cached.value();
        }
        List<String> ids = java.util.Collections.unmodifiableList(EqualityFiles.ids(files, file)); // read after the version
        if (ids.size() <= MAX_LISTED_IDS / 4) {
            if (listedIds.addAndGet(ids.size()) > MAX_LISTED_IDS) {
                listed.clear();
                listedIds.set(ids.size());
            }
            listed.put(lookup, new Versioned<>(version, ids, vouch));
        }
        return ids;
    }

    /**
     * @param likelyThere whether the file was there at the last look-up (or was never looked up):
     *     then one {@code stat} when it still is ({@link StoreFiles#likelyFileVersion}), else the look
     *     that costs no exception when it is still absent ({@link StoreFiles#version})
     * @return the version of a value file alone, or {@code null} when the file is absent or unreadable
     */
    private String mainVersion(String name, boolean likelyThere) {
        return ValueCounts.mainVersion(files, name, likelyThere);
    }

    /** @return the version of a value file with its delta's, or {@code null} when the file is absent or unreadable */
    private String versionOf(Path file, String name, boolean likelyThere) {
        String version = mainVersion(name, likelyThere);
        return version == null ? null : EqualityFiles.withDelta(files, file, version); // a delta changes it too
    }

    /**
     * The records a range condition may match that the range lines cannot hold.
     *
     * @param field a range-indexed field
     * @return ids of records whose field holds a list or an object, ascending. When the list is
     *     missing (range files rebuilt by the original), it is built once from the records under the
     *     write lock and kept; on a store that cannot be written it is computed for this call only.
     */
    java.util.Set<String> unindexedIds(String field) {
        RangeFiles rf = rangeFiles(field);
        java.util.Set<String> known = swap.reading(() -> cachedUnindexed(field, rf));
        if (known != null) {
            return known;
        }
        try {
            return locker.withWriteLock(() -> {
                java.util.Set<String> again = rf.readUnindexed();
                if (again != null) {
                    return again;
                }
                java.util.Set<String> built = scanUnindexed(field);
                rf.writeUnindexed(built);
                return built;
            });
        } catch (StorageException readOnly) {
            return scanUnindexed(field);
        }
    }

    /** The list of {@code rf}, read again only when its version changed; {@code null} when missing. */
    private java.util.Set<String> cachedUnindexed(String field, RangeFiles rf) {
        IndexTrust.Look look = trust.look();
        Versioned<java.util.Set<String>> cached = unindexed.get(field);
        if (cached != null && trust.holds(cached.vouch(), look)) {
            return cached.value();
        }
        String version = IndexBytes.version(files, rf.unindexed());
        if (version == null) {
            return null;
        }
        IndexTrust.Vouch vouch = trust.vouch(look, files.modifiedMillis(version));
        if (cached != null && cached.version().equals(version)) {
            unindexed.put(field, new Versioned<>(version, cached.value(), vouch));
            return cached.value();
        }
        java.util.Set<String> ids = rf.readUnindexed(); // read after the version: a newer file is read again next time
        if (ids != null) {
            unindexed.put(field, new Versioned<>(version, java.util.Collections.unmodifiableSet(ids), vouch));
        }
        return ids;
    }

    /** @return the names of a field's range files, computed once */
    private RangeFiles rangeFiles(String field) {
        return rangeFiles.computeIfAbsent(field, f -> new RangeFiles(files, entries, f));
    }

    private java.util.Set<String> scanUnindexed(String field) {
        java.util.Set<String> ids = new java.util.TreeSet<>();
        try (Stream<StorageRecord> all = records.records((id, unreadable) -> { })) { // verify reports those
            all.forEach(r -> {
                if (r.data().containsKey(field) && !IndexKeys.isIndexable(r.data().get(field))) {
                    ids.add(r.id());
                }
            });
        }
        return ids;
    }

    /**
     * @param d an equality definition
     * @param value an indexable value
     * @return the {@code count} of its value file (0 when absent)
     */
    long countEqual(IndexDefinition d, Object value) {
        return swap.reading(() -> {
            long total = 0;
            for (String key : IndexKeys.valueKeys(dev.storh.query.Values.normalise(value))) {
                total += countFile(d, key);
            }
            return total;
        });
    }

    private long countFile(IndexDefinition d, String key) {
        return counts.count("e\0" + d.field() + "\0" + key,
                () -> IndexLayout.valueFile(IndexLayout.equalityDir(entries, d.field()), key), key, true);
    }


    /**
     * @param left definition whose name sorts first
     * @param leftValue its value
     * @param right the other definition
     * @param rightValue its value
     * @return the {@code count} of the compound bucket (0 when absent)
     */
    long countCompound(IndexDefinition left, Object leftValue, IndexDefinition right, Object rightValue) {
        String key = IndexKeys.compoundKey(dev.storh.query.Values.normalise(leftValue), dev.storh.query.Values.normalise(rightValue));
        return swap.reading(() -> counts.count("c\0" + left.field() + "\0" + right.field() + "\0" + key,
                () -> IndexLayout.valueFile(IndexLayout.compoundDir(entries, left.field(), right.field()), key), key, false));
    }

    /**
     * @param d an equality definition
     * @param value an indexable value
     * @param limit how many ids to read, at least 1
     * @return the first {@code limit} ids of the value file, ascending, read without parsing the rest
     */
    List<String> idsEqualLimited(IndexDefinition d, Object value, int limit) {
        return swap.reading(() -> idsEqualLimitedUnlocked(d, value, limit));
    }

    private List<String> idsEqualLimitedUnlocked(IndexDefinition d, Object value, int limit) {
        Object v = dev.storh.query.Values.normalise(value);
        if (d.range() || !IndexKeys.isIndexable(v) || IndexKeys.valueKeys(v).size() > 1) {
            List<String> all = idsEqualUnlocked(d, v);
            return all.size() > limit ? all.subList(0, limit) : all;
        }
        String key = IndexKeys.valueKey(v);
        String lookup = "e\0" + d.field() + "\0" + key;
        IndexTrust.Look before = trust.taken();
        List<String> kept = heads.first(lookup, limit, before);
        if (kept != null) {
            return kept;
        }
        Path file = IndexLayout.valueFile(IndexLayout.equalityDir(entries, d.field()), key);
        EqualityFiles.Head head = EqualityFiles.head(files, file, key, limit);
        IndexTrust.Vouch vouch = counts.learned(lookup, file, ValueCounts.UNSEEN, head.count(), before);
        heads.keep(lookup, head.ids(), head.ids().size() < limit ? head.ids().size() : head.count(), vouch);
        return head.ids();
    }


    /**
     * @param left definition whose name sorts first
     * @param leftValue its value
     * @param right the other definition
     * @param rightValue its value
     * @return ids of the compound bucket, ascending
     */
    List<String> idsCompound(IndexDefinition left, Object leftValue, IndexDefinition right, Object rightValue) {
        String key = IndexKeys.compoundKey(dev.storh.query.Values.normalise(leftValue), dev.storh.query.Values.normalise(rightValue));
        Path file = IndexLayout.valueFile(IndexLayout.compoundDir(entries, left.field(), right.field()), key);
        String lookup = "c\0" + left.field() + "\0" + right.field() + "\0" + key; // as countCompound's
        return swap.reading(() -> {
            IndexTrust.Look before = trust.taken();
            if (!present(file)) {
                counts.learned(lookup, file, null, 0, before); // absent before the look's end: no record holds the pair
                return List.of();
            }
            List<String> ids = EqualityFiles.ids(files, file);
            counts.learned(lookup, file, ValueCounts.UNSEEN, ids.size(), before);
            return ids;
        });
    }

    /**
     * @return whether a value file exists now, by its version (which the local seam takes without
     *     an exception when the file is absent, as a pair of values no record holds has no bucket;
     *     a read of a missing file costs one); true when that cannot be told (the read reports it)
     */
    private boolean present(Path file) {
        try {
            return files.version(files.nameOf(file)).isPresent();
        } catch (IOException e) {
            return true; // the read reports it
        }
    }

    /**
     * @param field a range-indexed field
     * @return id → value as the range files say (main then delta), cached until the files change
     */
    Map<String, Object> rangeState(String field) {
        return cachedRange(field).state;
    }

    /**
     * @param field a range-indexed field
     * @return its entries sorted by value in query order, cached until the files change
     */
    RangeView rangeView(String field) {
        CachedRange cached = cachedRange(field);
        RangeView view = cached.view;
        if (view == null) {
            view = new RangeView(cached.state);
            cached.view = view;
        }
        return view;
    }

    /**
     * @param field a range-indexed field
     * @return reads of its range files stride by stride
     */
    RangeSlices slices(String field) {
        return new RangeSlices(this, field);
    }

    /**
     * Runs a read on the seek of a field's range files, under the shared side of the swap.
     *
     * @return what the read answered; {@code null} when the files are not provably in value order, a
     *     stride did not match its checkpoints, or their whole state is in memory already (a view)
     */
    <T> T withSeek(String field, java.util.function.Function<RangeSeek, T> read) {
        return swap.reading(() -> {
            RangeSeek seek = seekUnlocked(field);
            if (seek == null) {
                return null;
            }
            try {
                return read.apply(seek);
            } catch (RangeSeek.Unprovable e) {
                seek.markBroken();
                return null;
            }
        });
    }

    private RangeSeek seekUnlocked(String field) {
        IndexTrust.Look look = trust.look();
        CachedRange cached = rangeCache.get(field);
        if (cached != null && cached.view != null && trust.holds(cached.vouch, look)) {
            return null; // answered from memory
        }
        Seeking seen = seeks.get(field);
        if (seen != null && trust.holds(seen.vouch(), look)) {
            return seen.seek() == null || seen.seek().broken() ? null : seen.seek();
        }
        RangeFiles rf = rangeFiles(field);
        IndexManifest.Stamp mainStamp = IndexManifest.stamp(files, rf.main());
        IndexManifest.Stamp deltaStamp = stampBeside(rf.delta());
        if (cached != null && cached.view != null && IndexManifest.sameStamp(cached.main, mainStamp)
                && IndexManifest.sameStamp(cached.delta, deltaStamp)) {
            return null; // answered from memory
        }
        IndexManifest.Stamp pointsStamp = stampBeside(rf.checkpoints());
        IndexTrust.Vouch vouch = trust.vouch(look, latest(mainStamp, deltaStamp, pointsStamp));
        if (seen == null || !IndexManifest.sameStamp(seen.main(), mainStamp) || !IndexManifest.sameStamp(seen.delta(), deltaStamp)
                || !IndexManifest.sameStamp(seen.checkpoints(), pointsStamp)) {
            seen = new Seeking(mainStamp, deltaStamp, pointsStamp, RangeSeek.open(files, rf), vouch); // read after the stamps
        } else {
            seen = new Seeking(mainStamp, deltaStamp, pointsStamp, seen.seek(), vouch);
        }
        seeks.put(field, seen);
        return seen.seek() == null || seen.seek().broken() ? null : seen.seek();
    }

    /**
     * The stamp of a range file beside the main file, taken just after the main file's: the same
     * answer as {@link IndexManifest#stamp}, in one plain {@code stat} when the file is absent (as a
     * delta most often is) instead of a second look at the folder ({@link StoreFiles#versionInSeenFolder};
     * when the folder is absent too, so is the file).
     */
    private IndexManifest.Stamp stampBeside(Path file) {
        try {
            return files.versionInSeenFolder(files.nameOf(file)).map(IndexManifest.Stamp::new).orElse(IndexManifest.Stamp.ABSENT);
        } catch (IOException e) {
            return IndexManifest.Stamp.ABSENT; // as IndexManifest.stamp: unreadable counts as absent
        }
    }

    /** @return the latest modification time the stamps' versions carry, or -1 */
    private long latest(IndexManifest.Stamp... stamps) {
        long latest = -1;
        for (IndexManifest.Stamp stamp : stamps) {
            if (stamp.version() != null) {
                latest = Math.max(latest, files.modifiedMillis(stamp.version()));
            }
        }
        return latest;
    }

    private CachedRange cachedRange(String field) {
        return swap.reading(() -> cachedRangeUnlocked(field));
    }

    private CachedRange cachedRangeUnlocked(String field) {
        IndexTrust.Look look = trust.look();
        CachedRange cached = rangeCache.get(field);
        if (cached != null && trust.holds(cached.vouch, look)) {
            return cached;
        }
        RangeFiles rf = rangeFiles(field);
        IndexManifest.Stamp mainStamp = IndexManifest.stamp(files, rf.main());
        IndexManifest.Stamp deltaStamp = stampBeside(rf.delta());
        IndexTrust.Vouch vouch = trust.vouch(look, latest(mainStamp, deltaStamp));
        if (cached != null && IndexManifest.sameStamp(cached.main, mainStamp)
                && IndexManifest.sameStamp(cached.delta, deltaStamp)) {
            cached.vouch = vouch;
            return cached;
        }
        Map<String, Object> state = java.util.Collections.unmodifiableMap(rf.load(null));
        CachedRange fresh = new CachedRange(mainStamp, deltaStamp, state);
        fresh.vouch = vouch;
        rangeCache.put(field, fresh);
        return fresh;
    }
}
