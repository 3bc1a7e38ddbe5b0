package dev.storh.doc;

import dev.storh.StorageException;
import dev.storh.fs.AtomicFiles;
import dev.storh.fs.StoreFiles;
import dev.storh.fs.SyncPool;
import java.io.IOException;
import java.nio.file.Path;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Writes a batch of record files with the same guarantees as one-by-one writes, at a fraction of
 * the fsync cost: the temp files of a batch are written and fsynced by a few threads at once (the
 * file system merges their journal commits), then renamed into place in input order (a later row
 * with the same id wins, as with sequential puts), then each touched bucket folder is fsynced
 * once. The caller returns only after all of it, so every record of the batch is durable.
 *
 * <p>Used under the collection write lock by bulk operations (putMany, putStream, importJsonl).
 * A failure removes every temp file of the batch; records of earlier batches stay.
 */
final class BatchWriter {

    /** Records per batch. */
    static final int BATCH_SIZE = 512;

    /** One file to write: its temp name, final name and bytes. */
    record Item(Path temp, Path target, byte[] bytes) {
    }

    private BatchWriter() {
    }

    /**
     * @param items files whose folders exist, temp and target in the same folder
     * @throws StorageException naming the failing file; no temp file of the batch is left behind
     */
    static void write(StoreFiles files, List<Item> items) {
        if (items.isEmpty()) {
            return;
        }
        writeTempsInParallel(files, items);
        renameInOrder(files, items);
        Set<Path> folders = new LinkedHashSet<>();
        items.forEach(item -> folders.add(item.target().getParent()));
        folders.forEach(folder -> AtomicFiles.syncDirectory(files, files.nameOf(folder)));
    }

    /**
     * Writes the files of a batch whose bytes a journal already holds durably
     * ({@link BatchJournal}): temp files without fsync, renamed in order, no folder fsync; the
     * journal's retirement makes them durable later.
     *
     * @param items files whose folders exist, temp and target in the same folder
     * @throws StorageException naming the failing file; no temp file of the batch is left behind
     */
    static void writeJournaled(StoreFiles files, List<Item> items) {
        try {
            SyncPool.forEach(items, item -> writeUnsynced(files, files.nameOf(item.temp()), item.bytes()));
        } catch (StorageException e) {
            items.forEach(item -> AtomicFiles.deleteQuietly(files, files.nameOf(item.temp())));
            throw e;
        }
        renameInOrder(files, items);
    }

    private static void writeUnsynced(StoreFiles files, String temp, byte[] bytes) {
        try (StoreFiles.Output out = files.create(temp)) {
            out.write(bytes);
        } catch (IOException | RuntimeException e) {
            AtomicFiles.deleteQuietly(files, temp);
            throw new StorageException("Could not write storage file: " + files.path(temp), e);
        }
    }

    private static void renameInOrder(StoreFiles files, List<Item> items) {
        int renamed = 0;
        try {
            for (Item item : items) {
                try {
                    files.rename(files.nameOf(item.temp()), files.nameOf(item.target()));
                } catch (IOException | RuntimeException e) {
                    throw new StorageException("Could not atomically replace storage file: " + item.target(), e);
                }
                renamed++;
            }
        } finally {
            for (int i = renamed; i < items.size(); i++) {
                AtomicFiles.deleteQuietly(files, files.nameOf(items.get(i).temp()));
            }
        }
    }

    private static void writeTempsInParallel(StoreFiles files, List<Item> items) {
        try {
            SyncPool.forEach(items, item -> AtomicFiles.writeSynced(files, files.nameOf(item.temp()), item.bytes()));
        } catch (StorageException e) {
            items.forEach(item -> AtomicFiles.deleteQuietly(files, files.nameOf(item.temp()))); // every temp of the batch
            throw e;
        }
    }
}
