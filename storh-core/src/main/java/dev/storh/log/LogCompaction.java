package dev.storh.log;

import dev.storh.json.RecordFields;
import dev.storh.store.ReportDetails;
import java.util.Map;
import java.util.Objects;

/**
 * The log's part of a {@link dev.storh.store.CompactReport} from {@link SegmentedLog#compact()}; with
 * it the report's JSON shape is
 * {@code {"ok":true,"bytesBefore":…,"bytesAfter":…,"segmentsBefore":…,"segmentsAfter":…,"stats":{…}}}.
 *
 * @param bytesBefore bytes of the segments the manifest referenced before (after the active segment
 *     was rolled)
 * @param bytesAfter bytes of the segments it references after
 * @param segmentsBefore segments before, the active one included
 * @param segmentsAfter segments after, the (new, empty) active one included
 * @param stats statistics after the compaction
 */
public record LogCompaction(long bytesBefore, long bytesAfter, long segmentsBefore, long segmentsAfter, LogStats stats)
        implements ReportDetails {

    /**
     * @throws NullPointerException when stats is null
     */
    public LogCompaction {
        Objects.requireNonNull(stats, "stats");
    }

    /**
     * @return {@code bytesBefore, bytesAfter, segmentsBefore, segmentsAfter, stats}
     */
    @Override
    public Map<String, Object> toMap() {
        return RecordFields.of(this);
    }
}
