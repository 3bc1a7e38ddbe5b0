package dev.storh.spring.boot.stores;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.YearMonth;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import java.util.stream.Stream;

import dev.storh.StorageException;
import dev.storh.fs.AtomicFiles;
import dev.storh.log.LogPartition;
import dev.storh.log.SegmentedLog;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

/**
 * A segmented log in a {@link StorhStores} registry.
 * <p>
 * A log partitioned by date ({@code daily}, {@code monthly}) that the registry opened moves to
 * the next partition when the clock's UTC date passes into it: {@link #rollIfDue()} (called on
 * every write through {@link PartitionedLog} and on the maintenance schedule) opens the new
 * partition's {@code SegmentedLog} and makes it {@link #log()}. The partition before stays open
 * until the next roll, so a write that picked it up just before the roll still completes; older
 * ones are closed. With a retention, {@link #compact()} also deletes the folders of partitions
 * that ended more than the retention ago (never an open one). Thread-safe.
 */
public final class LogStore extends StorhStore {

    private static final Log logger = LogFactory.getLog(LogStore.class);

    private final Integer retentionDays;

    private final LogPartition partition;

    private final Clock clock;

    private final Supplier<SegmentedLog> opener;

    private SegmentedLog previous;

    LogStore(String name, SegmentedLog log, Integer retentionDays, boolean owned) {
        this(name, log, retentionDays, owned, LogPartition.NONE, Clock.systemUTC(), null);
    }

    /**
     * @param partition the log's partitioning
     * @param clock the clock whose UTC date picks the partition
     * @param opener opens the log's partition for the clock's current date; {@code null} for a log
     * that does not roll (not partitioned, or opened by someone else)
     */
    LogStore(String name, SegmentedLog log, Integer retentionDays, boolean owned, LogPartition partition, Clock clock,
            Supplier<SegmentedLog> opener) {
        super(name, owned, log);
        this.retentionDays = retentionDays;
        this.partition = partition;
        this.clock = clock;
        this.opener = (partition != LogPartition.NONE) ? opener : null;
    }

    /**
     * @return the log: for a partitioned log, the partition of the last roll
     */
    public SegmentedLog log() {
        return (SegmentedLog) engine();
    }

    /**
     * @return the log's date partitioning
     */
    public LogPartition partition() {
        return this.partition;
    }

    /**
     * Moves a partitioned log to the partition of the clock's current UTC date, if it is not
     * there yet.
     * @return whether a new partition was opened
     * @throws dev.storh.StorageException when the new partition cannot be opened; the current one
     * stays in use
     */
    public boolean rollIfDue() {
        if (this.opener == null || isCurrent()) {
            return false;
        }
        synchronized (this) {
            if (isCurrent()) {
                return false;
            }
            SegmentedLog next = this.opener.get();
            SegmentedLog older = this.previous;
            this.previous = log();
            replaceEngine(next);
            logger.info("storh log '" + name() + "' rolled to partition " + next.collectionDir());
            if (older != null) {
                closeQuietly(older);
            }
            return true;
        }
    }

    /**
     * Deletes the folders of partitions that ended before the retention cutoff, except the
     * partitions this store has open.
     * @return the names of the deleted partition folders, oldest first
     */
    private List<String> deleteExpiredPartitions() {
        Instant cutoff = this.clock.instant().minus(Duration.ofDays(this.retentionDays));
        Path partitions = log().collectionDir().getParent();
        List<String> deleted = new ArrayList<>();
        SegmentedLog older;
        synchronized (this) {
            older = this.previous;
        }
        List<Path> folders;
        try (Stream<Path> listing = Files.list(partitions)) {
            folders = listing.filter(Files::isDirectory).sorted().toList();
        }
        catch (IOException ex) {
            throw new StorageException("Could not list log partitions: " + partitions, ex);
        }
        for (Path folder : folders) {
            String name = folder.getFileName().toString();
            Instant end = partitionEnd(name);
            boolean open = folder.equals(log().collectionDir())
                    || (older != null && folder.equals(older.collectionDir()));
            if (end != null && !end.isAfter(cutoff) && !open) {
                AtomicFiles.deleteTree(folder);
                deleted.add(name);
                logger.info("storh retention of log '" + name() + "' deleted partition " + folder);
            }
        }
        return deleted;
    }

    /**
     * @return the first instant after the partition named {@code name}, or {@code null} when the
     * name is not a partition of this log's kind
     */
    private Instant partitionEnd(String name) {
        try {
            if (this.partition == LogPartition.DAILY) {
                return LocalDate.parse(name).plusDays(1).atStartOfDay(ZoneOffset.UTC).toInstant();
            }
            return YearMonth.parse(name).plusMonths(1).atDay(1).atStartOfDay(ZoneOffset.UTC).toInstant();
        }
        catch (DateTimeParseException ex) {
            return null;
        }
    }

    private boolean isCurrent() {
        String due = this.partition.folderFor(this.clock.millis());
        return due.equals(log().collectionDir().getFileName().toString());
    }

    @Override
    void close() throws Exception {
        SegmentedLog older;
        synchronized (this) {
            older = this.previous;
            this.previous = null;
        }
        if (older != null) {
            closeQuietly(older);
        }
        super.close();
    }

    private static void closeQuietly(SegmentedLog log) {
        try {
            log.close();
        }
        catch (RuntimeException ex) {
            logger.warn("Could not close storh log partition " + log.collectionDir(), ex);
        }
    }

    /**
     * @return the retention in days applied by {@link #compact()}, or {@code null}
     */
    public Integer retentionDays() {
        return this.retentionDays;
    }

    @Override
    Map<String, Object> doCompact() {
        SegmentedLog log = log();
        Map<String, Object> report = new LinkedHashMap<>();
        report.put("ok", true);
        if (this.retentionDays != null) {
            report.put("retentionDays", this.retentionDays);
            report.put("expired", log.retain().olderThanDays(this.retentionDays).compact());
            if (this.opener != null) {
                report.put("expiredPartitions", deleteExpiredPartitions());
            }
        }
        else {
            log.compact();
        }
        report.put("stats", log.stats().toMap());
        return report;
    }

    @Override
    public <R> R accept(Visitor<R> visitor) {
        return visitor.log(this);
    }

}
