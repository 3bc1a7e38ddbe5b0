package dev.storh.fs;

import dev.storh.StorageException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Group commit for durable appends: many threads submit items at once, one of them (the leader)
 * writes every waiting item in a single batch with a single fsync, and each caller returns only
 * when the batch holding its own item is durable. While a batch is being written, new arrivals
 * queue up and form the next batch, so the number of fsyncs falls as concurrency rises.
 *
 * <p>The batch writer runs on a caller's thread, one batch at a time, in arrival order. When it
 * throws, every caller of that batch gets the error: a {@link StorageException} as it is, any
 * other exception wrapped in a {@link StorageException} (as its cause), and an {@link Error} (out of
 * memory, stack overflow) as it is, never wrapped, so it reaches the caller's error handling unchanged.
 * Later batches are tried again. Thread-safe.
 *
 * @param <T> what callers submit, e.g. an encoded line
 */
public final class GroupCommit<T> {

    /**
     * Writes a batch and makes it durable (typically: append all, then one fsync).
     *
     * @param <T> item type
     */
    @FunctionalInterface
    public interface BatchWriter<T> {
        /**
         * @param batch items in arrival order, never empty
         * @throws Exception any failure; the whole batch fails
         */
        void write(List<T> batch) throws Exception;
    }

    private static final class Ticket<T> {
        final T item;
        boolean done;
        Throwable failure;

        Ticket(T item) {
            this.item = item;
        }
    }

    private final BatchWriter<T> writer;
    private final int maxBatch;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition finished = lock.newCondition();
    private final List<Ticket<T>> waiting = new ArrayList<>();
    private boolean leaderActive;

    /**
     * @param writer writes and syncs one batch
     * @param maxBatch most items in one batch, at least 1
     */
    public GroupCommit(BatchWriter<T> writer, int maxBatch) {
        if (maxBatch < 1) {
            throw new IllegalArgumentException("maxBatch must be at least 1, got " + maxBatch);
        }
        this.writer = writer;
        this.maxBatch = maxBatch;
    }

    /**
     * Submits one item and waits until it is durable.
     *
     * @param item the item
     * @throws StorageException when the batch holding the item failed
     * @throws Error when the writer threw one, unwrapped
     */
    public void submit(T item) {
        Ticket<T> ticket = new Ticket<>(item);
        lock.lock();
        try {
            waiting.add(ticket);
            while (!ticket.done) {
                if (leaderActive) {
                    finished.awaitUninterruptibly();
                    continue;
                }
                leaderActive = true;
                List<Ticket<T>> batch = new ArrayList<>(waiting.subList(0, Math.min(maxBatch, waiting.size())));
                waiting.subList(0, batch.size()).clear();
                lock.unlock();
                Throwable failure = null;
                try {
                    List<T> items = new ArrayList<>(batch.size());
                    batch.forEach(t -> items.add(t.item));
                    writer.write(items);
                } catch (StorageException | Error e) {
                    failure = e;
                } catch (Exception e) {
                    failure = new StorageException("Group commit failed: " + e.getMessage(), e);
                } finally {
                    lock.lock();
                }
                for (Ticket<T> t : batch) {
                    t.done = true;
                    t.failure = failure;
                }
                leaderActive = false;
                finished.signalAll();
            }
        } finally {
            lock.unlock();
        }
        if (ticket.failure instanceof StorageException e) {
            throw e;
        }
        if (ticket.failure instanceof Error e) {
            throw e;
        }
    }
}
