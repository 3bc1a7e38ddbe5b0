package dev.storh.log;

import dev.storh.fs.StoreFiles;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * Makes many newly written files durable at once: their fsyncs are issued together from a few
 * threads, so the file system can write their data side by side and commit its journal once for
 * several of them, instead of one full round trip to the disk per file. Used by compaction, whose
 * outputs are unreferenced until the manifest that names them is written (after this returns), and
 * by a roll, whose sparse index, manifest temp file and {@code segments/} folder are fsynced at once
 * ({@link #all}).
 *
 * <p>The threads ({@value #THREADS} at most, daemons named {@code storh-log-sync}) are shared by every
 * log of the JVM and end after {@value #IDLE_SECONDS} s without work. Thread-safe.
 */
final class ParallelSync {

    /** Most fsyncs in flight at once. */
    static final int THREADS = 8;
    private static final long IDLE_SECONDS = 30;
    private static final ThreadPoolExecutor POOL = pool();

    private ParallelSync() {
    }

    private static ThreadPoolExecutor pool() {
        ThreadPoolExecutor pool = new ThreadPoolExecutor(THREADS, THREADS, IDLE_SECONDS, TimeUnit.SECONDS,
                new LinkedBlockingQueue<>(), r -> {
                    Thread t = new Thread(r, "storh-log-sync");
                    t.setDaemon(true);
                    return t;
                });
        pool.allowCoreThreadTimeOut(true);
        return pool;
    }

    /** One write or fsync of {@link #all}; it names what failed in its exception. */
    @FunctionalInterface
    interface Task {
        /**
         * @throws RuntimeException naming the file or folder that could not be written or synced
         */
        void run();
    }

    /**
     * Runs tasks side by side: the caller's thread runs the first, the pool's threads the others.
     * Returns only once every task has ended, failed or not (an interrupt is kept for the caller).
     *
     * @param tasks fsyncs (or writes) that may run in any order
     * @throws RuntimeException the first failure in task order, the others attached as suppressed;
     *     an {@link Error} is passed on as it is
     */
    static void all(List<Task> tasks) {
        List<Future<?>> pending = new ArrayList<>(Math.max(0, tasks.size() - 1));
        for (Task task : tasks.subList(Math.min(1, tasks.size()), tasks.size())) {
            pending.add(POOL.submit(() -> {
                task.run();
                return null;
            }));
        }
        Throwable failure = null;
        try {
            if (!tasks.isEmpty()) {
                tasks.get(0).run();
            }
        } catch (RuntimeException | Error e) {
            failure = e;
        }
        for (Future<?> f : pending) {
            Throwable next = outcome(f);
            if (next != null && failure == null) {
                failure = next;
            } else if (next != null) {
                failure.addSuppressed(next);
            }
        }
        if (failure instanceof Error error) {
            throw error;
        }
        if (failure instanceof RuntimeException e) {
            throw e;
        }
        if (failure != null) {
            throw new IllegalStateException(failure.getMessage(), failure);
        }
    }

    /** @return what the task threw, or null; waits for it to end */
    private static Throwable outcome(Future<?> f) {
        boolean interrupted = false;
        try {
            while (true) {
                try {
                    f.get();
                    return null;
                } catch (InterruptedException e) {
                    interrupted = true;
                } catch (ExecutionException e) {
                    return e.getCause();
                }
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /**
     * Fsyncs every output, then closes them all, whether or not a sync failed. Returns only once every
     * sync has finished (an interrupt is kept for the caller, not acted on).
     *
     * @param outputs files written and not yet synced
     * @throws IOException the first sync or close failure; the others are attached as suppressed
     */
    static void syncAndClose(List<StoreFiles.Output> outputs) throws IOException {
        List<Future<?>> pending = new ArrayList<>(outputs.size());
        IOException failure = null;
        if (outputs.size() > 1) {
            for (StoreFiles.Output out : outputs.subList(1, outputs.size())) {
                pending.add(POOL.submit(() -> {
                    out.sync();
                    return null;
                }));
            }
        }
        try {
            if (!outputs.isEmpty()) {
                outputs.get(0).sync(); // the caller's thread does its share
            }
        } catch (IOException | RuntimeException e) {
            failure = asIo(e);
        }
        for (Future<?> f : pending) {
            failure = add(failure, waitFor(f));
        }
        for (StoreFiles.Output out : outputs) {
            try {
                out.close();
            } catch (IOException | RuntimeException e) {
                failure = add(failure, asIo(e));
            }
        }
        if (failure != null) {
            throw failure;
        }
    }

    /** @return what the task threw as an IOException, or null; waits for it to end */
    private static IOException waitFor(Future<?> f) {
        Throwable failure = outcome(f);
        return failure == null ? null : asIo(failure);
    }

    private static IOException add(IOException first, IOException next) {
        if (next == null) {
            return first;
        }
        if (first == null) {
            return next;
        }
        first.addSuppressed(next);
        return first;
    }

    private static IOException asIo(Throwable e) {
        return e instanceof IOException io ? io : new IOException(e.getMessage(), e);
    }
}
