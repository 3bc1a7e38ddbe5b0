package dev.storh.doc.index;

import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.function.Supplier;

/**
 * The in-process lock between index reads (shared) and the steps of a swap that may leave an index
 * file missing for a moment (exclusive), so no reader of this JVM sees a half-swapped set.
 * Thread-safe.
 */
final class IndexSwap {

    private final ReentrantReadWriteLock lock = new ReentrantReadWriteLock();

    /** Runs an index read under the shared side. */
    <T> T reading(Supplier<T> read) {
        lock.readLock().lock();
        try {
            return read.get();
        } finally {
            lock.readLock().unlock();
        }
    }

    /** Runs steps that may leave index files missing for a moment with readers of this JVM excluded. */
    void swapping(Runnable steps) {
        lock.writeLock().lock();
        try {
            steps.run();
        } finally {
            lock.writeLock().unlock();
        }
    }
}
