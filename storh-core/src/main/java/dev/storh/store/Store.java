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
 *
 * @param <S> the engine's statistics, in {@link #stats()} and in every verify report
 * @param <R> the engine's part of a repair report
 * @param <C> the engine's part of a compaction report
 */
public interface Store<S extends Stats, R extends ReportDetails, C extends ReportDetails> extends AutoCloseable {

    /**
     * @return the store's engine, name and folder, fixed when it was opened
     */
    StoreAddress address();

    /**
     * @return the engine of this store
     */
    default StoreKind kind() {
        return address().kind();
    }

    /**
     * @return the store's name: the collection, the log's collection path or the queue name
     */
    default String name() {
        return address().name();
    }

    /**
     * @return the store's folder, absolute and normalised
     */
    default Path directory() {
        return address().directory();
    }

    /**
     * @return current statistics, from one scan of the data files or from counts kept in memory
     */
    S stats();

    /**
     * Reads every data file and checks it; never changes anything.
     *
     * @return the problems found
     */
    default VerifyReport<S> verify() {
        return verify(ProgressListener.NONE);
    }

    /**
     * @param listener told about the bytes read so far, from the calling thread
     * @return the problems found
     */
    VerifyReport<S> verify(ProgressListener listener);

    /**
     * A check for health endpoints: {@link #verify()} itself unless an engine overrides it with a
     * quicker one of the same shape (today none does: the engines keep their files short enough
     * to read them all).
     *
     * @return the problems found
     */
    default VerifyReport<S> health() {
        return verify();
    }

    /**
     * Takes damaged data out of the store (keeping the bytes beside it) and rebuilds derived files.
     *
     * @return what was removed and rebuilt
     */
    default RepairReport<R> repair() {
        return repair(ProgressListener.NONE);
    }

    /**
     * @param listener told about progress, from the calling thread
     * @return what was removed and rebuilt
     */
    RepairReport<R> repair(ProgressListener listener);

    /**
     * Rewrites the data files without what no longer counts (deleted records, finished jobs).
     *
     * @return sizes before and after
     */
    default CompactReport<C> compact() {
        return compact(ProgressListener.NONE);
    }

    /**
     * @param listener told about progress, from the calling thread
     * @return sizes before and after
     */
    CompactReport<C> compact(ProgressListener listener);

    /**
     * Releases the store's files and locks; idempotent. Operations after close throw.
     */
    @Override
    void close();
}
