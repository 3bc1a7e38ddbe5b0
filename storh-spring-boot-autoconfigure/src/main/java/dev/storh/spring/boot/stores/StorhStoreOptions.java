package dev.storh.spring.boot.stores;

import java.time.Duration;

import dev.storh.doc.DocStore;
import dev.storh.doc.DocStoreOptions;
import dev.storh.log.SegmentedLogOptions;
import dev.storh.queue.QueueOptions;

/**
 * How {@link StorhStores} opens and maintains each store, by name. Every method has a default
 * (the engines' defaults), so {@code new StorhStoreOptions() {}} opens everything as the engines
 * would. Implementations check their settings when asked and throw with the setting named.
 */
public interface StorhStoreOptions {

    /**
     * @param collection the collection name
     * @return the options to open the collection with
     */
    default DocStoreOptions collection(String collection) {
        return DocStoreOptions.defaults();
    }

    /**
     * Called once for each collection the registry opens, before anyone else sees it, e.g. to
     * define and synchronise indexes.
     * @param collection the collection name
     * @param store the open store
     */
    default void prepare(String collection, DocStore store) {
    }

    /**
     * @param log the log name
     * @return the options to open the log with
     */
    default SegmentedLogOptions log(String log) {
        return SegmentedLogOptions.defaults();
    }

    /**
     * @param log the log name
     * @return the age in days past which records are deleted when the log is compacted, or
     * {@code null} to keep every record
     */
    default Integer logRetentionDays(String log) {
        return null;
    }

    /**
     * @param queue the queue name
     * @return the options to open the queue with
     */
    default QueueOptions queue(String queue) {
        return QueueOptions.defaults();
    }

    /**
     * @param queue the queue name
     * @return the least claim age at which a repair puts a processing job back to pending
     */
    default Duration queueProcessingTimeout(String queue) {
        return Duration.ofHours(1);
    }

}
