package dev.storh.spring.transaction;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import java.util.stream.Stream;

import dev.storh.StorageRecord;
import dev.storh.doc.DocStore;
import dev.storh.doc.index.IndexManager;
import dev.storh.query.QueryBuilder;

import org.springframework.transaction.support.TransactionSynchronizationManager;

/**
 * The record operations the storh template runs on one collection, with the same meaning as the
 * {@link DocStore} methods of the same names. {@link #of} gives the collection itself when no
 * storh transaction is active on the calling thread, and the transaction's view of it when one is:
 * writes are then held by the transaction until it commits, and reads see the collection as the
 * transaction left it (its own writes over what is stored).
 * <p>
 * An instance is used by one thread for one operation; the stores behind it are thread-safe.
 */
public interface CollectionAccess {

    /**
     * @param store the collection
     * @param root the collections folder of the template (the root a transaction manager covers)
     * @return the collection seen by the calling thread: through its storh transaction on
     * {@code root} when one is active, else directly
     */
    static CollectionAccess of(DocStore store, Path root) {
        if (TransactionSynchronizationManager.getResourceMap().isEmpty()) {
            return new DirectCollection(store); // nothing bound: no transaction of any kind on this thread
        }
        Object bound = TransactionSynchronizationManager.getResource(StorhTransactionManager.resourceKey(root));
        if (bound instanceof StorhTransactionManager.TransactionHolder holder && holder.transaction() != null) {
            return new TransactionalCollection(store, holder.transaction());
        }
        return new DirectCollection(store);
    }

    /**
     * @return the collection's folder
     */
    Path collectionRoot();

    /**
     * @param id a UUIDv7
     * @return the record
     */
    Optional<StorageRecord> get(String id);

    /**
     * @param id a UUIDv7
     * @return whether the record exists
     */
    boolean exists(String id);

    /**
     * @param data the record data
     * @return the stored record, with a new id
     */
    StorageRecord put(Map<String, ?> data);

    /**
     * @param data the record data
     * @param id a UUIDv7
     * @return the stored record
     */
    StorageRecord put(Map<String, ?> data, String id);

    /**
     * Stores records in order, as {@link DocStore#putMany} interprets its items ({@code id} and
     * {@code data} members). Direct: one {@code putMany}, every item encoded and validated before
     * the first file is written; in a transaction: each held like {@link #put(Map, String)}.
     * @param items the items
     * @return the stored records, in input order
     */
    @SuppressWarnings("unchecked")
    default List<StorageRecord> putMany(List<? extends Map<String, ?>> items) {
        List<StorageRecord> stored = new ArrayList<>(items.size());
        for (Map<String, ?> item : items) {
            Map<String, ?> data = (Map<String, ?>) item.get("data");
            Object id = item.get("id");
            stored.add((id instanceof String text) ? put(data, text) : put(data));
        }
        return stored;
    }

    /**
     * @param id a UUIDv7
     * @return whether a record was deleted
     */
    boolean delete(String id);

    /**
     * @return the number of records
     */
    long count();

    /**
     * @return every record id in ascending order; close the stream
     */
    Stream<String> ids();

    /**
     * @return an empty query on the collection
     */
    QueryBuilder query();

    /**
     * @return the collection's indexes when reads go to the collection directly; {@code null} in a
     * transaction, whose own writes the indexes do not hold
     */
    default IndexManager indexes() {
        return null;
    }

    /**
     * @return whether {@link #putMany} itself checks every item against the unique indexes (the
     * stored records' and the other items') before it writes the first, and refuses the whole call
     * with a {@link dev.storh.UniqueConstraintException} naming the field, value and holder: true
     * when direct; false in a transaction, which checks at commit
     */
    default boolean putManyChecksUnique() {
        return false;
    }

    /**
     * Runs a read-compare-write: under the collection write lock when direct; inside a transaction
     * without a lock, since the transaction checks at commit, under the lock, that what it read is
     * unchanged.
     * @param <T> the result type
     * @param action the action
     * @return its result
     */
    <T> T withWriteLock(Supplier<T> action);

}
