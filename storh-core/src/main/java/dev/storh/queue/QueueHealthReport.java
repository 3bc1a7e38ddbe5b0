package dev.storh.queue;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The result of {@link Queue#health()}: the same checks and
 * shape as {@link QueueVerifyReport}, {@code {"ok":true,"errors":[],"stats":{...}}}.
 *
 * @param ok whether there are no errors
 * @param errors the problems found, as in {@link QueueVerifyReport#errors()}
 * @param stats the stats after the check
 */
public record QueueHealthReport(boolean ok, List<String> errors, QueueStats stats) {

    /**
     * @throws NullPointerException when errors or stats is null
     */
    public QueueHealthReport {
        errors = List.copyOf(errors);
        java.util.Objects.requireNonNull(stats, "stats");
    }

    /**
     * @return the spec's JSON shape: ok, errors, stats
     */
    public Map<String, Object> toMap() {
        Map<String, Object> map = new LinkedHashMap<>();
        map.put("ok", ok);
        map.put("errors", errors);
        map.put("stats", stats.toMap());
        return map;
    }
}
