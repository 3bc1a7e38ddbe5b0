package dev.storh.spring.boot.autoconfigure;

import java.time.Duration;

import dev.storh.log.LogPartition;

import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.util.unit.DataSize;

/**
 * Settings of one segmented log, {@code storh.logs.<name>}: the application gets a
 * {@code SegmentedLog} bean named {@code <name>} (inject it with {@code @Qualifier("<name>")}),
 * kept in {@code <collections folder>/<name>/}. Immutable, bound through its constructor.
 *
 * @param maxSegmentBytes Size at which the active segment is sealed and a new one started; at
 *     least 256B.
 * @param sparseIndexInterval Lines between two entries of a segment's sparse index; at least 1.
 * @param partition Date partitioning of the log folder: 'none', 'daily' (partitions/YYYY-MM-DD) or
 *     'monthly' (partitions/YYYY-MM), by the UTC date; a running application moves to the next
 *     partition when the date changes (the bean is then a PartitionedLog).
 * @param retention Age after which records are deleted and the log compacted, in whole days (e.g.
 *     90d); applied every 'storh.maintenance.retention-interval' (default 1h) and by the endpoint's
 *     compact operation. When unset, records are kept.
 */
public record StorhLogProperties(@DefaultValue("1MB") DataSize maxSegmentBytes,
        @DefaultValue("64") int sparseIndexInterval, @DefaultValue("none") LogPartition partition, Duration retention) {

}
