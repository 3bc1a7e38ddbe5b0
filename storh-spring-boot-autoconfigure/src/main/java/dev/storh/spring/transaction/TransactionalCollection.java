package dev.storh.spring.transaction;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import java.util.function.Supplier;
import java.util.stream.Stream;

import dev.storh.StorageException;
import dev.storh.StorageRecord;
import dev.storh.doc.DocStore;
import dev.storh.id.UuidV7;
import dev.storh.json.CanonicalJson;
import dev.storh.query.QueryBuilder;

import org.springframework.transaction.IllegalTransactionStateException;

/**
 * {@link CollectionAccess} inside a storh transaction: writes go to the transaction, reads see
 * them over the stored records. A record read before the transaction writes it is remembered,
 * so the commit can refuse it when another writer changed it meanwhile.
 */
final class TransactionalCollection implements CollectionAccess {

    private final DocStore store;

    private final StorhTransaction transaction;

    TransactionalCollection(DocStore store, StorhTransaction transaction) {
        this.store = store;
        this.transaction = transaction;
    }

    @Override
    public Path collectionRoot() {
        return this.store.collectionRoot();
    }

    @Override
    public Optional<StorageRecord> get(String id) {
        String lower = UuidV7.normalize(id);
        BufferedWrite own = this.transaction.written(this.store.collection(), lower);
        if (own != null) {
            return own.isDelete() ? Optional.empty() : Optional.of(own.record());
        }
        Optional<StorageRecord> stored = this.store.get(lower);
        this.transaction.observe(this.store.collection(), lower, stored);
        return stored;
    }

    @Override
    public boolean exists(String id) {
        String lower = UuidV7.normalize(id);
        BufferedWrite own = this.transaction.written(this.store.collection(), lower);
        return (own != null) ? !own.isDelete() : this.store.exists(lower);
    }

    @Override
    public StorageRecord put(Map<String, ?> data) {
        return put(data, UuidV7.generate());
    }

    @Override
    public StorageRecord put(Map<String, ?> data, String id) {
        checkWritable();
        if (data == null) {
            throw new StorageException("Record data must not be null (id " + id + ").");
        }
        String lower = UuidV7.normalize(id);
        Map<String, Object> copy = new LinkedHashMap<>(data);
        try {
            // fail now, not at commit, on data that cannot be stored
            CanonicalJson.recordBytes(lower, copy);
        }
        catch (StorageException ex) {
            throw new StorageException("Could not encode record " + lower + ": " + ex.getMessage(), ex);
        }
        BufferedWrite write = new BufferedWrite(this.store.collection(), lower, copy);
        this.transaction.enlist(this.store);
        this.transaction.write(write);
        return write.record();
    }

    @Override
    public boolean delete(String id) {
        checkWritable();
        String lower = UuidV7.normalize(id);
        if (!exists(lower)) {
            return false;
        }
        this.transaction.enlist(this.store);
        this.transaction.write(new BufferedWrite(this.store.collection(), lower, null));
        return true;
    }

    @Override
    public long count() {
        long count = this.store.count();
        for (BufferedWrite write : this.transaction.writes(this.store.collection()).values()) {
            boolean stored = this.store.exists(write.id());
            if (write.isDelete() && stored) {
                count--;
            }
            else if (!write.isDelete() && !stored) {
                count++;
            }
        }
        return count;
    }

    @Override
    public Stream<String> ids() {
        Map<String, BufferedWrite> own = this.transaction.writes(this.store.collection());
        if (own.isEmpty()) {
            return this.store.ids();
        }
        TreeSet<String> ids = new TreeSet<>();
        try (Stream<String> stored = this.store.ids()) {
            stored.forEach(ids::add);
        }
        own.values().forEach((w) -> {
            if (w.isDelete()) {
                ids.remove(w.id());
            }
            else {
                ids.add(w.id());
            }
        });
        return ids.stream();
    }

    @Override
    public QueryBuilder query() {
        Map<String, BufferedWrite> own = this.transaction.writes(this.store.collection());
        return own.isEmpty() ? this.store.query() : QueryBuilder.on(new OverlayQueryExecutor(this.store, own));
    }

    @Override
    public <T> T withWriteLock(Supplier<T> action) {
        return action.get();
    }

    private void checkWritable() {
        if (this.transaction.isReadOnly()) {
            throw new IllegalTransactionStateException("Cannot write to collection '" + this.store.collection()
                    + "' in read-only storh transaction " + this.transaction.id());
        }
    }

}
