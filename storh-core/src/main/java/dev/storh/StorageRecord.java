package dev.storh;

import java.util.Map;
import java.util.Objects;

/**
 * One stored record: its UUIDv7 {@code id} and its {@code data}, a JSON object in the JSON model
 * ({@code Map<String, Object>} keeping key order, {@code List<Object>}, {@code String}, {@code Long}
 * or {@code BigInteger}, {@code Double}, {@code Boolean}, {@code null}).
 *
 * <p>Records are values: they are not linked to the file they came from.
 * The data map is unmodifiable at its top level.
 *
 * @param id the record id, a UUIDv7 in text form
 * @param data the record's data, never {@code null}
 */
public record StorageRecord(String id, Map<String, Object> data) {

    /**
     * @throws NullPointerException if id or data is {@code null}
     */
    public StorageRecord {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(data, "data");
        data = java.util.Collections.unmodifiableMap(data);
    }
}
