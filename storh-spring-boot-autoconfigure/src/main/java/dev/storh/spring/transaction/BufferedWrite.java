package dev.storh.spring.transaction;

import java.util.Map;

import dev.storh.StorageRecord;

/**
 * One write a transaction holds until commit: the last put or delete of one record id in one
 * collection.
 *
 * @param collection the collection name
 * @param id the record id, lowercase
 * @param data the record data to store, or {@code null} for a delete
 */
record BufferedWrite(String collection, String id, Map<String, Object> data) {

    boolean isDelete() {
        return this.data == null;
    }

    StorageRecord record() {
        return new StorageRecord(this.id, this.data);
    }

}
