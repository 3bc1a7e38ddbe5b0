package dev.storh.doc;

import dev.storh.StorageException;
import dev.storh.fs.AtomicFiles;
import dev.storh.fs.StoreFiles;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

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

    private static final int THREADS = Math.max(2, Math.min(4, Runtime.getRuntime().availableProcessors() * 2));
    private static final AtomicInteger THREAD_NUMBER = new AtomicInteger();
    private static final ExecutorService SYNCERS = Executors.newFixedThreadPool(THREADS, r -> {
        Thread t = new Thread(r, "storh-fsync-" + THREAD_NUMBER.incrementAndGet());
        t.setDaemon(true);
        return t;
    });

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
        Set<Path> folders = new LinkedHashSet<>();
        items.forEach(item -> folders.add(item.target().getParent()));
        folders.forEach(folder -> AtomicFiles.syncDirectory(files, files.nameOf(folder)));
    }

    private static void writeTempsInParallel(StoreFiles files, List<Item> items) {
        int slices = Math.min(THREADS, items.size());
        List<Future<?>> futures = new ArrayList<>(slices);
        for (int s = 0; s < slices; s++) {
            int slice = s;
            futures.add(SYNCERS.submit(() -> {
                for (int i = slice; i < items.size(); i += slices) {
                    AtomicFiles.writeSynced(files, files.nameOf(items.get(i).temp()), items.get(i).bytes());
                }
                return null;
            }));
        }
        StorageException failure = null;
        for (Future<?> f : futures) {
            try {
                f.get();
            } catch (ExecutionException e) {
                if (failure == null) {
                    failure = e.getCause() instanceof StorageException se ? se
                            : new StorageException("Could not write storage files", e.getCause());
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                if (failure == null) {
                    failure = new StorageException("Interrupted while writing storage files", e);
                }
            }
        }
        if (failure != null) {
            // Wait for the rest, then remove every temp file of the batch.
            for (Future<?> f : futures) {
                try {
                    f.get();
                } catch (ExecutionException | InterruptedException ignored) {
                    // already failing
                }
            }
            items.forEach(item -> AtomicFiles.deleteQuietly(files, files.nameOf(item.temp())));
            throw failure;
        }
    }
}
