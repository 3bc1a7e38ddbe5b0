package dev.storh.store;

import dev.storh.json.JsonShape;
import java.util.Map;

/**
 * What a store's {@link Store#stats()} reports. Every engine counts its records and the bytes they
 * take; the engine's own record type adds its specific counts (indexes, segments, job states) as
 * fields.
 */
public interface Stats extends JsonShape {

    /**
     * @return the records the store holds now: valid records of a collection, live records of a
     *     log, jobs of a queue in any state
     */
    long records();

    /**
     * @return the bytes of the store's data files (records, segments, the event log)
     */
    long bytes();

    /**
     * @return the engine's JSON shape of the statistics, keys in a fixed order
     */
    @Override
    Map<String, Object> toMap();
}
