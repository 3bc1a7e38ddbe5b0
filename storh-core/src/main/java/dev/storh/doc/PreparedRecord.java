package dev.storh.doc;

import dev.storh.StorageRecord;
import java.util.Map;

/**
 * A record ready to be written: its lowercase id, its canonical file bytes (encoded before any
 * lock is taken, so bad data fails before anything is touched) and its data.
 *
 * @param id the lowercase id
 * @param bytes the canonical record file bytes
 * @param data a copy of the data
 * @param explicitId whether the caller chose the id (so a record may already exist)
 */
record PreparedRecord(String id, byte[] bytes, Map<String, Object> data, boolean explicitId) {

    StorageRecord record() {
        return new StorageRecord(id, data);
    }
}
