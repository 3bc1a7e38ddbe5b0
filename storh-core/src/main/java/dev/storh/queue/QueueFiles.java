package dev.storh.queue;

import dev.storh.store.StoreKind;
import dev.storh.store.StoreNames;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.HexFormat;

/**
 * Every file name of a queue folder, computed in one place:
 *
 * <pre>
 * &lt;root&gt;/&lt;name&gt;/                       the queue folder ({@link #folder})
 *   queue.log                       the event log: framed event lines (QueueEventCodec), one or more
 *                                   per operation, append-only between compactions
 *   queue.lock                      empty; flock(2) target of the queue lock
 *   .queue.log.&lt;12 hex&gt;.tmp         a compaction's (or a repair's) new log, renamed over queue.log;
 *                                   deleted on open and by repair when a writer crashed
 *   queue.log.cut-&lt;offset&gt;-&lt;ms&gt;    bytes taken out of queue.log at &lt;offset&gt; (epoch ms &lt;ms&gt;): a bad
 *                                   tail that held complete lines, or a damaged stretch a repair or
 *                                   compaction removed
 * </pre>
 *
 * Names are relative to the queue folder, as the byte seam ({@link dev.storh.fs.StoreFiles})
 * addresses them. Nothing else in storh builds a queue path by hand. Stateless and thread-safe; no
 * method touches the disk.
 */
public final class QueueFiles {

    /** The event log's file name. */
    public static final String LOG_NAME = "queue.log";
    /** The lock file's name. */
    public static final String LOCK_NAME = "queue.lock";
    /** Glob of the compaction temp files a crashed writer may leave. */
    public static final String TEMP_GLOB = "." + LOG_NAME + ".*.tmp";

    private static final String TEMP_PREFIX = "." + LOG_NAME + ".";
    private static final String TEMP_SUFFIX = ".tmp";
    private static final String CUT_PREFIX = LOG_NAME + ".cut-";
    private static final SecureRandom RANDOM = new SecureRandom();

    private QueueFiles() {
    }

    /**
     * @param root the folder holding queues
     * @param name the queue name: one folder name, not empty, not {@code .} or {@code ..}, without
     *     {@code /}, {@code \} or NUL
     * @return {@code <root>/<name>}, absolute and normalised
     * @throws dev.storh.StorageException {@code Invalid queue name: "<name>" ...} when refused
     */
    public static Path folder(Path root, String name) {
        return StoreNames.folder(root, StoreKind.QUEUE.label(), name);
    }

    /**
     * @param hex a random hex token
     * @return {@code .queue.log.<hex>.tmp}
     */
    public static String tempName(String hex) {
        return TEMP_PREFIX + hex + TEMP_SUFFIX;
    }

    /**
     * @return a fresh temp name {@code .queue.log.<12 random hex>.tmp}
     */
    static String newTempName() {
        byte[] random = new byte[6];
        RANDOM.nextBytes(random);
        return tempName(HexFormat.of().formatHex(random));
    }

    /**
     * @param name a file name in the queue folder
     * @return whether it is a temp file as {@link #TEMP_GLOB} matches
     */
    static boolean isTemp(String name) {
        return name.startsWith(TEMP_PREFIX) && name.endsWith(TEMP_SUFFIX)
                && name.length() >= TEMP_PREFIX.length() + TEMP_SUFFIX.length() && name.indexOf('/') < 0;
    }

    /**
     * @param offset where the cut bytes started in the log
     * @param epochMillis when they were cut
     * @return {@code queue.log.cut-<offset>-<ms>}
     */
    public static String cutName(long offset, long epochMillis) {
        return CUT_PREFIX + offset + "-" + epochMillis;
    }
}
