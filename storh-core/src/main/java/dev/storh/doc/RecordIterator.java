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
        StreamReadAhead ahead = new StreamReadAhead(wanted, read);
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
