package dev.storh.log;

import dev.storh.fs.LocalFiles;
import dev.storh.fs.StoreFiles;
import java.io.File;

/**
 * The modification time of one folder of a log, read by the checks every read makes
 * ({@link OtherWriters}, {@link SegmentPresence}). On local files it is one {@code stat} through
 * {@link File#lastModified()} (millisecond precision, no objects made), as cheap as a look at the
 * disk can be; on any other seam it is the seam's {@code stat}. Immutable and thread-safe.
 */
final class FolderTime {

    private final StoreFiles files;
    private final String folder;
    /** The folder as a local file, or {@code null} when the seam is not the local file system. */
    private final File local;

    /**
     * @param files the log's byte seam
     * @param folder a folder name under the seam's root
     */
    FolderTime(StoreFiles files, String folder) {
        this.files = files;
        this.folder = folder;
        this.local = files instanceof LocalFiles ? files.path(folder).toFile() : null;
    }

    /**
     * @return the folder's modification time in epoch milliseconds, or -1 when it is missing or
     *     unreadable (on local files a time of exactly 0 also reads as -1, so it is never trusted)
     */
    long millis() {
        if (local != null) {
            long t = local.lastModified();
            return t == 0 ? -1 : t;
        }
        return LogFiles.folderMillis(files, folder);
    }
}
