package dev.storh.spring.boot.autoconfigure;

import java.time.Duration;

import dev.storh.log.LogPartition;

import org.springframework.util.unit.DataSize;

/**
 * Settings of one segmented log, {@code storh.logs.<name>}: the application gets a
 * {@code SegmentedLog} bean named {@code <name>} (inject it with {@code @Qualifier("<name>")}),
 * kept in {@code <collections folder>/<name>/}.
 */
public class StorhLogProperties {

    /**
     * Size at which the active segment is sealed and a new one started; at least 256B.
     */
    private DataSize maxSegmentBytes = DataSize.ofMegabytes(1);

    /**
     * Lines between two entries of a segment's sparse index; at least 1.
     */
    private int sparseIndexInterval = 64;

    /**
     * Date partitioning of the log folder: 'none', 'daily' (partitions/YYYY-MM-DD) or 'monthly'
     * (partitions/YYYY-MM), by the UTC date; a running application moves to the next partition
     * when the date changes (the bean is then a PartitionedLog).
     */
    private LogPartition partition = LogPartition.NONE;

    /**
     * Age after which records are deleted and the log compacted, in whole days (e.g. 90d); applied
     * every 'storh.maintenance.retention-interval' (default 1h) and by the endpoint's compact
     * operation. When unset, records are kept.
     */
    private Duration retention;

    /**
     * @return the segment roll size
     */
    public DataSize getMaxSegmentBytes() {
        return this.maxSegmentBytes;
    }

    /**
     * @param maxSegmentBytes the segment roll size
     */
    public void setMaxSegmentBytes(DataSize maxSegmentBytes) {
        this.maxSegmentBytes = maxSegmentBytes;
    }

    /**
     * @return lines between sparse index entries
     */
    public int getSparseIndexInterval() {
        return this.sparseIndexInterval;
    }

    /**
     * @param sparseIndexInterval lines between sparse index entries
     */
    public void setSparseIndexInterval(int sparseIndexInterval) {
        this.sparseIndexInterval = sparseIndexInterval;
    }

    /**
     * @return the date partitioning
     */
    public LogPartition getPartition() {
        return this.partition;
    }

    /**
     * @param partition the date partitioning
     */
    public void setPartition(LogPartition partition) {
        this.partition = partition;
    }

    /**
     * @return the retention, or {@code null} to keep every record
     */
    public Duration getRetention() {
        return this.retention;
    }

    /**
     * @param retention the retention in whole days, or {@code null}
     */
    public void setRetention(Duration retention) {
        this.retention = retention;
    }

}
