package dev.storh.log;

import dev.storh.json.CanonicalJson;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * What the log knows about one segment file, rebuilt by scanning it:
 * the smallest and largest id over all its lines (tombstones and superseded versions included), the
 * number of lines, whether ids never decrease in file order, the committed end (the offset just past
 * the last line applied to the state), and the sparse offsets (every {@code interval}-th line).
 *
 * <p>Mutable; guarded by the owning log's state monitor. Streams see it through an immutable {@link View}.
 */
final class Segment {

    private static final Set<String> KNOWN_KEYS = Set.of("file", "index", "max", "min", "records", "ordered", "compacted");

    final String file;
    String index;
    boolean compacted;
    final Map<String, Object> extra;

    String min;
    String max;
    String last;
    long records;
    boolean ordered = true;
    long end;
    /**
     * The file's size as a {@code stat} last showed it (at this instance's own roll, or by a
     * {@code stats()}), or -1; read without the monitor, see {@link LogState#bytes(boolean)}.
     */
    volatile long sizeSeen = -1;
    List<SparseIndex.Entry> sparse = new ArrayList<>();
    /** Damaged stretches the scan skipped, in file order (removed by a repair). */
    List<Damage> damaged = new ArrayList<>();
    /**
     * A bad tail holding a complete line that a scan without cutting found after {@link #end}, or
     * {@code null}: the next write or open cuts it, keeping it aside; a repair removes it with the
     * segment's other damage.
     */
    Damage badTail;
    /**
     * The line count the manifest gave a sealed segment when it was read, kept while the scan finds
     * fewer lines (lines lost: cut or damaged), so that verify reports the loss and every manifest
     * written meanwhile keeps the claim until {@code repair()} accepts the loss; {@code -1} when none.
     */
    long claimedRecords = -1;
    /** Damaged whole lines the scan skipped (they count in {@link #claimedRecords} but not in {@link #records}). */
    long damagedLines;

    /**
     * Bytes inside a segment that do not decode, followed by a valid line.
     *
     * @param offset where the damage starts
     * @param length how many bytes up to the next valid line
     * @param problem the error of the first bad line, naming {@code <file>:<offset>}
     */
    record Damage(long offset, long length, String problem) {
    }

    Segment(String file, String index, boolean compacted, Map<String, Object> extra) {
        this.file = file;
        this.index = index;
        this.compacted = compacted;
        this.extra = extra;
    }

    /**
     * @param raw a manifest entry with a string {@code file}
     * @return a segment with no statistics yet (they are recomputed by the scan)
     */
    static Segment fromManifest(Map<String, Object> raw, boolean sealed) {
        Map<String, Object> extra = new LinkedHashMap<>();
        raw.forEach((k, v) -> {
            if (!KNOWN_KEYS.contains(k)) {
                extra.put(k, v);
            }
        });
        String index = sealed && raw.get("index") instanceof String s ? s : null;
        Segment segment = new Segment((String) raw.get("file"), index, Boolean.TRUE.equals(raw.get("compacted")), extra);
        if (sealed && raw.get("records") instanceof Long claimed) {
            segment.claimedRecords = claimed;
        }
        return segment;
    }

    /** @return how many lines the manifest claims that the scan did not find (0 when none are missing) */
    long lostRecords() {
        return index == null ? 0 : Math.max(0, claimedRecords - records - damagedLines);
    }

    /** Clears the statistics before a rescan from offset 0. */
    void reset() {
        min = null;
        max = null;
        last = null;
        records = 0;
        ordered = true;
        end = 0;
        sparse = new ArrayList<>();
        damaged = new ArrayList<>();
        badTail = null;
        damagedLines = 0;
    }

