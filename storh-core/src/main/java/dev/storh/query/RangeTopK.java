package dev.storh.query;

import dev.storh.doc.index.RangeSlices;
import java.util.List;
import java.util.function.BooleanSupplier;

/**
 * The first records of {@code orderBy(f, DESC).limit(k)} with no condition, read from the strides
 * of {@code f}'s range index: only when that index holds every record of the collection (a record
 * without a number or string in {@code f} orders before every number and string when descending,
 * and the index does not hold it). Stateless and thread-safe.
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
}
