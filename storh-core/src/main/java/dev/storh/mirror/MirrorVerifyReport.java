package dev.storh.mirror;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The result of {@link SqlMirror#verify()}: drift between stores and their tables.
 *
 * @param ok whether {@code errors} is empty
 * @param errors per collection in registration order, up to three sentences in the order missing,
 *     stale, orphaned: {@code "<collection>: <n> record(s) missing from the mirror."},
 *     {@code "<collection>: <n> stale mirror row(s)."}, {@code "<collection>: <n> orphaned mirror row(s)."}
 * @param stats per collection name, in registration order
 */
public record MirrorVerifyReport(boolean ok, List<String> errors, Map<String, CollectionStats> stats) {

    /**
     * @param records records streamed from the store
     * @param rows rows the table held (records − missing + orphaned)
     * @param missing records without a row
     * @param stale rows whose hash differs from their record's
     * @param orphaned rows without a record
     */
    public record CollectionStats(long records, long rows, long missing, long stale, long orphaned) {

        /**
         * @return {@code {"records","rows","missing","stale","orphaned"}} in that order
         */
        public Map<String, Object> toMap() {
            Map<String, Object> map = new LinkedHashMap<>();
            map.put("records", records);
            map.put("rows", rows);
            map.put("missing", missing);
            map.put("stale", stale);
            map.put("orphaned", orphaned);
            return map;
        }
    }

    /**
     * @param stats per collection name, in registration order
     * @return the report whose errors are the drift sentences of those stats
     */
    static MirrorVerifyReport of(Map<String, CollectionStats> stats) {
        List<String> errors = new ArrayList<>();
        stats.forEach((n, s) -> {
            if (s.missing() > 0) {
                errors.add(n + ": " + s.missing() + " record(s) missing from the mirror.");
            }
            if (s.stale() > 0) {
                errors.add(n + ": " + s.stale() + " stale mirror row(s).");
            }
            if (s.orphaned() > 0) {
                errors.add(n + ": " + s.orphaned() + " orphaned mirror row(s).");
            }
        });
        return new MirrorVerifyReport(errors.isEmpty(), List.copyOf(errors),
                Collections.unmodifiableMap(new LinkedHashMap<>(stats)));
    }

    /**
     * @return {@code {"ok":…,"errors":[…],"stats":{"<collection>":{…}}}}
     */
    public Map<String, Object> toMap() {
        Map<String, Object> map = new LinkedHashMap<>();
        map.put("ok", ok);
        map.put("errors", errors);
        Map<String, Object> s = new LinkedHashMap<>();
        stats.forEach((name, st) -> s.put(name, st.toMap()));
        map.put("stats", s);
        return map;
    }
}
