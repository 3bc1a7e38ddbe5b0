package dev.storh.store;

import dev.storh.json.JsonShape;
import dev.storh.json.RecordFields;
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
public record VerifyReport<S extends Stats>(boolean ok, List<String> errors, S stats) implements JsonShape {

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
    @Override
    public Map<String, Object> toMap() {
        return RecordFields.of(this);
    }
}
