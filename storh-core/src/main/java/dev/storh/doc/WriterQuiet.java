package dev.storh.doc;

import dev.storh.fs.MetaLayout;
import dev.storh.fs.StoreFiles;
import dev.storh.fs.WritersFolder;

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

    private final WritersFolder writers;

    /**
     * @param files the collection's seam
     * @param writerPrefix this instance's writer prefix (its marker's name)
     */
    WriterQuiet(StoreFiles files, String writerPrefix) {
        this.writers = new WritersFolder(files, MetaLayout.WRITERS, ownMarkers(writerPrefix));
    }

    /**
     * @param writerPrefix an instance's writer prefix (its marker's name)
     * @return whether a marker name is that instance's, or the index-drift marker of pid 0 (no writer's)
     */
    static java.util.function.Predicate<String> ownMarkers(String writerPrefix) {
        return n -> n.equals(writerPrefix) || n.startsWith("0.");
    }

    /**
     * @param writtenMillis the modification time of a record file this instance has just renamed
     *     into place (the seam's clock), or -1 when unknown
     * @return the writers folder's modification time when no other writer can have written since
     *     it, else -1
     */
    long markFor(long writtenMillis) {
        return writers.quietMark(writers.modifiedMillis(), writtenMillis);
    }

    /**
     * @return the writers folder's modification time now (one look), in milliseconds on the file
     *     system's clock, or -1 when it is not a readable folder: a reading of that clock, since only
     *     markers coming and going change it
     */
    long folderMillis() {
        return writers.modifiedMillis();
    }

    /**
     * @param mark a value {@link #markFor} returned
     * @return whether the writers folder still has that modification time (no writer registered since)
     */
    boolean unchanged(long mark) {
        return writers.unchanged(mark);
    }
}
