package dev.storh.doc;

import dev.storh.StorageException;
import dev.storh.fs.AtomicFiles;
import dev.storh.fs.ForwardingFiles;
import dev.storh.fs.StoreFiles;
import java.io.IOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A collection's byte seam that can undo the write in progress. While an {@link Undo} is open
 * ({@link #begin()}, under the collection write lock), every file a write replaces, appends to or
 * deletes has its earlier state remembered first (its bytes, or its size before an append, or that
 * it did not exist), and every folder it creates is noted; temp files ({@code .*.tmp}) are not,
 * since their writers remove them. {@link Undo#rollback()} puts each back, newest first, so a write
 * reported failed leaves the collection's files byte for byte as before.
 *
 * <p>A failed folder fsync cannot be undone: the rename it follows is already visible, and putting
 * the old bytes back would need a folder fsync too. So while an undo is open a failed folder fsync
 * is noted instead of thrown, the write completes (records and indexes agree), and the caller gets
 * the fsync's error at the end ({@link Undo#syncFailure()}). Thread-safe: a write's temp files may
 * be written from several threads.
 */
final class UndoFiles extends ForwardingFiles {

    private final AtomicLong undoTemps = new AtomicLong();
    private volatile Undo open;

    /**
     * @param files the collection's seam
     */
    UndoFiles(StoreFiles files) {
        super(files);
    }

    /**
     * Starts remembering; call under the collection write lock and end with {@link Undo#end()} or
     * {@link Undo#rollback()}.
     *
     * @return the undo log of the write that starts now
     */
    Undo begin() {
        Undo undo = new Undo();
        open = undo;
        return undo;
    }

    /** Drops a step whose operation failed before it changed anything. */
    private static void forget(Undo undo, Undo.Step step) {
        if (undo != null) {
            undo.forget(step);
        }
    }

    private static boolean isTemp(String name) {
        String leaf = name.substring(name.lastIndexOf('/') + 1);
        return leaf.startsWith(".") && leaf.endsWith(DocLayout.TEMP_SUFFIX);
    }

    @Override
    public Output create(String name) throws IOException {
        Undo undo = open;
        Undo.Step step = undo == null || isTemp(name) ? null : undo.rememberFile(name);
        try {
            return super.create(name);
        } catch (IOException | RuntimeException e) {
            forget(undo, step); // nothing was created
            throw e;
        }
    }

    @Override
    public Output append(String name) throws IOException {
        Undo undo = open;
        Undo.Step step = undo == null ? null : undo.rememberSize(name);
        try {
            return super.append(name);
        } catch (IOException | RuntimeException e) {
            forget(undo, step);
            throw e;
        }
    }

    /**
     * {@link #append(String)} of a file whose size the caller looked at under the collection write
     * lock it still holds (nothing else can have changed it since): the undo keeps that size
     * without a look of its own.
     *
     * @param name the file
     * @param sizeNow its size now, {@code -1} when it is absent (an undo then removes it)
     * @return the output, appending at the end
     * @throws IOException as {@link #append(String)}
     */
    Output append(String name, long sizeNow) throws IOException {
        Undo undo = open;
        Undo.Step step = undo == null ? null : undo.rememberSize(name, sizeNow);
        try {
            return super.append(name);
        } catch (IOException | RuntimeException e) {
            forget(undo, step);
            throw e;
        }
    }

    @Override
    public void rename(String from, String to) throws IOException {
        Undo undo = open;
        Undo.Step target = undo == null ? null : undo.rememberFile(to);
        Undo.Step source = undo == null || isTemp(from) ? null : undo.rememberFile(from);
        try {
            super.rename(from, to);
        } catch (IOException | RuntimeException e) {
            forget(undo, target); // a failed rename changed neither name
            forget(undo, source);
            throw e;
        }
    }

    @Override
    public void delete(String name) throws IOException {
        Undo undo = open;
        Undo.Step step = undo == null || isTemp(name) ? null : undo.rememberFile(name);
        try {
            super.delete(name);
        } catch (IOException | RuntimeException e) {
            forget(undo, step);
            throw e;
        }
    }

    /**
     * Removes a file without remembering it: for the last change of an atomic write, after which
     * nothing of the write can fail (so no undo has to bring the file back), whose own failure
     * changed nothing. Saves reading the file's bytes for an undo that cannot need them.
     *
     * @param name the file
     * @throws IOException as {@link StoreFiles#delete}
     */
    void deleteAsLastChange(String name) throws IOException {
        super.delete(name);
    }

    @Override
    public void createDirectories(String dir) throws IOException {
        Undo undo = open;
        if (undo != null) {
            undo.rememberMissingFolders(dir);
        }
        super.createDirectories(dir);
    }

    @Override
    public void syncDirectory(String dir) throws IOException {
        try {
            super.syncDirectory(dir);
        } catch (IOException e) {
            Undo undo = open;
            if (undo == null) {
                throw e;
            }
            undo.syncFailed(dir, e);
        }
    }

    /** What one write changed, to put back. */
    final class Undo {

        /** One name's earlier state: bytes (or {@code null}: absent), a size before an append, or a new folder. */
        record Step(String name, byte[] bytes, long size, boolean folder, IOException unreadable) {
        }

        private final List<Step> steps = new ArrayList<>();
        private final Set<String> remembered = new HashSet<>();
        private String unsyncedFolder;
        private IOException unsynced;

        /** @return the step added, or {@code null} when the name's first state is already kept */
        private synchronized Step rememberFile(String name) {
            if (!remembered.add(name)) {
                return null; // the first state a write found is the one to put back
            }
            try {
                return add(new Step(name, read(name), -1, false, null));
            } catch (java.io.UncheckedIOException e) {
                return add(new Step(name, null, -1, false, e.getCause())); // cannot be put back: the undo says so
            }
        }

        private Step add(Step step) {
            steps.add(step);
            return step;
        }

        private byte[] read(String name) {
            try {
                return files.readIfExists(name);
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }

        private synchronized Step rememberSize(String name, long size) {
            return remembered.add(name) ? add(new Step(name, null, size, false, null)) : null;
        }

        private synchronized Step rememberSize(String name) {
            if (!remembered.add(name)) {
                return null;
            }
            try {
                StoreFiles.Entry entry = files.stat(name).orElse(null);
                return add(new Step(name, null, entry == null ? -1 : entry.size(), false, null));
            } catch (IOException e) {
                return add(new Step(name, null, -1, false, e));
            }
        }

        /**
         * Drops a step whose operation failed before it changed anything: by identity, searched
         * from the newest (the step of the operation that just failed), so that a write that tries
         * many deletes of absent files stays linear.
         */
        private synchronized void forget(Step step) {
            if (step == null) {
                return;
            }
            for (int i = steps.size() - 1; i >= 0; i--) {
                if (steps.get(i) == step) {
                    steps.remove(i);
                    remembered.remove(step.name());
                    return;
                }
            }
        }

        private synchronized void rememberMissingFolders(String dir) throws IOException {
            Deque<String> missing = new ArrayDeque<>();
            for (String p = dir; !p.isEmpty() && files.stat(p).isEmpty(); p = AtomicFiles.parentName(p)) {
                missing.push(p);
            }
            for (String p : missing) {
                if (remembered.add(p)) {
                    steps.add(new Step(p, null, -1, true, null));
                }
            }
        }

        private synchronized void syncFailed(String dir, IOException e) {
            if (unsynced == null) {
                unsyncedFolder = dir;
                unsynced = e;
            }
        }

        /** Stops remembering: the write is done (or undone). */
        void end() {
            if (open == this) {
                open = null;
            }
        }

        /**
         * @return the first folder fsync that failed while the undo was open, as the error to report
         *     (the write itself is complete), or {@code null}
         */
        synchronized StorageException syncFailure() {
            return unsynced == null ? null
                    : new StorageException("Could not sync storage directory: " + files.path(unsyncedFolder), unsynced);
        }

        /**
         * Ends the undo and puts every remembered name back, newest first: earlier bytes through a temp
         * file and a rename, a new file or folder removed, an append cut back.
         *
         * @throws StorageException when something could not be put back (the others still are); the
         *     collection may then differ from before
         */
        synchronized void rollback() {
            end();
            StorageException failed = null;
            for (int i = steps.size() - 1; i >= 0; i--) {
                try {
                    restore(steps.get(i));
                } catch (IOException | RuntimeException e) {
                    if (failed == null) {
                        failed = new StorageException("Could not undo a failed write: " + files.path(steps.get(i).name()), e);
                    } else {
                        failed.addSuppressed(e);
                    }
                }
            }
            if (failed != null) {
                throw failed;
            }
        }

        private void restore(Step step) throws IOException {
            String name = step.name();
            if (step.unreadable() != null) {
                throw step.unreadable();
            }
            if (step.folder()) {
                if (files.exists(name) && files.list(name).isEmpty()) {
                    files.delete(name);
                    files.syncDirectory(AtomicFiles.parentName(name));
                }
            } else if (step.bytes() != null) {
                byte[] now = read(name);
                if (!java.util.Arrays.equals(now, step.bytes())) {
                    AtomicFiles.writeVia(files, DocLayout.undoTemp(name, undoTemps.incrementAndGet()), name, step.bytes());
                }
            } else if (step.size() >= 0) {
                StoreFiles.Entry now = files.stat(name).orElse(null);
                if (now == null || now.size() != step.size()) {
                    try (Output out = files.append(name)) {
                        out.truncate(step.size());
                        out.sync();
                    }
                }
            } else if (files.exists(name)) {
                files.delete(name);
                files.syncDirectory(AtomicFiles.parentName(name));
            }
        }
    }
}
