package dev.storh.progress;

import java.time.Duration;
import java.util.Objects;

/**
 * The engines' side of progress reporting: counts items and bytes as an operation advances and
 * hands {@link Progress} snapshots to a {@link ProgressListener}, at most one per
 * {@link #DEFAULT_INTERVAL} (the first and the last always). Used by the stores of this library
 * and by extensions that run long work (a mirror push, a migration).
 *
 * <pre>{@code
 * ProgressTracker progress = ProgressTracker.start("verify", files.size(), ProgressTracker.UNKNOWN_BYTES, listener);
 * try {
 *     for (Path f : files) { ...; progress.advance(1, size); }
 * } finally {
 *     progress.finish();
 * }
 * }</pre>
 *
 * <p>Thread-safe: several threads may advance one tracker; snapshots reach the listener one at a
 * time, in order.
 */
public final class ProgressTracker {

    /** The least time between two snapshots sent while the work goes on. */
    public static final Duration DEFAULT_INTERVAL = Duration.ofMillis(100);

    /** For {@code totalBytes} when the bytes are not known up front. */
    public static final long UNKNOWN_BYTES = Progress.UNKNOWN;

    private final String operation;
    private final ProgressListener listener;
    private final long startNanos;
    private final long intervalNanos;
    private long total;
    private long totalBytes;
    private long done;
    private long bytes;
    private long lastSentNanos;
    private boolean finished;

    private ProgressTracker(String operation, long total, long totalBytes, ProgressListener listener,
            Duration interval) {
        this.operation = Objects.requireNonNull(operation, "operation");
        this.listener = Objects.requireNonNull(listener, "listener");
        if (total < Progress.UNKNOWN || totalBytes < Progress.UNKNOWN) {
            throw new IllegalArgumentException("Progress totals must be -1 (unknown) or more: total=" + total
                    + ", totalBytes=" + totalBytes);
        }
        this.total = total;
        this.totalBytes = totalBytes;
        this.intervalNanos = interval.toNanos();
        this.startNanos = System.nanoTime();
    }

    /**
     * Starts tracking and sends the first snapshot ({@code done} 0).
     *
     * @param operation what runs, e.g. {@code "verify"}
     * @param total items expected, or {@link Progress#UNKNOWN}
     * @param totalBytes bytes expected, or {@link #UNKNOWN_BYTES}
     * @param listener receives the snapshots; {@code null} means {@link ProgressListener#NONE}
     * @return the tracker; call {@link #finish()} when the work ends
     * @throws IllegalArgumentException when a total is below -1
     */
    public static ProgressTracker start(String operation, long total, long totalBytes, ProgressListener listener) {
        return start(operation, total, totalBytes, listener, DEFAULT_INTERVAL);
    }

    /**
     * {@link #start(String, long, long, ProgressListener)} with a total that costs work to learn (a
     * count of the records): it is asked only when someone listens, otherwise it stays unknown.
     *
     * @param operation what runs, e.g. {@code "export"}
     * @param total gives the items expected, or {@link Progress#UNKNOWN}; called at most once, on
     *     this thread
     * @param totalBytes bytes expected, or {@link #UNKNOWN_BYTES}
     * @param listener receives the snapshots; {@code null} or {@link ProgressListener#NONE}: nobody
     * @return the tracker; call {@link #finish()} when the work ends
     */
    public static ProgressTracker start(String operation, java.util.function.LongSupplier total, long totalBytes,
            ProgressListener listener) {
        boolean heard = listener != null && listener != ProgressListener.NONE;
        return start(operation, heard ? total.getAsLong() : Progress.UNKNOWN, totalBytes, listener);
    }

