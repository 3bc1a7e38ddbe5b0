package dev.storh.query;

import dev.storh.doc.index.RangeSlices;
import java.util.List;
import java.util.function.BooleanSupplier;

/**
 * The first records of {@code orderBy(f).limit(k)} read from the strides of {@code f}'s range
 * index: with no condition descending, and among the ids of one equality condition in either
 * direction. A record without a number or string in {@code f} (the index does not hold it) orders
 * after every number and string ascending and before them descending, so descending answers need
 * an index that holds every record of the collection. Stateless and thread-safe.
 */
public final class RangeTopK {

    private RangeTopK() {
    }

    /**
     * @param slices the range index of the order field
     * @param records the number of records in the collection
     * @param noOtherValues whether no record holds a list or an object in the field (asked only when needed)
     * @param need how many ids to read
     * @return up to {@code need} ids from the highest value down (ties by ascending id), or
     *     {@code null} when the index cannot answer alone
     */
    public static List<String> descending(RangeSlices slices, long records, BooleanSupplier noOtherValues, int need) {
        Long entries = slices.plainEntries();
        if (entries == null || entries != records || !noOtherValues.getAsBoolean()) {
            return null;
        }
        return slices.ordered(null, false, need);
    }

    /** Fewer matches than this are read and sorted as before: fewer reads than a walk of the index. */
    public static final int FEW = 256;
    /** A walk is tried when it reads at most this many index entries per match it would read otherwise. */
    static final int ENTRIES_PER_RECORD = 40;
    /** The longest walk of the index, in entries, before the matches are read and sorted instead. */
    static final int LONGEST_WALK = 1 << 18;

    /**
     * Walks {@code f}'s range index in order and keeps the entries whose id is among
     * {@code members}, until {@code need} of them are found.
     *
     * @param slices the range index of the order field
     * @param members the ids matching the query's condition, ascending
     * @param ascending the order
     * @param records the number of records in the collection
     * @param need how many ids to find
     * @return up to {@code need} member ids in the query's order, or {@code null} when the walk
     *     cannot answer (few members, or many entries per member: reading them is cheaper; descending without
     *     every record in the index; files the strides cannot read)
     */
    public static List<String> amongMembers(RangeSlices slices, List<String> members, boolean ascending, long records,
            int need) {
        if (members.size() < FEW || members.size() < need) {
            return null;
        }
        Long entries = slices.plainEntries();
        if (!ascending && (entries == null || entries != records)) {
            return null;
        }
        java.util.Set<String> set = new java.util.HashSet<>(members);
        long total = entries == null ? records : entries;
        long walk = Math.max(need, (long) (need * 2.0 * total / members.size()));
        while (walk <= LONGEST_WALK && walk <= (long) members.size() * ENTRIES_PER_RECORD) {
            List<String> ordered = slices.ordered(null, ascending, (int) walk);
            if (ordered == null) {
                return null;
            }
            List<String> found = new java.util.ArrayList<>(need);
            for (String id : ordered) {
                if (set.contains(id) && found.size() < need) {
                    found.add(id);
                }
            }
            if (found.size() >= need) {
                return found;
            }
            if (ordered.size() < walk) {
                return null; // the whole index walked: the rest of the members are not in it
            }
            walk *= 4;
        }
        return null;
    }
}
