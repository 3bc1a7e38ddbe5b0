package dev.storh.log;

import dev.storh.StorageException;
import dev.storh.fs.AtomicFiles;
import dev.storh.fs.StoreFiles;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Removes what interrupted compactions and index rebuilds leave behind, at open under the collection
 * lock: folders {@code segments.compact-*}, {@code index.rebuild-*},
 * {@code index.backup-*}, and {@code compact-*} files the manifest does not reference (a reference covers
 * an entry's {@code file}, its derived {@code .idx.jsonc} name and its {@code index}). When the manifest
 * cannot be parsed, no file is deleted. Every name is listed and deleted through the log's byte seam.
 * Stateless.
 */
final class Leftovers {

    private Leftovers() {
    }

    /**
     * Deletes the temp files of the log's atomic writes that a crash left behind:
     * {@code .manifest.jsonc.<12 hex>.tmp} in the collection folder and, in {@code segments/},
     * {@code .<segment or index file>.<12 hex>.tmp} (sparse indexes {@code .seg-N.idx.jsonc.*.tmp},
     * compaction indexes {@code .compact-*.idx.jsonc.*.tmp}, repair rewrites {@code .seg-N.ndjson.*.tmp}),
     * see {@link LogFiles#isTemp}. The log writes these only under the collection lock, as the original
     * does, so with the lock held every one of them is an orphan, however young. Other temp names are
     * left to the writer-marker sweep.
     *
     * @param state the log, whose collection lock the caller holds
     * @return how many files were deleted
     */
    static int sweepTemps(LogState state) {
        int removed = 0;
        removed += deleteTemps(state, "");
        removed += deleteTemps(state, LogFiles.SEGMENTS);
        if (removed > 0) {
            AtomicFiles.syncDirectory(state.files, "");
            AtomicFiles.syncDirectory(state.files, LogFiles.SEGMENTS);
        }
        return removed;
    }

    private static int deleteTemps(LogState state, String folder) {
        int removed = 0;
        for (String name : list(state, folder, "Could not list log folder for temp files: ")) {
            String child = child(folder, name);
            if (LogFiles.isTemp(folder, name) && state.isFile(child) && AtomicFiles.deleteQuietly(state.files, child)) {
                removed++;
            }
        }
        return removed;
    }

    /**
     * Deletes leftover folders, temp files and unreferenced compaction output, after the manifest's
     * check at open ({@link ManifestShape#checkOnOpen}): a manifest whose damage would lose segments
     * stops the open here, before anything is deleted.
     *
     * @throws StorageException {@code "Damaged log manifest <path>: ..."}
     */
    static void delete(LogState state) {
        ManifestShape.checkOnOpen(state);
        sweepTemps(state);
        for (String name : list(state, "", "Could not list log collection: ")) {
            if (LogFiles.isLeftoverDirectory(name) && kind(state.files, name) == StoreFiles.Entry.Kind.DIRECTORY) {
                deleteTree(state.files, name);
            }
        }
        Manifest.Data m;
        try {
            m = Manifest.read(state.files);
        } catch (StorageException unparsable) {
            return;
        }
        Set<String> referenced = new HashSet<>();
        if (m != null) {
            List<Map<String, Object>> entries = new ArrayList<>(m.sealed());
            if (m.active() != null) {
                entries.add(m.active());
            }
            for (Map<String, Object> e : entries) {
                String file = (String) e.get("file");
                referenced.add(file);
                referenced.add(LogFiles.indexName(file));
                if (e.get("index") instanceof String idx) {
                    referenced.add(idx);
                }
            }
        }
        boolean deleted = false;
        for (String name : list(state, LogFiles.SEGMENTS, "Could not list log segments: ")) {
            if (LogFiles.isCompactFile(name) && !referenced.contains(name)) {
                deleted |= AtomicFiles.deleteQuietly(state.files, LogFiles.segment(name));
            }
        }
        if (deleted) {
            AtomicFiles.syncDirectory(state.files, LogFiles.SEGMENTS); // nothing deleted: nothing to make durable
        }
    }

    private static List<String> list(LogState state, String folder, String failure) {
        try {
            return state.files.list(folder);
        } catch (IOException e) {
            throw new StorageException(failure + state.files.path(folder), e);
        }
    }

    private static String child(String folder, String name) {
        return folder.isEmpty() ? name : folder + "/" + name;
    }

    private static StoreFiles.Entry.Kind kind(StoreFiles files, String name) {
        try {
            return files.stat(name).map(StoreFiles.Entry::kind).orElse(null);
        } catch (IOException e) {
            return null;
        }
    }

    /** Deletes a folder and what is below it, deepest first, not following symbolic links. */
    private static void deleteTree(StoreFiles files, String name) {
        try {
            if (kind(files, name) == StoreFiles.Entry.Kind.DIRECTORY) {
                for (String child : files.list(name)) {
                    deleteTree(files, name + "/" + child);
                }
            }
            files.delete(name);
        } catch (IOException e) {
            throw new StorageException("Could not delete folder: " + files.path(name), e);
        }
    }
}
