package dev.storh.fs;

import java.io.IOException;
import java.util.List;
import java.util.function.Predicate;

/**
 * The writers folder ({@code .storh/writers/}) of a collection or a log, seen by one instance:
 * whether any writer but the instance itself can have changed the files since a moment that the
 * instance knows them as of.
 *
 * <p>Every writer (another instance in this process, another process, the original) registers its
 * marker in the folder before it writes and removes it after; each of those changes sets the
 * folder's modification time. A {@linkplain #quietMark mark} is a modification time at which the
 * folder listed no marker but the instance's own (and those the caller accepts as its own), taken
 * only after the instance has seen a file time later than it: in an earlier clock tick the folder
 * cannot change again unseen, so the listing, taken after, is final for that time. While a later
 * {@linkplain #modifiedMillis look} finds the same time, no writer has registered since. Programs
 * that write without a marker (an editor, a copy) are not seen this way. Thread-safe.
 */
public final class WritersFolder {

    /** What the folder listed at one modification time. */
    private record Listing(long modifiedMillis, boolean onlyOwn) {
    }

    private final StoreFiles files;
    private final String folder;
    private final StoreFiles.FolderTime time;
    private final Predicate<String> own;
    private volatile Listing last = new Listing(-1, false);

    /**
     * @param files the byte seam the folder's name is relative to
     * @param folder the writers folder's name (usually {@link MetaLayout#WRITERS})
     * @param own whether a marker name is the instance's own (or one that belongs to no writer)
     */
    public WritersFolder(StoreFiles files, String folder, Predicate<String> own) {
        this.files = files;
        this.folder = folder;
        this.time = files.folderTime(folder);
        this.own = own;
    }

    /**
     * @return the folder's modification time now (one look, as the seam's {@link StoreFiles#folderTime}
     *     reads it), in milliseconds on the file system's clock, or -1 when it is missing or unreadable
     */
    public long modifiedMillis() {
        return time.millis();
    }

    /**
     * @param folderMillis what {@link #modifiedMillis} returned before the files were seen
     * @param seenMillis the latest modification time of a file seen since (the seam's clock), or -1
     *     when unknown; the folder is listed only when it is later than {@code folderMillis}
     * @return {@code folderMillis} when the folder, at that time, listed no marker but the
     *     instance's own; else -1
     */
    public long quietMark(long folderMillis, long seenMillis) {
        if (folderMillis < 0 || seenMillis <= folderMillis) {
            return -1;
        }
        Listing listing = last;
        if (listing.modifiedMillis() != folderMillis) {
            listing = new Listing(folderMillis, onlyOwn());
            last = listing;
        }
        return listing.onlyOwn() ? folderMillis : -1;
    }

    /**
     * @param mark a value {@link #quietMark} returned
     * @return whether the folder still has that modification time (no writer registered since): one {@code stat}
     */
    public boolean unchanged(long mark) {
        return mark >= 0 && modifiedMillis() == mark;
    }

    private boolean onlyOwn() {
        try {
            List<String> names = files.list(folder);
            return names.stream().allMatch(own);
        } catch (IOException | RuntimeException e) {
            return false;
        }
    }
}
