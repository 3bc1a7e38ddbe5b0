package dev.storh.log;

import dev.storh.StorageException;
import dev.storh.fs.AtomicFiles;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Removes what interrupted compactions and index rebuilds leave behind, at open under the collection
 * lock: folders {@code segments.compact-*}, {@code index.rebuild-*},
 * {@code index.backup-*}, and {@code compact-*} files the manifest does not reference (a reference covers
 * an entry's {@code file}, its derived {@code .idx.jsonc} name and its {@code index}). When the manifest
 * cannot be parsed, no file is deleted. Stateless.
 */
final class Leftovers {

    private static final Pattern MANIFEST_TEMP = Pattern.compile("^\\.manifest\\.jsonc\\.[0-9a-f]{12}\\.tmp$");
    private static final Pattern SEGMENT_TEMP = Pattern.compile(
            "^\\.(seg-\\d+|compact-[0-9a-f]+-\\d+)\\.(ndjson|idx\\.jsonc)\\.[0-9a-f]{12}\\.tmp$");

    private Leftovers() {
    }

    /**
     * Deletes the temp files of the log's atomic writes that a crash left behind:
     * {@code .manifest.jsonc.<12 hex>.tmp} in the collection folder and, in {@code segments/},
     * {@code .<segment or index file>.<12 hex>.tmp} (sparse indexes {@code .seg-N.idx.jsonc.*.tmp},
     * compaction indexes {@code .compact-*.idx.jsonc.*.tmp}, repair rewrites {@code .seg-N.ndjson.*.tmp}).
     * The log writes these only under the collection lock, as the original does, so with the lock held
     * every one of them is an orphan, however young. Other temp names are left to the writer-marker sweep.
     *
     * @param state the log, whose collection lock the caller holds
     * @return how many files were deleted
     */
    static int sweepTemps(LogState state) {
        int removed = 0;
        removed += deleteTemps(state.dir, MANIFEST_TEMP);
        removed += deleteTemps(state.segmentsDir, SEGMENT_TEMP);
        if (removed > 0) {
            AtomicFiles.syncDirectory(state.dir);
            AtomicFiles.syncDirectory(state.segmentsDir);
        }
        return removed;
    }

    private static int deleteTemps(Path dir, Pattern names) {
        int removed = 0;
        try (DirectoryStream<Path> temps = Files.newDirectoryStream(dir, ".*.tmp")) {
            for (Path temp : temps) {
                if (names.matcher(temp.getFileName().toString()).matches()
                        && Files.isRegularFile(temp, java.nio.file.LinkOption.NOFOLLOW_LINKS) && AtomicFiles.deleteQuietly(temp)) {
                    removed++;
                }
            }
        } catch (IOException e) {
            throw new StorageException("Could not list log folder for temp files: " + dir, e);
        }
        return removed;
    }

    /** Deletes leftover folders, temp files and unreferenced compaction output. */
    static void delete(LogState state) {
        sweepTemps(state);
        try (DirectoryStream<Path> children = Files.newDirectoryStream(state.dir)) {
            for (Path child : children) {
                if (Files.isDirectory(child) && LogFiles.isLeftoverDirectory(child.getFileName().toString())) {
                    AtomicFiles.deleteTree(child);
                }
            }
        } catch (IOException e) {
            throw new StorageException("Could not list log collection: " + state.dir, e);
        }
        Manifest.Data m;
        try {
            m = Manifest.read(state.manifestFile);
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
        try (DirectoryStream<Path> files = Files.newDirectoryStream(state.segmentsDir)) {
            for (Path f : files) {
                String name = f.getFileName().toString();
                if (LogFiles.isCompactFile(name) && !referenced.contains(name)) {
                    AtomicFiles.deleteQuietly(f);
                }
            }
        } catch (IOException e) {
            throw new StorageException("Could not list log segments: " + state.segmentsDir, e);
        }
        AtomicFiles.syncDirectory(state.segmentsDir);
    }

}
