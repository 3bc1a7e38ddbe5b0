package dev.storh.log;

import dev.storh.StorageException;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Locale;

/**
 * How a log splits its collection folder by date. The date is taken
 * in UTC, once, when the log is opened; each partition folder is a complete, independent log.
 */
public enum LogPartition {

    /** {@code <root>/<collection>} */
    NONE(null),
    /** {@code <root>/<collection>/partitions/YYYY-MM-DD} */
    DAILY("yyyy-MM-dd"),
    /** {@code <root>/<collection>/partitions/YYYY-MM} */
    MONTHLY("yyyy-MM");

    private final DateTimeFormatter format;

    LogPartition(String pattern) {
        this.format = pattern == null ? null : DateTimeFormatter.ofPattern(pattern, Locale.ROOT).withZone(ZoneOffset.UTC);
    }

    /**
     * @param name {@code null}, {@code ""} or {@code "none"}, {@code "daily"}, {@code "monthly"} (any case),
     *     as the original's constructor and the {@code storh.logs.<name>.partition} property spell it
     * @return the partition
     * @throws StorageException {@code "Unsupported log partition: <name>"}
     */
    public static LogPartition parse(String name) {
        if (name == null || name.isEmpty() || name.equalsIgnoreCase("none")) {
            return NONE;
        }
        if (name.equalsIgnoreCase("daily")) {
            return DAILY;
        }
        if (name.equalsIgnoreCase("monthly")) {
            return MONTHLY;
        }
        throw new StorageException("Unsupported log partition: " + name);
    }

    /**
     * @param timestampMs milliseconds since the epoch
     * @return the partition folder name for that instant in UTC, e.g. {@code 2023-11-14}; {@code null} for {@link #NONE}
     */
    public String folderFor(long timestampMs) {
        return format == null ? null : format.format(Instant.ofEpochMilli(timestampMs));
    }
}
