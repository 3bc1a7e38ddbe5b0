package dev.storh.doc;

import dev.storh.StorageException;
import dev.storh.StorageRecord;
import dev.storh.fs.StoreFiles;
import dev.storh.query.RecordQuery;
import dev.storh.query.LookaheadIterator;
import java.util.Iterator;
import java.util.stream.Stream;

/**
 * Reads listed record files lazily, one at a time, through a {@link Reader} that decides what
 * each file gives (a record, or nothing to skip it). Not thread-safe: one consumer.
 */
final class RecordIterator extends LookaheadIterator<StorageRecord> {

    /** Reads one listed file. */
    interface Reader {
        /**
         * @param entry a listed record file
         * @return its record, or {@code null} to skip it
         */
        StorageRecord read(RecordListing.Entry entry);
    }

    private final Iterator<RecordListing.Entry> entries;
    private final Reader reader;

    RecordIterator(Iterator<RecordListing.Entry> entries, Reader reader) {
        this.entries = entries;
        this.reader = reader;
    }

    /**
     * The reads of {@link DocStore#stream(RecordQuery)}: id filters are applied to names before
     * reading, files deleted meanwhile are skipped, corrupt files go to the query's error handler
     * or are thrown.
     *
     * @param files the collection's byte seam
     * @param entries the listed files, in id order
     * @param query the filters and error handler
     * @return the matching records, lazily
     */
    static Stream<StorageRecord> matching(StoreFiles files, Iterator<RecordListing.Entry> entries, RecordQuery query) {
        return matching(entries, query, entry -> RecordFiles.readOrNull(files, entry.path()));
    }

    /**
     * {@link #matching(StoreFiles, Iterator, RecordQuery)} with another way to read a file (through
     * a record cache).
     *
     * @param entries the listed files, in id order
     * @param query the filters and error handler
     * @param read reads one listed file: its record, or {@code null} when it is gone
     * @return the matching records, lazily
     */
    static Stream<StorageRecord> matching(Iterator<RecordListing.Entry> entries, RecordQuery query, Reader read) {
        Iterator<RecordListing.Entry> wanted = new LookaheadIterator<>() {
            @Override
            protected RecordListing.Entry advance() {
                while (entries.hasNext()) {
                    RecordListing.Entry entry = entries.next();
                    if (query.matchesId(entry.id())) {
                        return entry;
                    }
                }
                return null;
            }
        };
        ReadAhead ahead = new ReadAhead(wanted, read);
        return LookaheadIterator.stream(new RecordIterator(ahead, entry -> {
            StorageRecord record;
            try {
                record = ahead.take(entry);
            } catch (StorageException e) {
                if (query.errorHandler() == null) {
                    throw e;
                }
                query.errorHandler().accept(entry.id(), e);
                return null;
            }
            return record != null && query.matchesData(record.data()) ? record : null;
        })).onClose(ahead::cancel);
    }

    /**
     * Reads the next {@link #WINDOW} listed files on a small shared pool while the consumer takes
     * them in listing order: a record file whose bytes are not in the page cache costs a disk read
     * (a quarter of a millisecond and more), and several reads in flight overlap those waits. Memory:
     * at most {@code WINDOW} records per stream. What a read throws is rethrown to the consumer at
     * that file's turn, so error handlers still run on the consumer's thread, in id order.
     */
    private static final class ReadAhead implements Iterator<RecordListing.Entry> {
        static final int WINDOW = 16;

        /** What one read gave: a record (or {@code null}: gone), or what it threw. */
        private record Outcome(StorageRecord record, RuntimeException failure) {
        }

        private final Iterator<RecordListing.Entry> entries;
        private final Reader read;
        private final java.util.ArrayDeque<RecordListing.Entry> queued = new java.util.ArrayDeque<>();
        private final java.util.ArrayDeque<java.util.concurrent.Future<Outcome>> pending = new java.util.ArrayDeque<>();
        private volatile boolean cancelled;

        ReadAhead(Iterator<RecordListing.Entry> entries, Reader read) {
            this.entries = entries;
            this.read = read;
        }

        @Override
        public boolean hasNext() {
            return !queued.isEmpty() || entries.hasNext();
        }

        @Override
        public RecordListing.Entry next() {
            fill();
            if (queued.isEmpty()) {
                throw new java.util.NoSuchElementException();
            }
            return queued.peekFirst();
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

        /** @return the record of {@code entry}, the head of the queue (which it leaves) */
        StorageRecord take(RecordListing.Entry entry) {
            queued.removeFirst();
            java.util.concurrent.Future<Outcome> future = pending.removeFirst();
            Outcome outcome;
            try {
                outcome = future.get();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                cancel();
                throw new StorageException("Interrupted while reading storage record: " + entry.id(), e);
            } catch (java.util.concurrent.ExecutionException e) {
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
    }

    /** The read-ahead threads, shared by every stream of the process: daemons, started on first use. */
    private static final java.util.concurrent.ExecutorService POOL = java.util.concurrent.Executors.newFixedThreadPool(4, r -> {
        Thread t = new Thread(r, "storh-read-ahead");
        t.setDaemon(true);
        return t;
    });

    @Override
    protected StorageRecord advance() {
        while (entries.hasNext()) {
            StorageRecord record = reader.read(entries.next());
            if (record != null) {
                return record;
            }
        }
        return null;
    }
}
