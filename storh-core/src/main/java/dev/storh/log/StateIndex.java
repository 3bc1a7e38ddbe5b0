package dev.storh.log;

import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;

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
 * <p>Reads are lock-free ({@link ConcurrentHashMap}); updates are made by one thread at a time under
 * the owning log's state monitor.
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

    /** One id's state: immutable. */
    static final class Entry {
        final String file;
        final long offset;
        final boolean deleted;
        final long seq;
        final Entry previous;
        final Location[] aliases;

        Entry(String file, long offset, boolean deleted, long seq, Entry previous, Location[] aliases) {
            this.file = file;
            this.offset = offset;
            this.deleted = deleted;
            this.seq = seq;
            this.previous = previous;
            this.aliases = aliases;
        }

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

    private static final Location[] NO_ALIASES = new Location[0];

    private final ConcurrentHashMap<String, Entry> entries = new ConcurrentHashMap<>();
    private volatile long live;
    private volatile long deleted;
    private long seq;
    private int openSnapshots;

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
     * @return the last sequence number given out
     */
    long sequence() {
        return seq;
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
        Entry old = entries.get(id);
        long s = rebuilding ? 0 : ++seq;
        Entry previous = !rebuilding && openSnapshots > 0 ? old : null;
        entries.put(id, new Entry(file, offset, tombstone, s, previous, NO_ALIASES));
        count(old, -1);
        count(tombstone, 1);
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
