package dev.storh.doc.index;

import dev.storh.fs.StoreFiles;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The counts of equality and compound value files that an instance has read, each kept with the
 * file's version (its delta's included) and what {@link IndexTrust} vouched for when it was read: a
 * repeated count costs no look while the trust holds, one metadata read of the file and its delta
 * when it does not. Counts that reads of the files learned on the way (the count member at the start
 * of a value file, the ids of a whole bucket) are kept too. Past {@value #MAX_COUNTS} counts the
 * whole set starts again (a count costs one small read). Thread-safe.
 */
final class ValueCounts {

    /** The most value-file counts kept. */
    static final int MAX_COUNTS = 4096;

    /** The version of a count learned from a read that took no look at its file: it matches no version. */
    static final String UNSEEN = "\0unseen";

    /**
     * The count of a value file as of a version ({@code null}: the file was absent), with the file's
     * storage name, so that a repeated count costs one metadata read and no path arithmetic.
     */
    private record Counted(Path file, String name, String version, long count, IndexTrust.Vouch vouch) {
    }

    private final Map<String, Counted> counts = new ConcurrentHashMap<>();
    private final StoreFiles files;
    private final IndexTrust trust;

    ValueCounts(StoreFiles files, IndexTrust trust) {
        this.files = files;
        this.trust = trust;
    }

    /**
     * @param files the collection's byte seam
     * @param name a value file's name on it
     * @param likelyThere whether the file was there at the last look-up (or was never looked up):
     *     then one {@code stat} when it still is ({@link StoreFiles#likelyFileVersion}), else the look
     *     that costs no exception when it is still absent ({@link StoreFiles#version})
     * @return the version of a value file alone, or {@code null} when the file is absent or unreadable
     */
    static String mainVersion(StoreFiles files, String name, boolean likelyThere) {
        try {
            return (likelyThere ? files.likelyFileVersion(name) : files.version(name)).orElse(null);
        } catch (IOException e) {
            return null;
        }
    }

    /**
     * The count of a value file: its {@code count} member (or its ids when it has none), kept with
     * the file's version so that a repeated count costs one metadata read.
     *
     * @param lookup what names the file in the cache (its kind, fields and key)
     * @param locate the file, computed only when no count of it is kept
     * @param key the value key the file must carry
     * @param expectFile whether a first look-up expects the file to be there (a value sought is
     *     most often held; a pair of values, as often not)
     * @return the count (0 when the file is absent)
     */
    long count(String lookup, java.util.function.Supplier<Path> locate, String key, boolean expectFile) {
        IndexTrust.Look look = trust.look();
        Counted cached = counts.get(lookup);
        if (cached != null && trust.holds(cached.vouch(), look)) {
            return cached.count();
        }
        Path file = cached != null ? cached.file() : locate.get();
        String name = cached != null ? cached.name() : files.nameOf(file);
        String main = mainVersion(files, name, cached == null ? expectFile : cached.version() != null);
        String delta = main == null ? null : EqualityFiles.deltaVersion(files, file);
        String version = main == null || delta == null ? main : main + "+" + delta; // as EqualityFiles.withDelta
        IndexTrust.Vouch vouch = trust.vouch(look, version == null ? -1 : files.modifiedMillis(version));
        if (cached != null && java.util.Objects.equals(cached.version(), version)) {
            counts.put(lookup, new Counted(file, name, version, cached.count(), vouch));
            return cached.count();
        }
        long count = 0;
        if (version != null) {
            // Without a delta when the versions were taken, the value file alone holds the count as of
            // then (a write since either appends a delta, which changes the version for the next call,
            // or replaces the value file by one holding a later count).
            EqualityFiles.Head head = delta == null ? EqualityFiles.headOfValueFile(files, file, name, key)
                    : EqualityFiles.head(files, file, key, 0);
            count = head.count();
            if (count < 0) {
                EqualityFiles.Entry e = EqualityFiles.read(files, file);
                count = e == null ? 0 : e.ids().size();
            }
        }
        if (counts.size() >= MAX_COUNTS) {
            counts.clear();
        }
        counts.put(lookup, new Counted(file, name, version, count, vouch)); // read after the version: a newer file is read again
        return count;
    }

    /**
     * Keeps a count that a read has just learned (the count member at the start of a value file, the
     * ids of a whole bucket), so that a count of the same value after it (a page, then its total)
     * takes no look at the file. Kept only when the query had taken its look at the writers folder
     * before the read ({@link IndexTrust}): the count is then the file's as of a moment after that
     * look, and it is used without a look only while nothing but this instance can have written
     * since. Once that no longer holds, the count is checked by its version like any other:
     * {@link #UNSEEN} matches none, so the file is read again.
     *
     * @param lookup what names the file in the cache (its kind, fields and key)
     * @param file the value file
     * @param version the file's version before the read, {@code null} when it was absent, or
     *     {@link #UNSEEN}
     * @param count the count the read found, or -1 when it found none (nothing is kept)
     * @param before the query's look, taken before the read, or {@code null} (nothing is kept)
     * @return what the trust vouches for at {@code before} ({@code NONE} when nothing can be kept)
     */
    IndexTrust.Vouch learned(String lookup, Path file, String version, long count, IndexTrust.Look before) {
        if (before == null) {
            return IndexTrust.Vouch.NONE;
        }
        Counted cached = counts.get(lookup);
        if (cached != null && trust.holds(cached.vouch(), before)) {
            return cached.vouch();
        }
        IndexTrust.Vouch vouch = trust.vouch(before, -1);
        if (vouch.mark() < 0 || count < 0) {
            return vouch;
        }
        if (counts.size() >= MAX_COUNTS) {
            counts.clear();
        }
        counts.put(lookup, new Counted(file, files.nameOf(file), version, count, vouch));
        return vouch;
    }

    /** Drops every count (the index tree was replaced). */
    void clear() {
        counts.clear();
    }
}
