package dev.storh.queue;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The result of {@link Queue#verify()}, e.g.
 * {@code {"ok":false,"errors":["line 2: Torn log queue line."],"stats":{"pending":1,...,"bytes":112}}}.
 *
 * @param ok whether there are no errors
 * @param errors the original's messages: {@code "line <n>: <problem>"} for the first bad line
 *     (n from 1), {@code "Could not read log queue file."}, {@code "Log queue state drift."}
 * @param stats the stats after the check
 */
public record QueueVerifyReport(boolean ok, List<String> errors, QueueStats stats) {

    /**
     * @throws NullPointerException when errors or stats is null
     */
    public QueueVerifyReport {
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
