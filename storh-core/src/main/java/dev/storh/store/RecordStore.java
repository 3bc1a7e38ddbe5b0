package dev.storh.store;

import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

import dev.storh.StorageRecord;

/**
 * A {@link Store} whose data are records addressed by id: a DocStore collection or a segmented log
 * (a queue holds jobs, not records). What the SQL mirror, export and import need to copy a store's
 * records out and back without knowing the engine.
 * <p>
 * Thread-safe, as every store. Errors are {@link dev.storh.StorageException}s naming the id or path.
 *
 * @param <S> the engine's statistics
 * @param <R> the engine's part of a repair report
 * @param <C> the engine's part of a compaction report
 */
public interface RecordStore<S extends Stats, R extends ReportDetails, C extends ReportDetails> extends Store<S, R, C> {

    /**
     * Writes a record, replacing the live record with that id.
     *
     * @param data the record data, a JSON object in the JSON model
     * @param id a UUIDv7 in either case, or {@code null} for a new id
     * @return the stored record, its id lowercase
     * @throws dev.storh.StorageException when the store refuses the record (invalid id or data, schema,
     *     unique index, I/O); nothing is written then
     */
    StorageRecord put(Map<String, ?> data, String id);

    /**
     * Writes a record under a new id from the store's id generator (a UUIDv7 by default), as
     * {@code put(data, null)}.
     *
     * @param data the record data, a JSON object in the JSON model
     * @return the stored record, with its id
     * @throws dev.storh.StorageException as {@link #put(Map, String)}; nothing is written then
     */
    default StorageRecord put(Map<String, ?> data) {
        return put(data, null);
    }

    /**
     * @param id a UUIDv7 in either case
     * @return the live record with that id, or empty
     * @throws dev.storh.StorageException {@code "Invalid UUIDv7 value."} for a malformed id
     */
    Optional<StorageRecord> get(String id);

    /**
     * @param id a UUIDv7 in either case
     * @return whether a live record with that id existed (and is now deleted)
     * @throws dev.storh.StorageException for a malformed id or an I/O failure
     */
    boolean delete(String id);

    /**
     * @return every live record once, in the store's own order (id order for a collection, the order
     *     of the latest writes for a log); close the stream (it may hold a file open)
     */
    Stream<StorageRecord> stream();

    /**
     * @return the number of live records {@link #stream()} would give
     */
    long count();
}
