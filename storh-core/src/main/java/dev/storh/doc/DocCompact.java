package dev.storh.doc;

import dev.storh.store.ReportDetails;
import java.util.Map;

/**
 * A collection's part of a {@link dev.storh.store.CompactReport}. A collection keeps one file per
 * record, so {@link DocStore#compact()} has nothing to rewrite and counts the valid records of a
 * full scan: the report's JSON shape is {@code {"ok":true,"records":3}}. Immutable.
 *
 * @param records valid record files
 */
public record DocCompact(long records) implements ReportDetails {

    /**
     * @return {@code records}
     */
    @Override
    public Map<String, Object> toMap() {
        return Map.of("records", records);
    }
}
