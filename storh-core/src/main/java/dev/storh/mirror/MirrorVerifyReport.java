package dev.storh.mirror;

import dev.storh.json.JsonShape;
import dev.storh.json.RecordFields;
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
public record MirrorVerifyReport(boolean ok, List<String> errors, Map<String, CollectionStats> stats) implements JsonShape {

    /**
     * @param records records streamed from the store
     * @param rows rows the table held (records − missing + orphaned)
     * @param missing records without a row
     * @param stale rows whose hash differs from their record's
     * @param orphaned rows without a record
     */
    public record CollectionStats(long records, long rows, long missing, long stale, long orphaned) implements JsonShape {

        /**
         * @return {@code {"records","rows","missing","stale","orphaned"}} in that order
         */
        @Override
        public Map<String, Object> toMap() {
            return RecordFields.of(this);
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
    @Override
    public Map<String, Object> toMap() {
        return RecordFields.of(this);
    }
}
