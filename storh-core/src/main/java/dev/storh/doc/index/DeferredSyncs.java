package dev.storh.doc.index;

import dev.storh.StorageException;
import dev.storh.fs.ForwardingFiles;
import dev.storh.fs.StoreFiles;
import dev.storh.fs.SyncPool;
import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The byte seam of index maintenance: every write goes through at once, but the fsyncs it asks for
 * (of a file, of a folder) are noted instead of done, and done together by {@link #syncAll()}.
 * Index files are derived data: while a write of them may not be durable, the writer's marker is
 * (it is registered, and its folder fsynced, before the first write), so a power cut or a kill in
 * that window leaves a stale marker, and the next open rebuilds the indexes from the records. The
 * writer removes its marker only after {@link #syncAll()}.
 *
 * <p>A noted file is tracked by name through renames (a temp file renamed over its target) and
 * forgotten when deleted (its folder is noted instead). {@link #syncAll()} runs under the
 * collection write lock, when no write is half done. Thread-safe.
 */
final class DeferredSyncs extends ForwardingFiles {

    private final Object lock = new Object();
    private final Set<String> dirtyFiles = new LinkedHashSet<>();
    private final Set<String> dirtyFolders = new LinkedHashSet<>();

    private final boolean deferFiles;

    /**
     * @param files the seam the writes and, later, the fsyncs go to
     */
    DeferredSyncs(StoreFiles files) {
        this(files, true);
    }

    /**
     * @param files the seam the writes and, later, the fsyncs go to
     * @param deferFiles whether file fsyncs wait too; without, only folder fsyncs do (a new tree
     *     built before it is renamed in: each folder is then fsynced once, not once per file)
     */
    DeferredSyncs(StoreFiles files, boolean deferFiles) {
        super(files);
        this.deferFiles = deferFiles;
    }

    @Override
    public Output create(String name) throws IOException {
        return deferFiles ? new Deferring(name, super.create(name)) : super.create(name);
    }

    @Override
    public Output append(String name) throws IOException {
        return deferFiles ? new Deferring(name, super.append(name)) : super.append(name);
    }

    @Override
    public void rename(String from, String to) throws IOException {
        super.rename(from, to);
        synchronized (lock) {
            if (dirtyFiles.remove(from)) {
                dirtyFiles.add(to);
            }
        }
    }

    @Override
    public void delete(String name) throws IOException {
        super.delete(name);
        synchronized (lock) {
            dirtyFiles.remove(name);
        }
    }

    @Override
    public void syncDirectory(String dir) {
        synchronized (lock) {
            dirtyFolders.add(dir);
        }
    }

    /**
     * Does the fsyncs noted so far: every file that still exists, then every folder, a few at a
     * time ({@link SyncPool}). Call under the collection write lock.
     *
     * @return how many fsyncs were done
     * @throws StorageException naming a file or folder that could not be synced; what was not
     *     synced stays noted
     */
    int syncAll() {
        List<String> fileNames;
        List<String> folderNames;
        synchronized (lock) {
            fileNames = new ArrayList<>(dirtyFiles);
            folderNames = new ArrayList<>(dirtyFolders);
        }
        AtomicInteger synced = new AtomicInteger();
        SyncPool.forEach(fileNames, name -> {
            if (syncFile(name)) {
                synced.incrementAndGet();
            }
            synchronized (lock) {
                dirtyFiles.remove(name);
            }
        });
        SyncPool.forEach(folderNames, dir -> {
            try {
                if (files.stat(dir).isPresent()) {
                    files.syncDirectory(dir);
                    synced.incrementAndGet();
                }
            } catch (IOException | RuntimeException e) {
                throw new StorageException("Could not sync index folder: " + files.path(dir), e);
            }
            synchronized (lock) {
                dirtyFolders.remove(dir);
            }
        });
        return synced.get();
    }

    /** @return whether the file was there and fsynced (one deleted meanwhile has its folder noted) */
    private boolean syncFile(String name) {
        try {
            if (files.stat(name).isEmpty()) { // append would create a file deleted meanwhile
                return false;
            }
            try (Output out = files.append(name)) {
                out.sync();
            }
            return true;
        } catch (NoSuchFileException gone) {
            return false;
        } catch (IOException | RuntimeException e) {
            throw new StorageException("Could not sync index file: " + files.path(name), e);
        }
    }

    /** An open index file whose fsync is noted, not done. */
    private final class Deferring extends dev.storh.fs.ForwardingOutput {
        private final String name;

        Deferring(String name, Output out) {
            super(out);
            this.name = name;
        }

        @Override
        public void sync() {
            note();
        }

        @Override
        public void syncData() {
            note();
        }

        private void note() {
            synchronized (lock) {
                dirtyFiles.add(name);
            }
        }
    }
}
