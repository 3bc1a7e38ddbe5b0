package dev.storh.log;

import dev.storh.fs.StoreFiles;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Whether every segment file a log's picture names is still in {@code segments/}, as a count
 * answered from memory must know (a scan would fail on a missing file), for the price of one
 * {@code stat} of the folder.
 *
 * <p>The knowledge is the folder's modification time at a moment every file was known to be there:
 * after a scan at open found them all, after a listing found them all, or after this instance's own
 * change of the folder (a roll, a compaction) made under the collection lock, which every other
 * writer of the log takes too, when the folder was known before it. While the folder keeps that
 * time, no file was added or removed since. Every change a writer of the log makes goes through the
 * lock and the manifest, so what this misses is only a file deleted by hand within the same clock
 * tick as the change before it; open and verify report such a file, and a read of this instance that
 * meets it makes the next count look again ({@link #forget}). Otherwise one listing of the folder
 * shows whether each file is there (a name is checked to be a regular file the first time it is seen).
 * Thread-safe.
 */
final class SegmentPresence {

    private final LogState state;
    private final StoreFiles.FolderTime folder;
    /** The folder's modification time when every file was last known to be there, or -1. */
    private volatile long knownAtMs = -1;
    /** Segment file names once found to be regular files, so a listing shows they are still there. */
    private final Set<String> regularFiles = ConcurrentHashMap.newKeySet();

    SegmentPresence(LogState state) {
        this.state = state;
        this.folder = state.files.folderTime(LogFiles.SEGMENTS);
    }

    /** @param file a segment file name just found (or created) as a regular file */
    void regularFile(String file) {
        regularFiles.add(file);
    }

    /** A read met a missing or unreadable segment file: the next count looks at the folder again. */
    void forget() {
        knownAtMs = -1;
    }

    /**
     * @return the folder's modification time now when every file is known to be there at it, else -1;
     *     pass it to {@link #afterOwnChange} around a change of the folder made under the collection lock
     */
    long beforeOwnChange() {
        long folder = folderMillis();
        return folder >= 0 && folder == knownAtMs ? folder : -1;
    }

    /**
     * Records the folder's time after a change this instance made under the collection lock, when
     * every file was known to be there before it and the picture names every file it created.
     *
     * @param before what {@link #beforeOwnChange} returned
     */
    void afterOwnChange(long before) {
        knownAtMs = before >= 0 ? folderMillis() : -1;
    }

    /**
     * @param folder the folder's modification time read before the files were found, or -1
     */
    void allFound(long folder) {
        knownAtMs = folder;
    }

    /** @return whether every segment file of the picture is there, as a scan needs */
    boolean present() {
        long folder = folderMillis();
        if (folder >= 0 && folder == knownAtMs) {
            return true;
        }
        List<String> files = new ArrayList<>();
        synchronized (state) {
            state.sealed.forEach(s -> files.add(s.file));
            files.add(state.active.file);
        }
        Set<String> listed;
        try {
            listed = new HashSet<>(state.files.list(LogFiles.SEGMENTS));
        } catch (IOException e) {
            return false;
        }
        for (String file : files) {
            if (!listed.contains(file)) {
                return false;
            }
            if (!regularFiles.contains(file)) {
                if (!state.isFile(LogFiles.segment(file))) {
                    return false;
                }
                regularFiles.add(file);
            }
        }
        if (regularFiles.size() > 2 * files.size() + 64) {
            regularFiles.retainAll(new HashSet<>(files)); // names compacted away
        }
        if (folder >= 0) {
            knownAtMs = folder;
        }
        return true;
    }

    /** @return the modification time of {@code segments/}, or -1 when it is not a readable folder */
    long folderMillis() {
        return folder.millis();
    }
}
