package dev.storh.json;

import java.util.Map;

/**
 * A value that has a JSON object shape in the JSON model: its keys in a fixed order. Statistics
 * and reports implement it; most of them are records whose shape is their components, built by
 * {@link RecordFields#of(Record)}.
 */
public interface JsonShape {

    /**
     * @return a new, modifiable map of the value's keys in their fixed order, each value in the
     *     JSON model (integers as {@code Long}, nested shapes as their own maps)
     */
    Map<String, Object> toMap();
}
