package dev.storh.progress;

import dev.storh.json.JsonShape;
import dev.storh.json.RecordFields;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalDouble;

/**
 * One snapshot of a running operation's progress, as handed to a {@link ProgressListener}.
 * Immutable; later snapshots of the same operation never have smaller {@code done},
 * {@code bytes} or {@code elapsed}.
 *
 * @param operation what runs, e.g. {@code "verify"}, {@code "repair"}, {@code "reindex"},
 *     {@code "import"}, {@code "export"}, {@code "compact"}, {@code "push"}
 * @param done items finished so far (records, segments or jobs, as the operation's Javadoc says)
 * @param total the items the operation expects to finish, or {@value #UNKNOWN} when not known
 *     up front (e.g. the rows of a JSONL file being imported)
 * @param bytes bytes read or written so far
 * @param totalBytes the bytes the operation expects to read or write, or {@value #UNKNOWN}
 * @param elapsed time since the operation started
 * @param finished whether this is the operation's last snapshot (sent once, also when the
 *     operation failed)
 */
public record Progress(String operation, long done, long total, long bytes, long totalBytes, Duration elapsed,
        boolean finished) implements JsonShape {

    /** The value of {@code total} or {@code totalBytes} when the amount is not known. */
    public static final long UNKNOWN = -1;

    /**
     * @throws NullPointerException when {@code operation} or {@code elapsed} is null
     * @throws IllegalArgumentException when a count is negative (other than {@value #UNKNOWN}
     *     for the totals)
     */
    public Progress {
        Objects.requireNonNull(operation, "operation");
        Objects.requireNonNull(elapsed, "elapsed");
        if (done < 0 || bytes < 0 || total < UNKNOWN || totalBytes < UNKNOWN) {
            throw new IllegalArgumentException("Progress counts must not be negative: done=" + done + ", total="
                    + total + ", bytes=" + bytes + ", totalBytes=" + totalBytes);
        }
    }

    /**
     * @return the part done, from 0 to 1: items done of total when the total is known, else bytes
     *     of total bytes when that is known, else empty; 1 once {@code finished}
     */
    public OptionalDouble fraction() {
        if (finished) {
            return OptionalDouble.of(1.0);
        }
        if (total > 0) {
            return OptionalDouble.of(Math.min(1.0, (double) done / total));
        }
        if (total == 0) {
            return OptionalDouble.of(1.0);
        }
        if (totalBytes > 0) {
            return OptionalDouble.of(Math.min(1.0, (double) bytes / totalBytes));
        }
        return OptionalDouble.empty();
    }

    /**
     * @return the expected time left, from the rate so far and {@link #fraction()}; empty while
     *     nothing is done yet or the total is unknown
     */
    public java.util.Optional<Duration> remaining() {
        OptionalDouble f = fraction();
        if (f.isEmpty() || f.getAsDouble() <= 0) {
            return java.util.Optional.empty();
        }
        double part = f.getAsDouble();
        long nanos = (long) (elapsed.toNanos() * (1 - part) / part);
        return java.util.Optional.of(Duration.ofNanos(nanos));
    }

    /**
     * @return {@code operation}, {@code done}, {@code total}, {@code bytes}, {@code totalBytes}
     *     ({@value #UNKNOWN} when unknown), {@code elapsedMs}, {@code percent} (0 to 100, or
     *     {@code null} when unknown) and {@code finished}, for JSON
     */
    @Override
    public Map<String, Object> toMap() {
        Map<String, Object> map = RecordFields.of(this); // the components in order, then elapsed in ms and the percent
        map.remove("elapsed");
        map.remove("finished");
        map.put("elapsedMs", elapsed.toMillis());
        OptionalDouble f = fraction();
        map.put("percent", f.isPresent() ? Math.floor(f.getAsDouble() * 1000) / 10 : null);
        map.put("finished", finished);
        return map;
    }
}
