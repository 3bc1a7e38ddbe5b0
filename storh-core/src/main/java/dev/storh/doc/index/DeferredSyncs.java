package dev.storh.doc.index;

import dev.storh.StorageException;
import dev.storh.fs.ForwardingFiles;
import dev.storh.fs.StoreFiles;
import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

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

    /**
     * @param files the seam the writes and, later, the fsyncs go to
     */
    DeferredSyncs(StoreFiles files) {
        super(files);
    }

    @Override
    public Output create(String name) throws IOException {
        return new Deferring(name, super.create(name));
    }

    @Override
    public Output append(String name) throws IOException {
        return new Deferring(name, super.append(name));
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
     * Does the fsyncs noted so far: every file that still exists, then every folder. Call under the
     * collection write lock.
     *
     * @return how many fsyncs were done
     * @throws StorageException naming the file or folder that could not be synced; what was not
     *     synced stays noted
     */
    int syncAll() {
        List<String> fileNames;
        List<String> folderNames;
        synchronized (lock) {
            fileNames = new ArrayList<>(dirtyFiles);
            folderNames = new ArrayList<>(dirtyFolders);
        }
        int synced = 0;
        for (String name : fileNames) {
            try {
                if (files.stat(name).isPresent()) { // append would create a file deleted meanwhile
                    try (Output out = files.append(name)) {
                        out.sync();
                    }
                    synced++;
                }
            } catch (NoSuchFileException gone) {
                // deleted meanwhile: its folder is noted
            } catch (IOException | RuntimeException e) {
                throw new StorageException("Could not sync index file: " + files.path(name), e);
            }
            synchronized (lock) {
                dirtyFiles.remove(name);
            }
        }
        for (String dir : folderNames) {
            try {
                if (files.stat(dir).isPresent()) {
                    files.syncDirectory(dir);
                    synced++;
                }
            } catch (IOException | RuntimeException e) {
                throw new StorageException("Could not sync index folder: " + files.path(dir), e);
            }
            synchronized (lock) {
                dirtyFolders.remove(dir);
            }
        }
        return synced;
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
