package dev.storh.store;

import dev.storh.json.JsonShape;
import java.util.Map;

/**
 * The engine-specific part of a {@link RepairReport} or {@link CompactReport}: what only that
 * engine does (a collection quarantines and reindexes, a log cuts torn tails, a queue requeues).
 */
public interface ReportDetails extends JsonShape {

    /**
     * @return the part's keys of the report's JSON shape, in order
     */
    @Override
    Map<String, Object> toMap();
}
