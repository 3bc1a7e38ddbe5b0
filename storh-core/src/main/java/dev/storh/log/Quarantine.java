package dev.storh.log;

import dev.storh.StorageException;
import dev.storh.fs.AtomicFiles;
import dev.storh.fs.FileRanges;
import dev.storh.fs.ReadOnlyFileSystem;
import dev.storh.fs.StoreFiles;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Takes damaged bytes out of segments without destroying them: they are copied aside before a cut
 * or a repair removes them from the segment.
 *
 * <pre>
 * &lt;collectionDir&gt;/.storh/corrupt/&lt;segment file&gt;.&lt;offset&gt;-&lt;ms&gt;.bad   the bytes, as they were, synced
 * e.g. .storh/corrupt/seg-000001.ndjson.142-1795997943000.bad
 * </pre>
 *
 * Every byte goes through the log's byte seam. Called under the collection lock. Stateless.
 */
final class Quarantine {

    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(Quarantine.class);

    private static final int COPY_BUFFER = 64 * 1024;

    private Quarantine() {
    }

    /**
     * Copies a bad tail aside when it holds a complete line (a torn line, without line feed, is only
     * an interrupted write and is dropped).
     *
     * @param state the log
     * @param segment the segment's file name in {@code segments/}
     * @param in the segment, open
     * @param from where the tail starts
     * @param size the segment's size
     * @return the side file, or {@code null} when the tail was only a torn line
     * @throws IOException on a read error
     * @throws StorageException naming the side file when it cannot be written
     */
    static Path keepTailAside(LogState state, String segment, StoreFiles.Input in, long from, long size)
            throws IOException {
        byte[] probe = new byte[(int) Math.min(size - from, 1 << 20)];
        int read = Math.max(0, in.read(probe, 0, probe.length, from));
        boolean completeLine = size - from > probe.length;
        for (int i = 0; i < read && !completeLine; i++) {
            completeLine = probe[i] == '\n';
        }
        return completeLine ? keepAside(state, segment, from, size - from) : null;
    }

    /**
     * Copies {@code length} bytes at {@code offset} of a segment to a new side file, fsynced with its folder.
     *
     * @return the side file
     * @throws StorageException {@code "Could not keep damaged bytes aside: <side file>"}; the side file is removed
     */
    private static Path keepAside(LogState state, String segment, long offset, long length) {
        StoreFiles files = state.files;
        String keep = LogFiles.quarantineName(segment, offset, System.currentTimeMillis());
        LogState.mkdirs(files, LogFiles.QUARANTINE);
        FileRanges.copyAside(files, LogFiles.segment(segment), new FileRanges.Range(offset, length), keep);
        return files.path(keep);
    }

    /**
     * Copies each damaged stretch of a segment aside, then replaces the segment by a copy without
     * them; every other byte is kept, in order: temp file {@link LogFiles#tempName}, fsync, atomic
     * rename, folder fsync. A crash leaves the old or the new segment, plus possibly the temp file,
     * which the next open or repair deletes.
     *
     * @param state the log
     * @param segment the segment's file name in {@code segments/}
     * @param damaged its damaged stretches in file order
     * @return one line per stretch: {@code "<path>:<offset>: <n> bytes (<problem>), kept in <side file>"}
     * @throws StorageException naming the segment, temp or side file; the segment and the
     *     quarantine are then unchanged (but for a failed folder fsync after the rename, which leaves
     *     the rewritten segment and its side files)
     */
    static List<String> removeDamage(LogState state, String segment, List<Segment.Damage> damaged) {
        StoreFiles files = state.files;
        Path path = state.path(segment);
        String name = LogFiles.segment(segment);
        List<String> removed = new ArrayList<>();
        List<Path> keptAside = new ArrayList<>();
        try (StoreFiles.Input in = state.open(segment)) {
            for (Segment.Damage d : damaged) {
                Path kept = keepAside(state, segment, d.offset(), d.length());
                keptAside.add(kept);
                removed.add(path + ":" + d.offset() + ": " + d.length() + " bytes (" + d.problem() + "), kept in "
                        + state.dir.relativize(kept));
            }
            String temp = LogFiles.tempName(name);
            try (StoreFiles.Output out = files.create(temp)) {
                long from = 0;
                for (Segment.Damage d : damaged) {
                    copy(in, from, d.offset() - from, out);
                    from = d.offset() + d.length();
                }
                copy(in, from, in.size() - from, out);
                out.sync();
            } catch (IOException | RuntimeException e) {
                AtomicFiles.deleteQuietly(files, temp);
                throw new StorageException("Could not rewrite " + path + " without its damaged lines (via "
                        + files.path(temp) + ")" + ReadOnlyFileSystem.hint(e), e);
            }
            try {
                files.rename(temp, name);
            } catch (IOException | RuntimeException e) {
                AtomicFiles.deleteQuietly(files, temp);
                throw new StorageException("Could not atomically move " + files.path(temp) + " to " + path
                        + ReadOnlyFileSystem.hint(e), e);
            }
        } catch (IOException | RuntimeException e) {
            // the segment still holds the damage: its copies aside would only be duplicates
            keptAside.forEach(k -> AtomicFiles.deleteQuietly(files, files.nameOf(k)));
            throw e instanceof StorageException se ? se
                    : new StorageException("Could not rewrite log segment without its damaged lines: " + path, e);
        }
        try {
            AtomicFiles.syncDirectory(files, LogFiles.SEGMENTS);
        } catch (StorageException e) {
            // past undoing: the segment is rewritten and its damage kept aside; the rename is atomic
            LOG.warn("Rewrote {} without its damaged lines, but could not fsync its folder: {}", path, e.getMessage());
        }
        return removed;
    }

    private static void copy(StoreFiles.Input in, long from, long count, StoreFiles.Output out) throws IOException {
        byte[] buffer = new byte[(int) Math.min(COPY_BUFFER, Math.max(1, count))];
        long copied = 0;
        while (copied < count) {
            int n = in.read(buffer, 0, (int) Math.min(buffer.length, count - copied), from + copied);
            if (n <= 0) {
                throw new IOException("short read at byte " + (from + copied) + " (the file shrank)");
            }
            out.write(buffer, 0, n);
            copied += n;
        }
    }
}
