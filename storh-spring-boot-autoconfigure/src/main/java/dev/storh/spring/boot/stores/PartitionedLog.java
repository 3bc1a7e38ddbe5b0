package dev.storh.spring.boot.stores;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import dev.storh.StorageRecord;
import dev.storh.log.LogPartition;
import dev.storh.log.SegmentedLog;

import org.springframework.util.Assert;

/**
 * A log partitioned by date ({@code storh.logs.<name>.partition: daily} or {@code monthly}) as the
 * application uses it: every call goes to the partition of the clock's current UTC date, opening
 * it when the date has moved on, so an application that runs for days writes each day's (or
 * month's) records into that day's folder {@code <name>/partitions/YYYY-MM-DD}. Registered as the
 * bean {@code <name>} of a partitioned log (inject it with {@code @Qualifier("<name>")}).
 * <p>
 * {@link #current()} gives the {@code SegmentedLog} of the current partition for reads and for
 * anything this class does not forward; hold on to it only briefly, as it stops receiving writes
 * at the next partition boundary. A write that fetched the partition just before the boundary
 * lands in the earlier partition. Thread-safe.
 */
public final class PartitionedLog {

    private final LogStore store;

    PartitionedLog(LogStore store) {
        Assert.isTrue(store.partition() != LogPartition.NONE, () -> "log '" + store.name() + "' is not partitioned");
        this.store = store;
    }

    /**
     * @return the log's name
     */
    public String name() {
        return this.store.name();
    }

    /**
     * @return the log's date partitioning, {@code DAILY} or {@code MONTHLY}
     */
    public LogPartition partitioning() {
        return this.store.partition();
    }

    /**
     * The log of the current partition, rolling to a new partition first when the clock's UTC
     * date has moved into one.
     * @return the open log of the current partition
     * @throws dev.storh.StorageException when a new partition cannot be opened
     */
    public SegmentedLog current() {
        this.store.rollIfDue();
        return this.store.log();
    }

    /**
     * @return the folder of the current partition, e.g. {@code <root>/events/partitions/2026-12-01}
     */
    public Path folder() {
        return current().collectionDir();
    }

    /**
     * Appends a record to the current partition under a new id; durable on return.
     * @param data the record data, a JSON object in the JSON model
     * @return the stored record
     */
    public StorageRecord put(Map<String, ?> data) {
        return current().put(data);
    }

    /**
     * Appends a record to the current partition under the given id; durable on return.
     * @param data the record data
     * @param id a UUIDv7
     * @return the stored record
     */
    public StorageRecord put(Map<String, ?> data, String id) {
        return current().put(data, id);
    }

    /**
     * Appends records to the current partition with one fsync.
     * @param items the records' data
     * @return the stored records, in order
     */
    public List<StorageRecord> appendMany(Iterable<? extends Map<String, ?>> items) {
        return current().appendMany(items);
    }

    @Override
    public String toString() {
        return "PartitionedLog[" + this.store.name() + ", " + this.store.partition() + "]";
    }

}
