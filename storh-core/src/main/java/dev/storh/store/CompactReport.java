package dev.storh.store;

import dev.storh.json.JsonShape;
import java.util.Map;
import java.util.Objects;

/**
 * The result of {@link Store#compact()} for every engine: what the store's data took before and
 * after, and the engine's part (records kept, segments merged, events rewritten).
 *
 * @param <D> the engine's part
 * @param ok always true when returned (a compaction that fails throws and leaves the old files)
 * @param bytesBefore bytes of the data files before, {@code -1} when the engine does not measure them
 * @param bytesAfter bytes after, {@code -1} when not measured
 * @param details the engine's part of the JSON shape
 */
public record CompactReport<D extends ReportDetails>(boolean ok, long bytesBefore, long bytesAfter, D details) implements JsonShape {

    /**
     * @throws NullPointerException when details is null
     */
    public CompactReport {
        Objects.requireNonNull(details, "details");
    }

    /**
     * @return the JSON shape: {@code ok}, then the details' keys (which carry the byte counts
     *     where the engine's shape has them)
     */
    @Override
    public Map<String, Object> toMap() {
        return details.toReportMap(ok);
    }
}
