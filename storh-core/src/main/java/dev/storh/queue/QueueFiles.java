package dev.storh.queue;

/**
 * Every file name of a queue folder, computed in one place:
 *
 * <pre>
 * &lt;queue&gt;/queue.log                      the event log, one framed line per operation
 * &lt;queue&gt;/queue.lock                     flock(2) target of the queue lock
 * &lt;queue&gt;/.queue.log.&lt;12 hex&gt;.tmp        a compaction's new log, renamed over queue.log
 * &lt;queue&gt;/queue.log.cut-&lt;offset&gt;-&lt;ms&gt;    bytes cut from the log by a repair, kept aside
 * </pre>
 *
 * Nothing else in storh builds a queue path by hand. Stateless; no method touches the disk.
 */
public final class QueueFiles {

    /** The event log's file name. */
    public static final String LOG_NAME = "queue.log";
    /** The lock file's name. */
    public static final String LOCK_NAME = "queue.lock";
    /** Glob of the compaction temp files a crashed writer may leave. */
    public static final String TEMP_GLOB = "." + LOG_NAME + ".*.tmp";

    private QueueFiles() {
    }

    /**
     * @param hex a random hex token
     * @return {@code .queue.log.<hex>.tmp}
     */
    public static String tempName(String hex) {
        return "." + LOG_NAME + "." + hex + ".tmp";
    }

    /**
     * @param offset where the cut bytes started in the log
     * @param epochMillis when they were cut
     * @return {@code queue.log.cut-<offset>-<ms>}
     */
    public static String cutName(long offset, long epochMillis) {
        return LOG_NAME + ".cut-" + offset + "-" + epochMillis;
    }
}
