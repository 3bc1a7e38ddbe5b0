package dev.storh.store;

import java.nio.file.Path;

import dev.storh.progress.ProgressListener;

/**
 * One open store of any engine: a DocStore collection, a segmented log or a job queue. What the
 * CLI, the Actuator endpoint, health indicators, scheduled maintenance and the SQL mirror call
 * without knowing the engine; the engines' own classes add their data operations.
 * <p>
 * Implementations are thread-safe: every method may be called from many threads at once, and from
 * several processes on the same folder (writes are serialised by the store's lock file).
 * Maintenance methods throw {@link dev.storh.StorageException} (or a subclass) when they cannot
 * finish; a thrown failure leaves the store as it was.
 */
public interface Store extends AutoCloseable {

    /**
     * @return the engine of this store
     */
    StoreKind kind();

    /**
     * @return the store's name: the collection, the log's collection path or the queue name
     */
    String name();

    /**
     * @return the store's folder, absolute and normalised
     */
    Path directory();

    /**
     * @return current statistics, from one scan of the data files or from counts kept in memory
     */
    Stats stats();

    /**
     * Reads every data file and checks it; never changes anything.
     *
     * @return the problems found
     */
    default VerifyReport<? extends Stats> verify() {
        return verify(ProgressListener.NONE);
    }

    /**
     * @param listener told about the bytes read so far, from the calling thread
     * @return the problems found
     */
    VerifyReport<? extends Stats> verify(ProgressListener listener);

    /**
     * @return a quicker check than {@link #verify()} where the engine has one; the same shape
     */
    VerifyReport<? extends Stats> health();

    /**
     * Takes damaged data out of the store (keeping the bytes beside it) and rebuilds derived files.
     *
     * @return what was removed and rebuilt
     */
    default RepairReport<?> repair() {
        return repair(ProgressListener.NONE);
    }

    /**
     * @param listener told about progress, from the calling thread
     * @return what was removed and rebuilt
     */
    RepairReport<?> repair(ProgressListener listener);

    /**
     * Rewrites the data files without what no longer counts (deleted records, finished jobs).
     *
     * @return sizes before and after
     */
    default CompactReport<?> compact() {
        return compact(ProgressListener.NONE);
    }

    /**
     * @param listener told about progress, from the calling thread
     * @return sizes before and after
     */
    CompactReport<?> compact(ProgressListener listener);

    /**
     * Releases the store's files and locks; idempotent. Operations after close throw.
     */
    @Override
    void close();
}
