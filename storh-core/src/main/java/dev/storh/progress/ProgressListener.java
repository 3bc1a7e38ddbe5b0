package dev.storh.progress;

/**
 * Receives the progress of a long operation. Called on the thread that does the work, with
 * snapshots in order: one when the work starts ({@code done} 0), then at most every
 * {@link ProgressTracker#DEFAULT_INTERVAL} while it goes on, and a last one with
 * {@link Progress#finished()} set when it ends, also when it fails.
 *
 * <p>Keep it quick: the work waits while it runs. An exception it throws stops the operation and
 * reaches the operation's caller; a listener can so cancel a verify or an export. A listener
 * shared by operations running at once must be thread-safe.
 */
@FunctionalInterface
public interface ProgressListener {

    /** Ignores every snapshot. */
    ProgressListener NONE = progress -> { };

    /**
     * @param progress the latest snapshot
     */
    void onProgress(Progress progress);
}
