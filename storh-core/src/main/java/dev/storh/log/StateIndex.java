package dev.storh.log;

import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * The state index: for every id, where its latest line is and
 * whether that line is a tombstone. It is built in memory by scanning the segments in manifest order
 * (last line wins) and updated after each durable append; it is not persisted (the original has no
 * persisted state index either).
 *
 * <p><b>Snapshots.</b> A stream must not change while the same instance keeps writing.
 * Instead of copying the whole map for each stream, every update gets a sequence number, and while any
 * stream is open an update keeps the entry it replaces as {@code previous}. A stream opened at sequence
 * {@code s} walks back to the newest entry with {@code seq <= s}. Entries rebuilt from disk have
 * sequence 0. <b>Aliases</b> are a record's old locations after a compaction in this process,
 * so streams already reading the old files still accept them.
 *
 * <p><b>Equality counts.</b> The index also owns the {@link EqualityCounts} of its live records: while
 * they are usable, every applied line moves them (its record's values in, the replaced record's values
 * out, read back through a {@link LineKeys}). A rebuilt index starts without them (unless it holds no
 * live record): the first count that needs them builds them from one scan ({@code LogCounts}).
 *
 * <p>Reads are lock-free ({@link ConcurrentHashMap}); updates are made by one thread at a time under
 * the owning log's state monitor, which also guards the equality counts.
 */
final class StateIndex {

    /**
     * A line's location.
     *
     * @param file segment file name
     * @param offset byte offset of the line
     */
    record Location(String file, long offset) {
    }

    /**
     * One id's state.
     *
     * @param file segment file name of the latest line
     * @param offset byte offset of that line
     * @param deleted whether that line is a tombstone
     * @param seq the update's sequence number (0 when rebuilt from disk)
     * @param previous the entry this one replaced while a stream was open, or {@code null}
     * @param aliases the record's old locations after a compaction in this process
     */
    record Entry(String file, long offset, boolean deleted, long seq, Entry previous, Location[] aliases) {

        boolean isAt(String f, long o) {
            if (offset == o && file.equals(f)) {
                return true;
            }
            for (Location a : aliases) {
                if (a.offset() == o && a.file().equals(f)) {
                    return true;
                }
            }
            return false;
        }
    }

    /** Reads the counted values of a record back from one of its lines (for the record a line replaces). */
    @FunctionalInterface
    interface LineKeys {
        /**
         * @param file segment file name
         * @param offset line offset
         * @return the record's counted values, as {@link EqualityCounts#keysOf}
         * @throws dev.storh.StorageException when the line cannot be read or decoded
         */
        Object[] keysAt(String file, long offset);
    }

    private static final Location[] NO_ALIASES = new Location[0];

    private final ConcurrentHashMap<String, Entry> entries;
    private volatile long live;
    private volatile long deleted;
    private long seq;
    private int openSnapshots;
    private EqualityCounts counts = EqualityCounts.unbuilt();

    /** An empty index. */
    StateIndex() {
        this(16);
    }

    /**
     * @param expectedIds how many ids a rebuild expects to add (sizes the map once instead of
     *     growing it while scanning); any count works
     */
    StateIndex(long expectedIds) {
        this.entries = new ConcurrentHashMap<>((int) Math.min(1 << 20, Math.max(16, expectedIds)));
    }

    /**
     * @param id an id
     * @return its latest entry, or {@code null}
     */
    Entry get(String id) {
        return entries.get(id);
    }

    /**
     * @return the live map; iterate only, never modify
     */
    Map<String, Entry> entries() {
        return entries;
    }

    /**
     * @return ids whose latest line is a put
     */
    long live() {
        return live;
    }

    /**
     * @return ids whose latest line is a tombstone
     */
    long deleted() {
        return deleted;
    }

    /**
     * Records a line as the id's latest state.
     *
     * @param id the id
     * @param tombstone whether the line is a delete
     * @param file segment file name
     * @param offset line offset
     * @param rebuilding whether this comes from a rebuild scan (sequence 0, no history)
     */
    void apply(String id, boolean tombstone, String file, long offset, boolean rebuilding) {
        apply(id, tombstone, file, offset, rebuilding, null, null);
    }