    /**
     * Accounts for one line applied to the state.
     *
     * @param id the line's id
     * @param offset its byte offset
     * @param next the offset just past it
     * @param interval the sparse index interval
     */
    void observe(String id, long offset, long next, int interval) {
        if (records % interval == 0) {
            sparse.add(new SparseIndex.Entry(id, offset));
        }
        if (min == null || id.compareTo(min) < 0) {
            min = id;
        }
        if (max == null || id.compareTo(max) > 0) {
            max = id;
        }
        if (last != null && id.compareTo(last) < 0) {
            ordered = false;
        }
        last = id;
        records++;
        end = next;
    }

    /**
     * The statistics at one moment, so that lines observed after it can be taken back
     * ({@link #restore}) when they never became durable.
     *
     * @param min smallest id
     * @param max largest id
     * @param last last id
     * @param records lines
     * @param ordered whether ids never decreased
     * @param end the committed end
     * @param sparse how many sparse entries there were
     */
    record Mark(String min, String max, String last, long records, boolean ordered, long end, int sparse) {
    }

    /** @return the statistics now, for {@link #restore} */
    Mark mark() {
        return new Mark(min, max, last, records, ordered, end, sparse.size());
    }

    /**
     * Takes back every line observed since {@code mark}; the segment must be active (its sparse
     * list mutable).
     *
     * @param mark from {@link #mark()}
     */
    void restore(Mark mark) {
        min = mark.min();
        max = mark.max();
        last = mark.last();
        records = mark.records();
        ordered = mark.ordered();
        end = mark.end();
        while (sparse.size() > mark.sparse()) {
            sparse.remove(sparse.size() - 1);
        }
    }

    /**
     * @return the manifest entry: {@code file, index, max, min, records, ordered[, compacted]} for a
     *     sealed segment, {@code file, max, min, records, ordered} for the active one, then unknown keys
     */
    Map<String, Object> toManifest() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("file", file);
        if (index != null) {
            m.put("index", index);
        }
        m.put("max", max);
        m.put("min", min);
        m.put("records", lostRecords() > 0 ? claimedRecords : records);
        m.put("ordered", ordered);
        if (compacted) {
            m.put("compacted", true);
        }
        extra.forEach(m::putIfAbsent);
        return m;
    }

    /** The text {@link #manifestText} last gave, and the values it was made of. */
    private String text;
    private String textIndex;
    private String textMin;
    private String textMax;
    private long textRecords = -1;
    private boolean textOrdered;
    private boolean textCompacted;

    /**
     * @return {@link #toManifest()} as compact canonical JSON, made again only when a value it shows changed
     *     since the last call (a sealed segment's entry is made once per instance, not at every manifest
     *     write); call under the log's state monitor
     */
    String manifestText() {
        long shownRecords = lostRecords() > 0 ? claimedRecords : records;
        if (text == null || !extra.isEmpty() || shownRecords != textRecords || ordered != textOrdered
                || compacted != textCompacted || !Objects.equals(index, textIndex) || !Objects.equals(min, textMin)
                || !Objects.equals(max, textMax)) {
            text = CanonicalJson.compactText(toManifest());
            textIndex = index;
            textMin = min;
            textMax = max;
            textRecords = shownRecords;
            textOrdered = ordered;
            textCompacted = compacted;
        }
        return text;
    }

    /**
     * @return an immutable view for a stream; the sparse list is copied for the active segment only
     */
    View view() {
        return new View(file, min, max, ordered, index == null ? List.copyOf(sparse) : sparse);
    }

    /** Seals the segment under {@code index}; its sparse offsets become immutable. */
    void seal(String indexName) {
        index = indexName;
        sparse = List.copyOf(sparse);
    }

    /**
     * A segment as a stream saw it when it started.
     *
     * @param file the file name in {@code segments/}
     * @param min smallest id, or {@code null} when unknown or empty
     * @param max largest id, or {@code null}
     * @param ordered whether ids never decrease in file order
     * @param sparse sparse offsets in file order
     */
    record View(String file, String min, String max, boolean ordered, List<SparseIndex.Entry> sparse) {
    }
}
