package dev.storh.store;

import dev.storh.json.JsonShape;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The result of {@link Store#repair()} for every engine. A repair that cannot finish throws, so
 * {@code ok} is true on every report returned.
 *
 * @param <D> the engine's part
 * @param ok always true when returned
 * @param removed one line per damaged stretch or file taken out of the store, naming the file, the
 *     offset or line and where the bytes were kept; empty when nothing was removed
 * @param details what the engine did besides (quarantined files and the rebuild of a collection,
 *     cut bytes of a log, requeued jobs of a queue)
 */
public record RepairReport<D extends ReportDetails>(boolean ok, List<String> removed, D details) implements JsonShape {

    /**
     * @throws NullPointerException when removed or details is null
     */
    public RepairReport {
        removed = List.copyOf(removed);
        Objects.requireNonNull(details, "details");
    }

    /**
     * @return the JSON shape: {@code ok}, then the details' keys, then {@code removed} when
     *     something was removed
     */
    @Override
    public Map<String, Object> toMap() {
        Map<String, Object> map = details.toReportMap(ok);
        if (!removed.isEmpty()) {
            map.put("removed", removed);
        }
        return map;
    }
}