    /**
     * Records a line as the id's latest state and, while the equality counts are usable, moves them.
     *
     * @param id the id
     * @param tombstone whether the line is a delete
     * @param file segment file name
     * @param offset line offset
     * @param rebuilding whether this comes from a rebuild scan (sequence 0, no history; the counts of a
     *     rebuilding index are unbuilt, so it does not move them)
     * @param keys the line's counted values ({@link EqualityCounts#keysOf}), asked for only while the counts
     *     are usable; {@code null} discards them
     * @param lines reads the replaced record's values back; {@code null} discards the counts when one is needed
     */
    void apply(String id, boolean tombstone, String file, long offset, boolean rebuilding, Supplier<Object[]> keys,
            LineKeys lines) {
        Entry old = entries.get(id);
        long s = rebuilding ? 0 : ++seq;
        Entry previous = !rebuilding && openSnapshots > 0 ? old : null;
        if (!rebuilding && counts.usable()) {
            recount(old, tombstone, keys, lines);
        }
        entries.put(id, new Entry(file, offset, tombstone, s, previous, NO_ALIASES));
        count(old, -1);
        count(tombstone, 1);
    }

    private void recount(Entry old, boolean tombstone, Supplier<Object[]> keys, LineKeys lines) {
        try {
            if (old != null && !old.deleted) {
                counts.remove(lines.keysAt(old.file, old.offset));
            }
            if (!tombstone) {
                counts.add(keys.get());
            }
        } catch (RuntimeException e) {
            counts.discard(); // an update that cannot be made exactly: the next count builds them again
        }
    }

    /** @return the equality counts of the live records; read and change them under the state monitor */
    EqualityCounts counts() {
        return counts;
    }

    /** Ends the rebuild scan; an index without live records counts from empty in any case. */
    void endRebuild() {
        if (live == 0 && !counts.usable()) {
            counts = EqualityCounts.empty();
        }
    }

    /**
     * Installs counts built by scanning a snapshot, unless a line was applied since it was taken.
     *
     * @param built the counts of every record live at {@code snapshot}
     * @param snapshot the snapshot sequence the scan read
     */
    void installCounts(EqualityCounts built, long snapshot) {
        if (seq == snapshot && counts.worthBuilding()) {
            counts = built;
        }
    }

    /**
     * Moves a live record to its compacted location, keeping the old ones as aliases.
     *
     * @param id the id
     * @param file new file
     * @param offset new offset
     */
    void relocate(String id, String file, long offset) {
        Entry old = entries.get(id);
        if (old == null) {
            return;
        }
        Location[] aliases = new Location[old.aliases.length + 1];
        aliases[0] = new Location(old.file, old.offset);
        System.arraycopy(old.aliases, 0, aliases, 1, old.aliases.length);
        entries.put(id, new Entry(file, offset, old.deleted, old.seq, old.previous, aliases));
    }

    /**
     * Drops an id whose tombstone compaction removed.
     *
     * @param id the id
     */
    void remove(String id) {
        count(entries.remove(id), -1);
    }

    private void count(Entry e, int delta) {
        if (e != null) {
            count(e.deleted, delta);
        }
    }

    private void count(boolean tombstone, int delta) {
        if (tombstone) {
            deleted += delta;
        } else {
            live += delta;
        }
    }

    /**
     * @return a snapshot sequence; call {@link #closeSnapshot()} exactly once when the stream ends
     */
    long openSnapshot() {
        openSnapshots++;
        return seq;
    }

    /** Ends one snapshot. */
    void closeSnapshot() {
        openSnapshots = Math.max(0, openSnapshots - 1);
    }

    /**
     * Takes over the open snapshots and the sequence of the index this one replaces.
     *
     * @param old the index being replaced
     */
    void adopt(StateIndex old) {
        openSnapshots = old.openSnapshots;
        seq = Math.max(seq, old.seq);
    }

    /**
     * @param id the id on a line
     * @param file the line's file
     * @param offset the line's offset
     * @param snapshot the stream's snapshot sequence
     * @return whether that line was the id's live version when the snapshot was taken
     */
    boolean visible(String id, String file, long offset, long snapshot) {
        Entry e = entries.get(id);
        while (e != null && e.seq > snapshot) {
            e = e.previous;
        }
        return e != null && !e.deleted && e.isAt(file, offset);
    }

    /**
     * @param other another index
     * @return the first id whose key set membership, tombstone flag, file or offset differ, or {@code null}
     */
    String firstDifference(StateIndex other) {
        for (Map.Entry<String, Entry> mine : entries.entrySet()) {
            Entry theirs = other.entries.get(mine.getKey());
            Entry e = mine.getValue();
            if (theirs == null || theirs.deleted != e.deleted || theirs.offset != e.offset
                    || !Objects.equals(theirs.file, e.file)) {
                return mine.getKey();
            }
        }
        for (String id : other.entries.keySet()) {
            if (!entries.containsKey(id)) {
                return id;
            }
        }
        return null;
    }
}
