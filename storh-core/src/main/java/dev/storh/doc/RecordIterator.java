package dev.storh.doc;

import dev.storh.StorageException;
import dev.storh.StorageRecord;
import dev.storh.fs.StoreFiles;
import dev.storh.query.RecordQuery;
import java.util.Iterator;
import java.util.NoSuchElementException;
import java.util.Spliterator;
import java.util.Spliterators;
import java.util.stream.Stream;
import java.util.stream.StreamSupport;

/**
 * Reads listed record files lazily, one at a time, through a {@link Reader} that decides what
 * each file gives (a record, or nothing to skip it). Not thread-safe: one consumer.
 */
final class RecordIterator implements Iterator<StorageRecord> {

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
    private StorageRecord next;

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
        return stream(new RecordIterator(entries, entry -> {
            if (!query.matchesId(entry.id())) {
                return null;
            }
            StorageRecord record;
            try {
                record = read.read(entry);
            } catch (StorageException e) {
                if (query.errorHandler() == null) {
                    throw e;
                }
                query.errorHandler().accept(entry.id(), e);
                return null;
            }
            return record != null && query.matchesData(record.data()) ? record : null;
        }));
    }

    /**
     * @param <T> the element type
     * @param records an iterator
     * @return an ordered stream of its elements
     */
    static <T> Stream<T> stream(Iterator<T> records) {
        return StreamSupport.stream(Spliterators.spliteratorUnknownSize(records, Spliterator.ORDERED | Spliterator.NONNULL),
                false);
    }

    @Override
    public boolean hasNext() {
        while (next == null && entries.hasNext()) {
            next = reader.read(entries.next());
        }
        return next != null;
    }

    @Override
    public StorageRecord next() {
        if (!hasNext()) {
            throw new NoSuchElementException();
        }
        StorageRecord r = next;
        next = null;
        return r;
    }
}
