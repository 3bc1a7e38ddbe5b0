package dev.storh.mirror;

import dev.storh.StorageRecord;
import dev.storh.store.RecordStore;
import java.util.Map;
import java.util.Optional;
import java.util.function.ToLongFunction;
import java.util.stream.Stream;

/**
 * A store of the store contract as a {@link MirrorSource} (see {@link MirrorSource#of}): the record
 * operations of the store, and {@link #putAll} as the store's own batch write when it has one.
 * Thread-safe as the store is.
 *
 * @param store the store, owned by the caller
 * @param batch writes rows (id to data, in order) as one batch and returns how many were written,
 *     or {@code null} to put them one at a time
 */
record StoreSource(RecordStore<?, ?, ?> store, ToLongFunction<Map<String, Map<String, Object>>> batch) implements MirrorSource {

    @Override
    public StorageRecord put(Map<String, ?> data, String id) {
        return store.put(data, id);
    }

    @Override
    public long putAll(Map<String, Map<String, Object>> rows) {
        return batch == null ? MirrorSource.super.putAll(rows) : batch.applyAsLong(rows);
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
