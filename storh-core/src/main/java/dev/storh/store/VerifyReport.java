package dev.storh.store;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The result of {@link Store#verify()} and {@link Store#health()} for every engine:
 * {@code {"ok":true,"errors":[],"stats":{...}}}.
 *
 * @param <S> the engine's statistics type
 * @param ok whether no error was found
 * @param errors the problems found, one sentence each naming the file (and line) concerned
 * @param stats the statistics of the same scan
 */
public record VerifyReport<S extends Stats>(boolean ok, List<String> errors, S stats) {

    /**
     * @throws NullPointerException when errors or stats is null
     */
    public VerifyReport {
        errors = List.copyOf(errors);
        Objects.requireNonNull(stats, "stats");
    }

    /**
     * @return the JSON shape {@code ok, errors, stats}
     */
    public Map<String, Object> toMap() {
        Map<String, Object> map = new LinkedHashMap<>();
        map.put("ok", ok);
        map.put("errors", errors);
        map.put("stats", stats.toMap());
        return map;
    }
}
