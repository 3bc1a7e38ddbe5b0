package dev.storh.log;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The result of {@link SegmentedLog#verify()} and {@link SegmentedLog#health()},
 * e.g. {@code {"ok":true,"errors":[],"stats":{…}}}.
 *
 * @param ok whether no check reported an error
 * @param errors messages in check order, e.g. {@code "Segmented log state index drift."} or a
 *     malformed-line message naming {@code <file>:<offset>}
 * @param stats the log's statistics
 */
public record LogVerifyReport(boolean ok, List<String> errors, LogStats stats) {

    /**
     * @param ok whether no check reported an error
     * @param errors messages, copied
     * @param stats statistics
     */
    public LogVerifyReport {
        errors = List.copyOf(errors);
    }

    /**
     * @return the spec's JSON shape: {@code ok, errors, stats}
     */
    public Map<String, Object> toMap() {
        Map<String, Object> map = new LinkedHashMap<>();
        map.put("ok", ok);
        map.put("errors", errors);
        map.put("stats", stats.toMap());
        return map;
    }
}
