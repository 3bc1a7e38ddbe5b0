package dev.storh.doc;

import dev.storh.StorageException;
import dev.storh.StorageRecord;
import dev.storh.query.RecordQuery;
import java.util.Iterator;
import java.util.NoSuchElementException;

/**
 * Reads listed record files lazily for {@link DocStore#stream(RecordQuery)}: id filters are
 * applied to names before reading, files deleted meanwhile are skipped, corrupt files go to the
 * query's error handler or are thrown.
 */
final class RecordIterator implements Iterator<StorageRecord> {
    private final Iterator<RecordListing.Entry> entries;
    private final RecordQuery query;
    private StorageRecord next;

    RecordIterator(Iterator<RecordListing.Entry> entries, RecordQuery query) {
        this.entries = entries;
        this.query = query;
    }

    @Override
    public boolean hasNext() {
        while (next == null && entries.hasNext()) {
            RecordListing.Entry entry = entries.next();
            if (!query.matchesId(entry.id())) {
                continue;
            }
            StorageRecord record;
            try {
                record = RecordFiles.readOrNull(entry.path());
            } catch (StorageException e) {
                if (query.errorHandler() == null) {
                    throw e;
                }
                query.errorHandler().accept(entry.id(), e);
                continue;
            }
            if (record != null && query.matchesData(record.data())) {
                next = record;
            }
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
