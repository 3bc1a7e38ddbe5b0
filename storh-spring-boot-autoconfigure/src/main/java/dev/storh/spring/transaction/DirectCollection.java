package dev.storh.spring.transaction;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import java.util.stream.Stream;

import dev.storh.StorageRecord;
import dev.storh.doc.DocStore;
import dev.storh.doc.index.IndexManager;
import dev.storh.query.QueryBuilder;

/**
 * {@link CollectionAccess} outside a transaction: every call goes to the {@link DocStore}.
 *
 * @param store the collection
 */
record DirectCollection(DocStore store) implements CollectionAccess {

    @Override
    public Path collectionRoot() {
        return this.store.collectionRoot();
    }

    @Override
    public Optional<StorageRecord> get(String id) {
        return this.store.get(id);
    }

    @Override
    public boolean exists(String id) {
        return this.store.exists(id);
    }

    @Override
    public StorageRecord put(Map<String, ?> data) {
        return this.store.put(data);
    }

    @Override
    public StorageRecord put(Map<String, ?> data, String id) {
        return this.store.put(data, id);
    }

    @Override
    public List<StorageRecord> putMany(List<? extends Map<String, ?>> items) {
        return this.store.putMany(items);
    }

    @Override
    public boolean putManyChecksUnique() {
        return true; // DocStore.putMany checks every item before the first file is written
    }

    @Override
    public boolean delete(String id) {
        return this.store.delete(id);
    }

    @Override
    public long count() {
        return this.store.count();
    }

    @Override
    public Stream<String> ids() {
        return this.store.ids();
    }

    @Override
    public QueryBuilder query() {
        return this.store.query();
    }

    @Override
    public IndexManager indexes() {
        return this.store.indexes();
    }

    @Override
    public <T> T withWriteLock(Supplier<T> action) {
        return this.store.withWriteLock(action);
    }

}
