package dev.storh.mirror;

import dev.storh.StorageRecord;
import dev.storh.doc.DocStore;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * A document store as a {@link MirrorSource} (see {@link MirrorSource#of(DocStore)}): the record
 * operations of the store, and {@link #putAll} as one {@link DocStore#putStream} batch. Thread-safe
 * as the store is.
 *
 * @param store the store, owned by the caller
 */
record DocStoreSource(DocStore store) implements MirrorSource {

    @Override
    public StorageRecord put(Map<String, ?> data, String id) {
        return store.put(data, id);
    }

    @Override
    public long putAll(Map<String, Map<String, Object>> rows) {
        List<Map<String, Object>> items = new ArrayList<>(rows.size());
        rows.forEach((id, data) -> items.add(Map.of("id", id, "data", data)));
        return store.putStream(items);
    }

    @Override
    public Optional<StorageRecord> get(String id) {
        return store.get(id);
    }

    @Override
    public boolean delete(String id) {
        return store.delete(id);
    }

    @Override
    public Stream<StorageRecord> stream() {
        return store.stream();
    }

    @Override
    public long count() {
        return store.count();
    }

    @Override
    public String toString() {
        return "MirrorSource[" + store + "]";
    }
}
