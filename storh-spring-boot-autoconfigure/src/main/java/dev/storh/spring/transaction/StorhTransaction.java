package dev.storh.spring.transaction;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

import dev.storh.StorageRecord;
import dev.storh.doc.DocStore;
import dev.storh.json.CanonicalJson;

/**
 * The state of one storh transaction: the writes it holds until commit (the last put or delete per
 * record, per collection) and, for each record it read before writing it, what it saw then (so a
 * commit can tell whether another writer changed the record meanwhile).
 * <p>
 * Confined to the thread that runs the transaction, as Spring binds it; not thread-safe.
 */
final class StorhTransaction {

    /** What a read saw of a record that was absent. */
    private static final byte[] ABSENT = new byte[0];

    private final String id;

    private final boolean readOnly;

    /** collection → its store, in name order (the order commit takes the write locks in). */
    private final TreeMap<String, DocStore> stores = new TreeMap<>();

    /** collection → id → write, in write order. */
    private final Map<String, LinkedHashMap<String, BufferedWrite>> writes = new LinkedHashMap<>();

    /** collection → id → canonical bytes seen by the first read ({@link #ABSENT} when absent). */
    private final Map<String, Map<String, byte[]>> observed = new LinkedHashMap<>();

    private boolean rollbackOnly;

    StorhTransaction(String id, boolean readOnly) {
        this.id = id;
        this.readOnly = readOnly;
    }

    /**
     * @return the transaction id, a UUIDv7 (also the name of its commit record)
     */
    String id() {
        return this.id;
    }

    boolean isReadOnly() {
        return this.readOnly;
    }

    boolean isRollbackOnly() {
        return this.rollbackOnly;
    }

    /** Marks the transaction for rollback (a participating scope failed). */
    void setRollbackOnly() {
        this.rollbackOnly = true;
    }

    /**
     * @return whether the transaction holds any write
     */
    boolean hasWrites() {
        return this.writes.values().stream().anyMatch((w) -> !w.isEmpty());
    }

    /**
     * @param store a collection the transaction touched
     */
    void enlist(DocStore store) {
        this.stores.putIfAbsent(store.collection(), store);
    }

    /**
     * @return the touched collections' stores, in collection name order
     */
    List<DocStore> stores() {
        return new ArrayList<>(this.stores.values());
    }

    /**
     * @param collection the collection
     * @param id the lowercase id
     * @return the transaction's own write of the record, or {@code null}
     */
    BufferedWrite written(String collection, String id) {
        Map<String, BufferedWrite> inCollection = this.writes.get(collection);
        return (inCollection != null) ? inCollection.get(id) : null;
    }

    /**
     * @param collection the collection
     * @return the transaction's writes in that collection, by id (empty when none)
     */
    Map<String, BufferedWrite> writes(String collection) {
        Map<String, BufferedWrite> inCollection = this.writes.get(collection);
        return (inCollection != null) ? inCollection : Map.of();
    }

    /**
     * @return every write, collection by collection, each in write order
     */
    List<BufferedWrite> allWrites() {
        List<BufferedWrite> all = new ArrayList<>();
        this.writes.values().forEach((w) -> all.addAll(w.values()));
        return all;
    }

    void write(BufferedWrite write) {
        this.writes.computeIfAbsent(write.collection(), (c) -> new LinkedHashMap<>()).put(write.id(), write);
    }

    /**
     * Remembers what a read saw of a record the transaction has not written yet; only the first
     * read of a record counts.
     */
    void observe(String collection, String id, Optional<StorageRecord> seen) {
        this.observed.computeIfAbsent(collection, (c) -> new LinkedHashMap<>())
            .putIfAbsent(id, seen.map(StorhTransaction::bytesOf).orElse(ABSENT));
    }

    /**
     * @return the records the transaction read before writing them: collection → id → whether the
     * read found it; each paired with {@link #stillAsObserved}
     */
    List<Observation> readThenWritten() {
        List<Observation> result = new ArrayList<>();
        this.observed.forEach((collection, ids) -> ids.forEach((recordId, bytes) -> {
            if (written(collection, recordId) != null) {
                result.add(new Observation(collection, recordId, bytes != ABSENT, bytes));
            }
        }));
        return result;
    }

    /** A record read (and later written) by the transaction, as the read saw it. */
    record Observation(String collection, String id, boolean existed, byte[] bytes) {

        /**
         * @param current the record as stored now
         * @return whether it is still what the read saw
         */
        boolean stillAsObserved(Optional<StorageRecord> current) {
            if (current.isEmpty()) {
                return !this.existed;
            }
            return this.existed && Arrays.equals(this.bytes, bytesOf(current.get()));
        }

    }

    private static byte[] bytesOf(StorageRecord record) {
        return CanonicalJson.recordBytes(record.id(), record.data());
    }

}
