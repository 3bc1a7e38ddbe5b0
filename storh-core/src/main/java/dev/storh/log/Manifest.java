package dev.storh.log;

import dev.storh.StorageException;
import dev.storh.fs.AtomicFiles;
import dev.storh.fs.ReadOnlyFileSystem;
import dev.storh.json.CanonicalJson;
import dev.storh.fs.StoreFiles;
import dev.storh.json.Jsonc;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.NoSuchFileException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * {@code manifest.jsonc}, the list of a log's segments, written as
 * one compact JSON line plus LF by atomic replace (temp {@code .manifest.jsonc.<12 hex>.tmp}, fsync,
 * rename, folder fsync). The rename is the commit point of a roll and of a compaction.
 *
 * <pre>
 * {"nextSegment":2,"sealed":[],"active":{"file":"seg-000001.ndjson","max":null,"min":null,"records":0,"ordered":true}}
 * nextSegment  the lowest number the next new seg-N may take
 * sealed       [{file, index, max, min, records, ordered[, compacted]}, …] in scan order
 * active       {file, max, min, records, ordered}: the segment appends go to
 * </pre>
 *
 * Statistics are advisory (the original leaves the active entry's stale between opens): readers
 * recompute them by scanning. Reading accepts JSONC (comments, trailing commas, pretty printing);
 * sealed items that are not objects are skipped and kept when rewriting, as are unknown keys (a
 * manifest without {@code sealed} or {@code active}, or with a sealed object without a string
 * {@code file}, stops a writable open: {@link ManifestShape}). A missing or non-integer {@code nextSegment} counts as 1.
 */
final class Manifest {

    /**
     * A parsed manifest.
     *
     * @param nextSegment lowest number for the next new segment
     * @param sealed valid sealed entries in order
     * @param invalidSealed sealed items that are not usable entries, kept when rewriting
     * @param active the active entry, or {@code null} when missing or unusable
     * @param extra unknown top-level keys
     */
    record Data(long nextSegment, List<Map<String, Object>> sealed, List<Object> invalidSealed,
            Map<String, Object> active, Map<String, Object> extra) {
    }

    private Manifest() {
    }

    /**
     * The identity of one manifest version, to notice another process's rewrite (W11): every rewrite
     * is a rename, so it changes the file's identity (inode); size and nanosecond mtime count too
     * ({@link StoreFiles#version}). Asked as {@link StoreFiles#likelyFileVersion}: an open log's
     * manifest is there, so the local seam answers with one {@code lstat} (every append and every
     * catch-up asks).
     *
     * @param files the collection's byte seam
     * @return the manifest's version, or {@code null} when it does not exist or cannot be read
     */
    static Object stamp(StoreFiles files) {
        try {
            return files.likelyFileVersion(LogFiles.MANIFEST).orElse(null);
        } catch (IOException e) {
            return null;
        }
    }

    /**
     * @param files the collection's byte seam
     * @return the parsed manifest, or {@code null} when the file does not exist
     * @throws StorageException {@code "Could not read log manifest: <path>"} when it exists but is not a
     *     JSONC object
     */
    @SuppressWarnings("unchecked")
    static Data read(StoreFiles files) {
        Map<String, Object> root;
        try {
            root = Jsonc.decodeObject(readAll(files));
        } catch (NoSuchFileException e) {
            return null;
        } catch (IOException | RuntimeException e) {
            throw new StorageException("Could not read log manifest: " + files.path(LogFiles.MANIFEST) + " ("
                    + e.getMessage() + ")", e);
        }
        long next = root.get("nextSegment") instanceof Long n ? n : 1;
        List<Map<String, Object>> sealed = new ArrayList<>();
        List<Object> invalid = new ArrayList<>();
        if (root.get("sealed") instanceof List<?> items) {
            for (Object item : items) {
                if (item instanceof Map<?, ?> m && m.get("file") instanceof String) {
                    sealed.add((Map<String, Object>) m);
                } else {
                    invalid.add(item);
                }
            }
        }
        Map<String, Object> active = root.get("active") instanceof Map<?, ?> m && m.get("file") instanceof String
                ? (Map<String, Object>) m : null;
        Map<String, Object> extra = new LinkedHashMap<>(root);
        extra.keySet().removeAll(List.of("nextSegment", "sealed", "active"));
        return new Data(next, sealed, invalid, active, extra);
    }

    /**
     * @param nextSegment lowest number for the next new segment
     * @param sealed sealed segments in scan order
     * @param invalidSealed unusable sealed items to keep
     * @param active the active segment
     * @param extra unknown top-level keys to keep
     * @return the manifest bytes: compact JSON, keys {@code nextSegment, sealed, active}, then unknown keys, LF
     */
    static byte[] encode(long nextSegment, List<Segment> sealed, List<Object> invalidSealed, Segment active,
            Map<String, Object> extra) {
        // The bytes CanonicalJson.encodeCompact gives for {nextSegment, sealed, active, extra...}, written
        // piece by piece so that each sealed entry's text is the one its segment kept since it last changed:
        // a roll encodes one new entry, not every entry again (the manifest grows with the segments).
        StringBuilder out = new StringBuilder(96 + 176 * (sealed.size() + invalidSealed.size() + 1));
        out.append("{\"nextSegment\":").append(nextSegment).append(",\"sealed\":[");
        int i = 0;
        for (Segment s : sealed) {
            out.append(i++ > 0 ? "," : "").append(s.manifestText());
        }
        for (Object invalid : invalidSealed) {
            out.append(i++ > 0 ? "," : "").append(CanonicalJson.compactText(invalid));
        }
        Map<String, Object> activeEntry = active.toManifest();
        activeEntry.remove("index");
        activeEntry.remove("compacted");
        out.append("],\"active\":").append(CanonicalJson.compactText(activeEntry));
        extra.forEach((key, value) -> {
            if (!TOP_KEYS.contains(key)) {
                out.append(',').append(CanonicalJson.compactText(key)).append(':').append(CanonicalJson.compactText(value));
            }
        });
        return out.append("}\n").toString().getBytes(StandardCharsets.UTF_8);
    }

    /** The keys {@link #encode} writes first; an extra key with one of these names is not written again. */
    private static final java.util.Set<String> TOP_KEYS = java.util.Set.of("nextSegment", "sealed", "active");

    /**
     * Replaces the manifest atomically (the commit point of a roll, a compaction and a repair),
     * unless it already holds exactly these bytes and {@code always} is false. When the swap fails
     * after its rename (the folder fsync failed), the old manifest is put back, so a failure always
     * leaves the old manifest in force.
     *
     * @param files the collection's byte seam
     * @param bytes from {@link #encode}
     * @param always write even when the bytes on disk are the same (a new identity for other processes)
     * @return whether the file was written
     * @throws StorageException naming the path on failure; the old manifest stays in force (a failure
     *     to put it back is attached as suppressed)
     */
    static boolean write(StoreFiles files, byte[] bytes, boolean always) {
        return write(files, bytes, always, true);
    }

    /**
     * {@link #write(StoreFiles, byte[], boolean)}, with or without the collection folder's fsync after
     * the rename. Without it the new manifest is in force for every reader at once, but a power cut
     * may still bring the previous one back: the caller fsyncs the folder itself (with
     * {@link AtomicFiles#syncDirectory(StoreFiles, String)} of {@code ""}) before anything that
     * depends on the new manifest surviving a crash is acknowledged.
     *
     * @param syncFolder whether to fsync the collection folder after the rename
     * @return whether the file was written
     */
    static boolean write(StoreFiles files, byte[] bytes, boolean always, boolean syncFolder) {
        byte[] old;
        try {
            old = readAll(files);
        } catch (IOException e) {
            old = null; // missing or unreadable: write it
        }
        if (!always && Arrays.equals(old, bytes)) {
            return false;
        }
        if (!syncFolder) {
            String temp = LogFiles.tempName(LogFiles.MANIFEST);
            AtomicFiles.writeSynced(files, temp, bytes);
            try {
                files.rename(temp, LogFiles.MANIFEST);
            } catch (IOException | RuntimeException e) {
                AtomicFiles.deleteQuietly(files, temp);
                throw new StorageException("Could not atomically replace storage file: " + files.path(LogFiles.MANIFEST)
                        + ReadOnlyFileSystem.hint(e), e);
            }
            return true;
        }
        try {
            AtomicFiles.writeAtomic(files, LogFiles.MANIFEST, bytes);
        } catch (StorageException e) {
            restore(files, old, bytes, e);
            throw e;
        }
        return true;
    }

    /**
     * Puts the old manifest back after the new one's rename could not be made durable, so a failure
     * leaves the old manifest in force; nothing is done when the rename did not happen.
     *
     * @param old the bytes before the swap, or {@code null} when there was no manifest
     * @param attempted the new bytes
     * @param failure what failed; a failure to put the old bytes back is attached to it as suppressed
     */
    static void restore(StoreFiles files, byte[] old, byte[] attempted, StorageException failure) {
        try {
            byte[] now = readAll(files);
            if (!Arrays.equals(now, attempted) || Arrays.equals(now, old)) {
                return; // the rename did not happen
            }
            if (old == null) {
                files.delete(LogFiles.MANIFEST);
            } else {
                AtomicFiles.writeAtomic(files, LogFiles.MANIFEST, old);
            }
        } catch (NoSuchFileException gone) {
            // nothing reached the name
        } catch (IOException | RuntimeException e) {
            failure.addSuppressed(e);
        }
    }

    private static byte[] readAll(StoreFiles files) throws IOException {
        try (InputStream in = files.open(LogFiles.MANIFEST)) {
            return in.readAllBytes();
        }
    }

    /**
     * @param a a stamp or {@code null}
     * @param b a stamp or {@code null}
     * @return whether both name the same manifest version
     */
    static boolean same(Object a, Object b) {
        return Objects.equals(a, b);
    }
}
