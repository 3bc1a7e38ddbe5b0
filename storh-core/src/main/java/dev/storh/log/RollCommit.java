package dev.storh.log;

import dev.storh.StorageException;
import dev.storh.fs.AtomicFiles;
import dev.storh.fs.ReadOnlyFileSystem;
import dev.storh.fs.StoreFiles;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;

/**
 * The files of one roll, in two fsync round trips instead of five in a row: the sealed segment's
 * sparse index and the new manifest are written to temp files, then the segment's last lines, both
 * temp files and {@code segments/} (which holds the new, empty active segment the caller created)
 * are fsynced side by side ({@link ParallelSync#all}); then the index and the manifest are renamed
 * into place, the manifest last (the commit point of the roll), and the collection folder is
 * fsynced when the caller asks for it.
 *
 * <p>The order keeps every rule of a roll: the sealed segment's lines are durable before the manifest
 * that seals it is renamed, and each renamed file's bytes before its rename;
 * the new segment's name is durable before the manifest that names it replaces the old one; the
 * manifest's rename is durable before the call returns (or, for a batch, before the batch returns:
 * the caller fsyncs the folder). The index's rename gets no fsync of {@code segments/} of its own: a
 * sparse index only holds seek hints, and a reader that finds none (after a power cut took the
 * rename) scans the segment from its start, as the original does; the next roll's fsync of
 * {@code segments/} makes it durable. A failure leaves the old manifest in force and no temp file;
 * the caller removes the index and the new segment. Stateless; call under the collection lock.
 */
final class RollCommit {

    private RollCommit() {
    }

    /**
     * @param files the collection's byte seam
     * @param index the sparse index's name, {@code segments/<segment>.idx.jsonc}
     * @param indexBytes its content
     * @param manifestBytes the new manifest, from {@link Manifest#encode}
     * @param syncFolder whether the collection folder is fsynced after the manifest's rename
     * @param dataSync the fsync of the sealed segment's last lines, run side by side with the
     *     roll's own (the manifest that seals the segment is renamed only after it), or {@code null}
     * @throws StorageException naming the temp file, file or folder that failed; the old manifest is
     *     then in force (one put back after a failed folder fsync), and no temp file is left
     */
    static void write(StoreFiles files, String index, byte[] indexBytes, byte[] manifestBytes, boolean syncFolder,
            ParallelSync.Task dataSync) {
        byte[] old = syncFolder ? oldManifest(files) : null; // only a failed folder fsync here puts it back
        String indexTemp = LogFiles.tempName(index);
        String manifestTemp = LogFiles.tempName(LogFiles.MANIFEST);
        List<String> temps = new ArrayList<>(2);
        List<StoreFiles.Output> outputs = new ArrayList<>(2);
        try {
            try {
                outputs.add(written(files, indexTemp, indexBytes, temps));
                outputs.add(written(files, manifestTemp, manifestBytes, temps));
                StoreFiles.Output indexOut = outputs.get(0);
                StoreFiles.Output manifestOut = outputs.get(1);
                List<ParallelSync.Task> syncs = new ArrayList<>(4);
                if (dataSync != null) {
                    syncs.add(dataSync); // first: the caller's thread runs it
                }
                syncs.add(() -> sync(files, indexOut, indexTemp));
                syncs.add(() -> sync(files, manifestOut, manifestTemp));
                syncs.add(() -> AtomicFiles.syncDirectory(files, LogFiles.SEGMENTS));
                ParallelSync.all(syncs);
            } finally {
                closeAll(files, outputs);
            }
            rename(files, indexTemp, index);
            temps.remove(indexTemp);
            rename(files, manifestTemp, LogFiles.MANIFEST); // the commit point
            temps.remove(manifestTemp);
        } catch (RuntimeException e) {
            temps.forEach(t -> AtomicFiles.deleteQuietly(files, t));
            throw e;
        }
        if (syncFolder) {
            try {
                AtomicFiles.syncDirectory(files, "");
            } catch (StorageException e) {
                Manifest.restore(files, old, manifestBytes, e);
                throw e;
            }
        }
    }

    private static StoreFiles.Output written(StoreFiles files, String temp, byte[] bytes, List<String> temps) {
        StoreFiles.Output out;
        try {
            out = files.create(temp);
        } catch (IOException | RuntimeException e) {
            throw new StorageException("Could not open temporary storage file for writing: " + files.path(temp)
                    + ReadOnlyFileSystem.hint(e), e);
        }
        temps.add(temp);
        try {
            out.write(bytes);
        } catch (IOException | RuntimeException e) {
            try {
                out.close();
            } catch (IOException | RuntimeException closing) {
                e.addSuppressed(closing);
            }
            throw new StorageException("Could not write storage file: " + files.path(temp), e);
        }
        return out;
    }

    private static void sync(StoreFiles files, StoreFiles.Output out, String temp) {
        try {
            out.sync();
        } catch (IOException | RuntimeException e) {
            throw new StorageException("Could not sync storage file: " + files.path(temp), e);
        }
    }

    private static void closeAll(StoreFiles files, List<StoreFiles.Output> outputs) {
        StorageException failure = null;
        for (StoreFiles.Output out : outputs) {
            try {
                out.close();
            } catch (IOException | RuntimeException e) {
                if (failure == null) {
                    failure = new StorageException("Could not close a temporary file of a roll in " + files.path(""), e);
                }
            }
        }
        if (failure != null) {
            throw failure;
        }
    }

    private static void rename(StoreFiles files, String from, String to) {
        try {
            files.rename(from, to);
        } catch (IOException | RuntimeException e) {
            throw new StorageException("Could not atomically replace storage file: " + files.path(to)
                    + ReadOnlyFileSystem.hint(e), e);
        }
    }

    /** @return the manifest's bytes now, to put back if the new one's folder fsync fails; null when unreadable */
    private static byte[] oldManifest(StoreFiles files) {
        try (InputStream in = files.open(LogFiles.MANIFEST)) {
            return in.readAllBytes();
        } catch (IOException e) {
            return null;
        }
    }
}
