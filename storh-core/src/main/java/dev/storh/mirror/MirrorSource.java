package dev.storh.mirror;

import dev.storh.StorageRecord;
import dev.storh.doc.DocStore;
import dev.storh.store.RecordStore;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * A store the {@link SqlMirror} can copy into a table and restore from: the four record
 * operations the mirror needs and nothing else. {@link #of(RecordStore)} adapts any store of the
 * store contract that holds records (a segmented log, a collection); any other store can implement
 * it directly.
 *
 * <p>Implementations must be safe to call from several threads, as the engines are: push and
 * rebuild open, read and close {@link #stream()} on a thread of their own, while the calling
 * thread writes the table.
 */
public interface MirrorSource {

    /**
     * Writes data under an id, replacing the record with that id (used by {@link SqlMirror#pull}).
     *
     * @param data the record data, a JSON object in the JSON model
     * @param id a UUIDv7
     * @return the stored record
     * @throws dev.storh.StorageException when the store refuses the record (schema, unique index, I/O)
     */
    StorageRecord put(Map<String, ?> data, String id);

    /**
     * Writes rows in order, each as {@link #put} would (used by {@link SqlMirror#pull}, up to a few
     * hundred rows a call). The default puts them one at a time; a document store writes them as
     * one batch under one lock hold, sharing its fsyncs.
     *
     * @param rows id (a UUIDv7) to record data, in the order to write them
     * @return how many records were written
     * @throws dev.storh.StorageException when the store refuses a row; the rows before it stay written
     */
    default long putAll(Map<String, Map<String, Object>> rows) {
        rows.forEach((id, data) -> put(data, id));
        return rows.size();
    }

    /**
     * @param id a UUIDv7, either case
     * @return the live record with that id, or empty
     * @throws dev.storh.StorageException {@code "Invalid UUIDv7 value."} for a malformed id
     */
    Optional<StorageRecord> get(String id);

    /**
     * @param id a UUIDv7
     * @return whether a live record was deleted
     */
    boolean delete(String id);

    /**
     * @return every live record exactly once, in the store's own order; the caller closes the stream
     */
    Stream<StorageRecord> stream();

    /**
     * The number of live records {@link #stream()} would give, for progress reports; a source that
     * cannot tell cheaply answers {@code -1} (unknown).
     *
     * @return the record count, or {@code -1}
     */
    default long count() {
        return -1;
    }

    /**
     * @param store a document store; every stored record is mirrored
     * @return the store as a mirror source (the store stays open and owned by the caller); its
     *     {@link #putAll} is one {@link DocStore#putStream} batch
     */
    static MirrorSource of(DocStore store) {
        Objects.requireNonNull(store, "store");
        return new StoreSource(store, (rows) -> {
            List<Map<String, Object>> items = new ArrayList<>(rows.size());
            rows.forEach((id, data) -> items.add(Map.of("id", id, "data", data)));
            return store.putStream(items);
        });
    }

    /**
     * @param store a store of records (a segmented log mirrors its live records, not the deleted ones)
     * @return the store as a mirror source (the store stays open and owned by the caller)
     */
    static MirrorSource of(RecordStore<?, ?, ?> store) {
        Objects.requireNonNull(store, "store");
        return new StoreSource(store, null);
    }
}
