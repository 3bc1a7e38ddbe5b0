package dev.storh.doc;

import dev.storh.fs.MetaLayout;
import dev.storh.fs.StoreFiles;
import java.io.IOException;
import java.util.List;

/**
 * Tells the record cache whether a record file this instance has just written can be trusted on its
 * version alone: whether any other writer could have rewritten it since. Every writer of a
 * collection (another store instance of this process, another process, the original) registers a
 * marker in {@code .storh/writers/} before it writes and removes it after, and each of those
 * changes sets the folder's modification time.
 *
 * <p>A {@linkplain #markFor mark} is the folder's modification time, given only when the folder
 * changed in an earlier clock tick than the record was written (so its listing, taken after the
 * write, is final for that time) and that listing names no writer but this instance. While a later
 * look finds the same time, no writer has registered since: any other writer would have changed it
 * before writing. A marker of pid 0 (the index-drift marker) belongs to no writer. Writers that
 * register no marker (editors, copies) are not seen this way. Thread-safe.
 */
final class WriterQuiet {

    private final StoreFiles files;
    private final String ownMarker;
    private volatile Listing last = new Listing(-1, false);

    /** What the folder listed at one modification time. */
    private record Listing(long modifiedMillis, boolean onlyOwn) {
    }

    /**
     * @param files the collection's seam
     * @param writerPrefix this instance's writer prefix (its marker's name)
     */
    WriterQuiet(StoreFiles files, String writerPrefix) {
        this.files = files;
        this.ownMarker = writerPrefix;
    }

    /**
     * @param writtenMillis the modification time of a record file this instance has just renamed
     *     into place (the seam's clock), or -1 when unknown
     * @return the writers folder's modification time when no other writer can have written since
     *     it, else -1
     */
    long markFor(long writtenMillis) {
        long modified = folderModified();
        if (writtenMillis < 0 || modified < 0 || writtenMillis <= modified) {
            return -1;
        }
        Listing listing = last;
        if (listing.modifiedMillis() != modified) {
            listing = new Listing(modified, onlyOwn());
            last = listing;
        }
        return listing.onlyOwn() ? modified : -1;
    }

    /**
     * @param mark a value {@link #markFor} returned
     * @return whether the writers folder still has that modification time (no writer registered since)
     */
    boolean unchanged(long mark) {
        return mark >= 0 && folderModified() == mark;
    }

    private long folderModified() {
        try {
            return files.stat(MetaLayout.WRITERS).filter(e -> e.kind() == StoreFiles.Entry.Kind.DIRECTORY)
                    .map(StoreFiles.Entry::lastModifiedMillis).orElse(-1L);
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }

    private boolean onlyOwn() {
        try {
            List<String> names = files.list(MetaLayout.WRITERS);
            return names.stream().allMatch(n -> n.equals(ownMarker) || n.startsWith("0."));
        } catch (IOException | RuntimeException e) {
            return false;
        }
    }
}
