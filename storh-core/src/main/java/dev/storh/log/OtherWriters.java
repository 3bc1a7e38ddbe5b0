package dev.storh.log;

import dev.storh.fs.StoreFiles;
import dev.storh.fs.WritersFolder;

/**
 * Tells a log's readers, for one {@code stat} of {@code .storh/writers/}, that no other writer can
 * have changed the log since this instance last caught up with the files, so that the manifest and the
 * active segment need not be looked at again.
 *
 * <p>Every writer of a log (another instance in this process, another process, the original)
 * registers its marker in {@code .storh/writers/} when it opens and removes it when it closes; each
 * of those changes sets the folder's modification time. A look ({@link #look}) lists the folder once
 * per modification time; when it names no marker but this instance's, that time becomes the mark. The
 * look is taken only after this instance has caught up and has seen a file time of the log later than
 * the folder's (in an earlier clock tick the folder cannot change again unseen), so the listing is
 * final for that time. While the folder keeps the mark, every change to the log is this instance's
 * own, which it knows already. Programs that register no marker (an editor, a copy) are not seen this
 * way. Thread-safe.
 */
final class OtherWriters {

    private final WritersFolder writers;
    /** The folder's modification time while no other writer is registered, or -1. */
    private volatile long quietAt = -1;

    /**
     * @param files the log's byte seam
     * @param ownMarker this instance's marker file name (without the folder), or {@code null}
     */
    OtherWriters(StoreFiles files, String ownMarker) {
        this.writers = new WritersFolder(files, LogFiles.WRITERS, n -> n.equals(ownMarker));
    }

    /**
     * @return the modification time of {@code .storh/writers/} now (one {@code stat}), or -1 when it
     *     is not a readable folder
     */
    long folderMillis() {
        return writers.modifiedMillis();
    }

    /**
     * @param folder what {@link #folderMillis} returned
     * @return whether no other writer can have registered since the last look found none
     */
    boolean noneSince(long folder) {
        return folder >= 0 && folder == quietAt;
    }

    /**
     * Looks at the writers after this instance caught up with the files.
     *
     * @param folder what {@link #folderMillis} returned before the files were seen, or after
     * @param seenMillis the latest modification time of a log file seen while catching up (the
     *     seam's clock), or -1 when unknown; the folder is listed only when it is later than
     *     {@code folder}, so the listing, taken after it, is final for that time
     */
    void look(long folder, long seenMillis) {
        quietAt = writers.quietMark(folder, seenMillis);
    }

    /** Forgets the mark: the next read looks at the files again. */
    void forget() {
        quietAt = -1;
    }
}
