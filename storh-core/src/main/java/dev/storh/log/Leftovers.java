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

/**
 * Removes what interrupted compactions and index rebuilds leave behind, at open under the collection
 * lock: folders {@code segments.compact-*}, {@code index.rebuild-*},
 * {@code index.backup-*}, and {@code compact-*} files the manifest does not reference (a reference covers
 * an entry's {@code file}, its derived {@code .idx.jsonc} name and its {@code index}). When the manifest
 * cannot be parsed, no file is deleted. Stateless.
 */
final class Leftovers {

    private Leftovers() {
    }

    /** Deletes leftover folders and unreferenced compaction output. */
    static void delete(LogState state) {
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
