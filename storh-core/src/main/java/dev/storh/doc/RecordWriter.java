package dev.storh.doc;

import dev.storh.StorageException;
import dev.storh.fs.AtomicFiles;
import dev.storh.fs.SafePaths;
import dev.storh.fs.StoreFiles;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;

/**
 * Writes record files into their buckets: temp file
 * {@code data/<bucket>/.<pid>.<8 hex>.<n>.tmp}, fsync, rename, fsync of the bucket. Bucket folders
 * are created (and their parents fsynced) once per instance, and again if removed behind the
 * store's back. Callers hold the collection write lock, taken through {@link WriteGate} (which
 * checked {@code data/} for links when the hold began).
 */
final class RecordWriter {

    private final DocLayout layout;
    private final StoreFiles files;
    private final String writerPrefix;
    private final AtomicLong tempCounter = new AtomicLong();
    private final Set<String> ensuredBuckets = ConcurrentHashMap.newKeySet();

    private final Written written;

    /** Told about every record file this writer replaced, or tried to. */
    interface Written {
        /**
         * @param lowerId the record's id
         * @param bytes the record file's bytes now on disk, or {@code null} when the write failed
         *     (the file may hold the old or the new bytes)
         */
        void written(String lowerId, byte[] bytes);
    }

    RecordWriter(StoreFiles files, DocLayout layout, String writerPrefix, Written written) {
        this.files = files;
        this.layout = layout;
        this.writerPrefix = writerPrefix;
        this.written = written;
    }

    Path tempPath(Path dir) {
        return DocLayout.recordTemp(dir, writerPrefix, tempCounter.incrementAndGet());
    }

    private Path bucketDirectory(String id, boolean check) {
        return bucketDirectory(id, check, false);
    }

    /**
     * @param journaled whether the record's batch journal is durable before its file is written: a
     *     new bucket in an existing {@code data/} is then created without fsyncs (the journal's
     *     retirement fsyncs {@code data/} and the bucket)
     */
    private Path bucketDirectory(String id, boolean check, boolean journaled) {
        String bucket = DocLayout.bucketOf(id);
        Path dir = layout.bucketDir(bucket);
        // A bucket (or data/) that is a link would put the record outside the collection. Every
        // write runs under the write lock, whose WriteGate checked data/ when this hold began: only
        // the bucket is looked at, and that one lstat also tells whether it is a folder.
        boolean isFolder = SafePaths.requireNoLinkAt(files, files.nameOf(dir))
                .map(e -> e.kind() == StoreFiles.Entry.Kind.DIRECTORY).orElse(false);
        if (!ensuredBuckets.contains(bucket) || (check && !isFolder)) {
            if (journaled && !isFolder && DocRecovery.isDirectory(files, files.nameOf(layout.dataDir()))) {
                try {
                    files.createDirectories(files.nameOf(dir));
                } catch (java.io.IOException e) {
                    throw new StorageException("Could not create storage directory: " + dir, e);
                }
            } else {
                AtomicFiles.ensureDirectory(files, files.nameOf(dir));
            }
            ensuredBuckets.add(bucket);
        }
        return dir;
    }

    /** Writes one record durably. */
    void write(PreparedRecord p) {
        Path dir = bucketDirectory(p.id(), false);
        Path target = layout.recordFile(p.id());
        Path temp = tempPath(dir);
        try {
            try {
                AtomicFiles.writeVia(files, files.nameOf(temp), files.nameOf(target), p.bytes());
            } catch (StorageException e) {
                if (DocRecovery.isDirectory(files, files.nameOf(dir))) {
                    throw e;
                }
                // The bucket was removed behind our back: create it again and retry once.
                AtomicFiles.ensureDirectory(files, files.nameOf(dir));
                AtomicFiles.writeVia(files, files.nameOf(temp), files.nameOf(target), p.bytes());
            }
        } catch (RuntimeException e) {
            written.written(p.id(), null);
            throw e;
        }
        written.written(p.id(), p.bytes());
    }

    Batch batch() {
        return new Batch(null);
    }

    /**
     * @param journal where each group of the batch's records is made durable first, with one
     *     fdatasync, before its files are written without fsyncs ({@link BatchWriter#writeJournaled})
     * @return a batch written through the journal
     */
    Batch batch(BatchJournal journal) {
        return new Batch(journal);
    }

    /** @return the temp file a record of this bucket folder is written through */
    Function<Path, Path> temps() {
        return this::tempPath;
    }

    /** Bulk rows written by {@link BatchWriter} in groups of up to {@link BatchWriter#BATCH_SIZE}. */
    final class Batch {
        private final List<BatchWriter.Item> items = new ArrayList<>(BatchWriter.BATCH_SIZE);
        private final List<PreparedRecord> records = new ArrayList<>(BatchWriter.BATCH_SIZE);
        /** The bucket folders of the group looked at already (links refused, existence checked): once per group. */
        private final Map<String, Path> checked = new HashMap<>();
        private PreparedRecord single;
        private final BatchJournal journal;

        private Batch(BatchJournal journal) {
            this.journal = journal;
        }

        void add(PreparedRecord p) {
            Path dir = checked.computeIfAbsent(DocLayout.bucketOf(p.id()), b -> bucketDirectory(p.id(), true, journal != null));
            items.add(new BatchWriter.Item(tempPath(dir), layout.recordFile(p.id()), p.bytes()));
            single = p;
            records.add(p);
        }

        /** @return whether a group of {@link BatchWriter#BATCH_SIZE} records waits: time to {@link #flush} */
        boolean full() {
            return items.size() >= BatchWriter.BATCH_SIZE;
        }

        /** Writes the group's files (through the journal, or each fsynced) and tells {@link Written} about each. */
        private void writeGroup() {
            try {
                if (journal != null) {
                    BatchWriter.writeJournaled(files, items);
                } else {
                    BatchWriter.write(files, items);
                }
            } catch (RuntimeException e) {
                records.forEach(r -> written.written(r.id(), null));
                throw e;
            }
            records.forEach(r -> written.written(r.id(), r.bytes()));
        }

        void flush() {
            try {
                if (journal != null && !items.isEmpty()) {
                    journal.append(records);
                    writeGroup();
                } else if (items.size() == 1) {
                    write(single);
                } else {
                    writeGroup();
                }
            } finally {
                items.clear();
                records.clear();
                checked.clear();
                single = null;
            }
        }
    }
}
