package dev.storh.doc;

import dev.storh.StorageException;
import dev.storh.fs.AtomicFiles;
import dev.storh.fs.SafePaths;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Writes record files into their buckets: temp file
 * {@code data/<bucket>/.<pid>.<8 hex>.<n>.tmp}, fsync, rename, fsync of the bucket. Bucket folders
 * are created (and their parents fsynced) once per instance, and again if removed behind the
 * store's back. Callers hold the collection write lock.
 */
final class RecordWriter {

    private final Path dataDir;
    private final String writerPrefix;
    private final AtomicLong tempCounter = new AtomicLong();
    private final Set<String> ensuredBuckets = ConcurrentHashMap.newKeySet();

    private final java.util.function.Consumer<String> written;

    RecordWriter(Path dataDir, String writerPrefix, java.util.function.Consumer<String> written) {
        this.dataDir = dataDir;
        this.writerPrefix = writerPrefix;
        this.written = written;
    }

    Path tempPath(Path dir) {
        return dir.resolve("." + writerPrefix + "." + tempCounter.incrementAndGet() + ".tmp");
    }

    private Path bucketDirectory(String id, boolean check) {
        String bucket = id.substring(24, 26);
        Path dir = dataDir.resolve(bucket);
        // A bucket (or data/) that is a link would put the record outside the collection.
        SafePaths.requireNoLinks(dataDir.getParent(), dir);
        if (!ensuredBuckets.contains(bucket) || (check && !Files.isDirectory(dir))) {
            AtomicFiles.ensureDirectory(dir);
            ensuredBuckets.add(bucket);
        }
        return dir;
    }

    /** Writes one record durably. */
    void write(PreparedRecord p) {
        Path dir = bucketDirectory(p.id(), false);
        Path target = dir.resolve(p.id() + RecordFiles.EXTENSION);
        Path temp = tempPath(dir);
        try {
            AtomicFiles.writeVia(temp, target, p.bytes());
        } catch (StorageException e) {
            if (Files.isDirectory(dir)) {
                throw e;
            }
            // The bucket was removed behind our back: create it again and retry once.
            AtomicFiles.ensureDirectory(dir);
            AtomicFiles.writeVia(temp, target, p.bytes());
        } finally {
            written.accept(p.id());
        }
    }

    Batch batch() {
        return new Batch();
    }

    /** Bulk rows written by {@link BatchWriter} in groups of {@link BatchWriter#BATCH_SIZE}. */
    final class Batch {
        private final List<BatchWriter.Item> items = new ArrayList<>(BatchWriter.BATCH_SIZE);
        private final List<String> ids = new ArrayList<>(BatchWriter.BATCH_SIZE);
        private PreparedRecord single;

        void add(PreparedRecord p) {
            Path dir = bucketDirectory(p.id(), true);
            items.add(new BatchWriter.Item(tempPath(dir), dir.resolve(p.id() + RecordFiles.EXTENSION), p.bytes()));
            single = p;
            ids.add(p.id());
            if (items.size() >= BatchWriter.BATCH_SIZE) {
                flush();
            }
        }

        void flush() {
            try {
                if (items.size() == 1) {
                    write(single);
                } else {
                    BatchWriter.write(items);
                }
            } finally {
                ids.forEach(written);
                items.clear();
                ids.clear();
                single = null;
            }
        }
    }
}