    /**
     * @param operation what runs
     * @param total items expected, or {@link Progress#UNKNOWN}
     * @param totalBytes bytes expected, or {@link #UNKNOWN_BYTES}
     * @param listener receives the snapshots; {@code null} means {@link ProgressListener#NONE}
     * @param interval the least time between two snapshots while the work goes on
     * @return the tracker, having sent the first snapshot
     */
    public static ProgressTracker start(String operation, long total, long totalBytes, ProgressListener listener,
            Duration interval) {
        ProgressTracker tracker = new ProgressTracker(operation, total, totalBytes,
                listener == null ? ProgressListener.NONE : listener, interval);
        synchronized (tracker) {
            tracker.send(System.nanoTime());
        }
        return tracker;
    }

    /**
     * @return a tracker whose snapshots go nowhere, for callers that pass no listener
     */
    public static ProgressTracker none() {
        return new ProgressTracker("none", Progress.UNKNOWN, Progress.UNKNOWN, ProgressListener.NONE, DEFAULT_INTERVAL);
    }

    /**
     * Counts finished work; sends a snapshot when the interval has passed since the last one.
     *
     * @param items items finished now (0 or more)
     * @param byteCount bytes read or written now (0 or more)
     * @throws IllegalArgumentException when a count is negative
     */
    public synchronized void advance(long items, long byteCount) {
        if (items < 0 || byteCount < 0) {
            throw new IllegalArgumentException("Progress cannot go back: items=" + items + ", bytes=" + byteCount);
        }
        done += items;
        bytes += byteCount;
        if (listener == ProgressListener.NONE || finished) {
            return;
        }
        long now = System.nanoTime();
        if (now - lastSentNanos >= intervalNanos) {
            send(now);
        }
    }

    /**
     * Changes the expected items, e.g. when a second pass turns out to read fewer records than
     * the first or a listing turned out larger. A total is never shown below what is done.
     *
     * @param moreItems items to add to the total, negative to take away (ignored while the total
     *     is unknown)
     * @param moreBytes bytes to add to the total bytes (ignored while unknown)
     */
    public synchronized void expand(long moreItems, long moreBytes) {
        if (total != Progress.UNKNOWN) {
            total = Math.max(0, total + moreItems);
        }
        if (totalBytes != Progress.UNKNOWN) {
            totalBytes = Math.max(0, totalBytes + moreBytes);
        }
    }

    /**
     * Sets the expected totals once they are known.
     *
     * @param items items expected, or {@link Progress#UNKNOWN}
     * @param byteCount bytes expected, or {@link #UNKNOWN_BYTES}
     */
    public synchronized void total(long items, long byteCount) {
        if (items < Progress.UNKNOWN || byteCount < Progress.UNKNOWN) {
            throw new IllegalArgumentException("Progress totals must be -1 (unknown) or more: total=" + items
                    + ", totalBytes=" + byteCount);
        }
        total = items;
        totalBytes = byteCount;
    }

    /**
     * @return the current snapshot, not sent to the listener
     */
    public synchronized Progress snapshot() {
        return snapshotAt(System.nanoTime());
    }

    /**
     * Sends the last snapshot ({@link Progress#finished()} set); later calls do nothing. Call it
     * in a {@code finally} block: a failed operation finishes too. The last snapshot's
     * {@link Progress#fraction()} is 1 even when fewer items than expected were found (e.g.
     * records deleted meanwhile).
     *
     * @return the last snapshot
     */
    public synchronized Progress finish() {
        Progress last = snapshotAt(System.nanoTime());
        if (!finished) {
            finished = true;
            last = new Progress(operation, done, total, bytes, totalBytes, last.elapsed(), true);
            listener.onProgress(last);
        }
        return last;
    }

    private void send(long now) {
        lastSentNanos = now;
        listener.onProgress(snapshotAt(now));
    }

    private Progress snapshotAt(long now) {
        long shownTotal = total == Progress.UNKNOWN ? total : Math.max(total, done);
        long shownBytes = totalBytes == Progress.UNKNOWN ? totalBytes : Math.max(totalBytes, bytes);
        return new Progress(operation, done, shownTotal, bytes, shownBytes, Duration.ofNanos(now - startNanos), finished);
    }
}
