package dev.storh.mirror;

import dev.storh.StorageException;
import dev.storh.StorageRecord;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * The records of a push, read ahead on a thread of their own: that thread opens the source's
 * stream, gives each record its data text and hash ({@link RowCodec}) and hands them over in
 * chunks of {@value #CHUNK}, at most {@value #CHUNKS} chunks ahead, while the calling thread reads
 * the table and writes rows. The stream is opened, read and closed on the feed's thread only.
 *
 * <p>A failure of the stream or of the encoding is rethrown by {@link #next()} as it was thrown
 * (same exception object), after the records before it. {@link #close()} stops the feed and waits
 * until its thread has closed the stream, also when the consumer stops early. One consumer thread;
 * not reusable.
 */
final class RecordFeed implements AutoCloseable {

    /** Records per hand-over. */
    static final int CHUNK = 256;
    /** Chunks read ahead at most. */
    static final int CHUNKS = 8;

    /** One record with its data text and hash. */
    record Row(StorageRecord record, String text, String hash) {
    }

    private static final List<Row> END = List.of();

    private final BlockingQueue<List<Row>> queue = new ArrayBlockingQueue<>(CHUNKS + 1);
    private final Thread thread;
    private volatile boolean stopped;
    private volatile Throwable failure;
    private List<Row> current = List.of();
    private int position;
    private boolean ended;

    private RecordFeed(MirrorSource source) {
        thread = new Thread(() -> produce(source), "storh-mirror-feed");
        thread.setDaemon(true);
    }

    /**
     * @param source the store to stream
     * @return a feed whose thread has started reading
     */
    static RecordFeed start(MirrorSource source) {
        RecordFeed feed = new RecordFeed(source);
        feed.thread.start();
        return feed;
    }

    /**
     * @return the next record, or {@code null} after the last
     * @throws RuntimeException the stream's or the encoding's failure, as thrown
     * @throws StorageException {@code "SQL mirror push interrupted"} when the calling thread is
     *     interrupted while waiting (its interrupt flag is set again)
     */
    Row next() {
        while (position == current.size()) {
            if (ended) {
                return null;
            }
            try {
                current = queue.take();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new StorageException("SQL mirror push interrupted", e);
            }
            position = 0;
            if (current == END) {
                ended = true;
                Throwable f = failure;
                if (f instanceof RuntimeException r) {
                    throw r;
                }
                if (f instanceof Error err) {
                    throw err;
                }
                if (f != null) {
                    throw new StorageException("SQL mirror push failed reading the store: " + f, f);
                }
            }
        }
        return current.get(position++);
    }

    private void produce(MirrorSource source) {
        List<Row> chunk = new ArrayList<>(CHUNK);
        try (Stream<StorageRecord> records = source.stream()) {
            Iterator<StorageRecord> it = records.iterator();
            while (!stopped && it.hasNext()) {
                StorageRecord r = it.next();
                String text = RowCodec.dataText(r.data());
                chunk.add(new Row(r, text, RowCodec.hash(text)));
                if (chunk.size() == CHUNK) {
                    hand(chunk);
                    chunk = new ArrayList<>(CHUNK);
                }
            }
        } catch (Throwable e) {
            failure = e;
        } finally {
            if (!chunk.isEmpty()) {
                hand(chunk); // the records before a failure come first
            }
            hand(END);
        }
    }

    /** Puts a chunk in the queue unless the consumer has stopped; the end marker always finds room. */
    private void hand(List<Row> chunk) {
        try {
            while (!stopped) {
                if (queue.offer(chunk, 20, TimeUnit.MILLISECONDS)) {
                    return;
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            stopped = true;
        }
        if (chunk == END) {
            queue.clear();
            queue.offer(END);
        }
    }

    /** Stops reading ahead and waits until the feed's thread has closed the stream. */
    @Override
    public void close() {
        stopped = true;
        queue.clear();
        boolean interrupted = false;
        while (thread.isAlive()) {
            try {
                thread.join();
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }
}
