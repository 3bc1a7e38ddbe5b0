package dev.storh.doc.index;

import dev.storh.query.Values;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

/**
 * The entries of a range index sorted by value in the query order ({@link Values#compare}), ties by
 * id. Because that order is total, the matches of {@code gt/gte/lt/lte/between} and of
 * {@code prefix} form one contiguous slice, found by binary search in O(log n). Immutable.
 */
public final class RangeView {

    private final String[] ids;
    private final Object[] values;

    RangeView(Map<String, Object> state) {
        List<Map.Entry<String, Object>> entries = new ArrayList<>(state.entrySet());
        Comparator<Map.Entry<String, Object>> byValue = (a, b) -> Values.compare(a.getValue(), b.getValue());
        entries.sort(byValue.thenComparing(Map.Entry::getKey));
        ids = new String[entries.size()];
        values = new Object[entries.size()];
        for (int i = 0; i < ids.length; i++) {
            ids[i] = entries.get(i).getKey();
            values[i] = entries.get(i).getValue();
        }
    }

    /**
     * @return the number of indexed records
     */
    public int size() {
        return ids.length;
    }

    /**
     * @param i position in value order
     * @return the id there
     */
    public String id(int i) {
        return ids[i];
    }

    /**
     * @param i position in value order
     * @return the value there
     */
    public Object value(int i) {
        return values[i];
    }

    /**
     * @param bound a value
     * @param strict whether equal values are excluded
     * @return the first position whose value is {@code >= bound} ({@code > bound} when strict)
     */
    public int lowerBound(Object bound, boolean strict) {
        int lo = 0;
        int hi = values.length;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            int c = Values.compare(values[mid], bound);
            if (c < 0 || (strict && c == 0)) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }

    /**
     * @param from first position, inclusive
     * @param to last position, exclusive
     * @return the ids of the slice in value order (ties by id)
     */
    public List<String> idsInOrder(int from, int to) {
        return Arrays.asList(ids).subList(Math.max(0, from), Math.max(from, to));
    }

    /**
     * @param from first position, inclusive
     * @param to last position, exclusive
     * @return the ids of the slice, ascending by id
     */
    public List<String> idsSorted(int from, int to) {
        String[] slice = Arrays.copyOfRange(ids, Math.max(0, from), Math.max(from, to));
        Arrays.sort(slice);
        return Arrays.asList(slice);
    }
}
