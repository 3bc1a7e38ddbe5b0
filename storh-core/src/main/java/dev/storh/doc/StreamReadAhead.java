package dev.storh.doc;

import dev.storh.StorageException;
import dev.storh.StorageRecord;
import java.util.ArrayDeque;
import java.util.Iterator;
import java.util.NoSuchElementException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * The record reads of one stream, given in listing order. Files are first read on the consumer's
 * thread when it takes them, and timed: while they come from the page cache (a few microseconds
 * each) a hand-off to another thread would cost more than the read. When at least
 * {@value #SLOW_IN_ROUND} of a round of {@value #ROUND} reads took longer than
 * {@link #slowReadNanos} (disk reads: a quarter of a millisecond and more), the rest of the stream is
 * read up to {@value #WINDOW} files ahead on a small pool shared by every stream of the process, so
 * several disk waits overlap.
 *
 * <p>Memory: at most {@value #WINDOW} records per stream. What a read throws is rethrown at that
 * file's turn, so error handlers run on the consumer's thread, in listing order. Not thread-safe:
 * one consumer, like the stream it serves.
 */
final class StreamReadAhead implements Iterator<RecordListing.Entry> {

    static final int WINDOW = 16;
    static final int ROUND = 16;
    static final int SLOW_IN_ROUND = 4;

    /** A read slower than this, in nanoseconds, counts as a disk read; tests lower it to read ahead early. */
    static volatile long slowReadNanos = 150_000;

    /** The read-ahead threads: daemons, started on first use. */
    private static final ExecutorService POOL = Executors.newFixedThreadPool(4, r -> {
        Thread t = new Thread(r, "storh-read-ahead");
        t.setDaemon(true);
        return t;
    });

    /** What one read gave: a record (or {@code null}: gone), or what it threw. */
    private record Outcome(StorageRecord record, RuntimeException failure) {
    }

    private final Iterator<RecordListing.Entry> entries;
    private final RecordIterator.Reader read;
    private final ArrayDeque<RecordListing.Entry> queued = new ArrayDeque<>();
    private final ArrayDeque<Future<Outcome>> pending = new ArrayDeque<>();
    private volatile boolean cancelled;
    private boolean ahead;
    private int reads;
    private int slow;

    StreamReadAhead(Iterator<RecordListing.Entry> entries, RecordIterator.Reader read) {
        this.entries = entries;
        this.read = read;
    }

    /** @return whether the reads have moved to the pool */
    boolean readingAhead() {
        return ahead;
    }

    @Override
    public boolean hasNext() {
        return !queued.isEmpty() || entries.hasNext();
    }

    /** @return the next listed file, left at the head of the queue for {@link #take} */
    @Override
    public RecordListing.Entry next() {
        if (ahead) {
            fill();
        } else if (queued.isEmpty() && entries.hasNext()) {
            queued.addLast(entries.next());
        }
        if (queued.isEmpty()) {
            throw new NoSuchElementException();
        }
        return queued.peekFirst();
    }

    /**
     * @param entry the head of the queue, as {@link #next} gave it
     * @return its record, or {@code null} when the file is gone
     * @throws StorageException what reading that file threw
     */
    StorageRecord take(RecordListing.Entry entry) {
        queued.removeFirst();
        if (pending.isEmpty()) {
            return readHere(entry);
        }
        Future<Outcome> future = pending.removeFirst();
        Outcome outcome;
        try {
            outcome = future.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            cancel();
            throw new StorageException("Interrupted while reading storage record: " + entry.id(), e);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof Error error) {
                throw error;
            }
            throw new StorageException("Could not read storage record: " + entry.id(), e.getCause());
        }
        if (outcome.failure() != null) {
            throw outcome.failure();
        }
        return outcome.record();
    }

    /** Stops the reads not yet started (the stream was closed). */
    void cancel() {
        cancelled = true;
        pending.forEach(f -> f.cancel(false));
    }

    private StorageRecord readHere(RecordListing.Entry entry) {
        long start = System.nanoTime();
        StorageRecord record = read.read(entry);
        if (System.nanoTime() - start > slowReadNanos) {
            slow++;
        }
        if (++reads == ROUND) {
            ahead = slow >= SLOW_IN_ROUND;
            reads = 0;
            slow = 0;
        }
        return record;
    }

    private void fill() {
        while (pending.size() < WINDOW && entries.hasNext()) {
            RecordListing.Entry entry = entries.next();
            queued.addLast(entry);
            pending.addLast(POOL.submit(() -> {
                if (cancelled) {
                    return new Outcome(null, null);
                }
                try {
                    return new Outcome(read.read(entry), null);
                } catch (RuntimeException e) {
                    return new Outcome(null, e);
                }
            }));
        }
    }
}
