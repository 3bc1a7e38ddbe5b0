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

    /**
     * A walk reads the records it reaches when a member id costs at least this share of a record read:
     * listing the members of a common value costs more than reading the few records in its way.
     */
    static final int IDS_PER_RECORD_READ = 64;

    /**
     * The first ids of {@code f}'s range index in the query's order, for an equality condition so
     * common that reading the records the walk reaches (and re-checking each) costs less than
     * listing the condition's ids: about {@code need * records / matches} of them are read before
     * {@code need} matches are found. The caller treats the ids as a prefix of the query's order
     * (every record the index does not hold orders after them ascending; descending the index must
     * hold every record) and asks again without it when fewer than {@code need} matched.
     *
     * @param slices the range index of the order field
     * @param matches the records the condition's value file lists (its count)
     * @param ascending the order
     * @param records the number of records in the collection (asked only when the index cannot tell)
     * @param need how many matches the caller needs
     * @return the first ids of the index in that order (ties by ascending id), about twice as many
     *     as the expected reads, or {@code null} when listing the members is cheaper, descending
     *     without every record in the index, or when the strides cannot be read in order
     */
    public static List<String> prefix(RangeSlices slices, long matches, boolean ascending, java.util.function.LongSupplier records,
            int need) {
        if (matches < FEW || matches < need) {
            return null;
        }
        Long entries = slices.plainEntries();
        long total = ascending && entries != null ? entries : records.getAsLong(); // ascending, the entries tell how far to walk
        if (total <= 0 || !ascending && (entries == null || entries != total)) {
            return null;
        }
        double reads = (double) need * total / matches;
        if (reads * IDS_PER_RECORD_READ > matches || 2 * reads > LONGEST_WALK) {
            return null;
        }
        return slices.ordered(null, ascending, (int) Math.max(need, Math.ceil(2 * reads)));
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
     * @param records the number of records in the collection (asked only when the index cannot tell)
     * @param need how many ids to find
     * @return up to {@code need} member ids in the query's order, or {@code null} when the walk
     *     cannot answer (few members, or many entries per member: reading them is cheaper; descending without
     *     every record in the index; files the strides cannot read)
     */
    public static List<String> amongMembers(RangeSlices slices, List<String> members, boolean ascending,
            java.util.function.LongSupplier records, int need) {
        if (members.size() < FEW || members.size() < need) {
            return null;
        }
        Long entries = slices.plainEntries();
        if (!ascending && (entries == null || entries != records.getAsLong())) {
            return null;
        }
        long total = entries == null ? records.getAsLong() : entries;
        long walk = Math.max(need, (long) (need * 2.0 * total / members.size()));
        while (walk <= LONGEST_WALK && walk <= (long) members.size() * ENTRIES_PER_RECORD) {
            List<String> ordered = slices.ordered(null, ascending, (int) walk);
            if (ordered == null) {
                return null;
            }
            List<String> found = new java.util.ArrayList<>(need);
            for (String id : ordered) {
                if (found.size() < need && java.util.Collections.binarySearch(members, id) >= 0) { // ascending: no hashing
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
