package dev.storh.log;

import dev.storh.StorageException;
import dev.storh.fs.AtomicFiles;
import dev.storh.fs.FileRanges;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
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
 * Called under the collection lock. Stateless.
 */
final class Quarantine {

    static final String FOLDER = ".storh/corrupt";

    private Quarantine() {
    }

    /**
     * Copies a bad tail aside when it holds a complete line (a torn line, without line feed, is only
     * an interrupted write and is dropped).
     *
     * @param segment the segment path ({@code <collectionDir>/segments/<file>})
     * @param channel an open channel on it
     * @param from where the tail starts
     * @param size the segment's size
     * @return the side file, or {@code null} when the tail was only a torn line
     * @throws IOException on a read error
     * @throws StorageException naming the side file when it cannot be written
     */
    static Path keepTailAside(Path segment, FileChannel channel, long from, long size) throws IOException {
        ByteBuffer probe = ByteBuffer.allocate((int) Math.min(size - from, 1 << 20));
        channel.read(probe, from);
        boolean completeLine = size - from > probe.capacity();
        for (int i = 0; i < probe.position() && !completeLine; i++) {
            completeLine = probe.get(i) == '\n';
        }
        return completeLine ? keepAside(segment, channel, from, size - from) : null;
    }

    /**
     * Copies {@code length} bytes at {@code offset} of a segment to a new side file.
     *
     * @param segment the segment path
     * @param channel an open channel on it
     * @param offset where the bytes start
     * @param length how many
     * @return the side file
     * @throws StorageException naming the side file when it cannot be written
     */
    static Path keepAside(Path segment, FileChannel channel, long offset, long length) {
        Path folder = segment.getParent().getParent().resolve(FOLDER);
        AtomicFiles.ensureDirectory(folder);
        Path keep = folder.resolve(segment.getFileName() + "." + offset + "-" + System.currentTimeMillis() + ".bad");
        FileRanges.copyAside(channel, new FileRanges.Range(offset, length), keep);
        return keep;
    }

    /**
     * Copies each damaged stretch of a segment aside, then replaces the segment by a copy without
     * them ({@link FileRanges#rewriteWithout}); every other byte is kept, in order. A crash leaves the
     * old or the new segment, plus possibly a temp file {@code .<file>.<12 hex>.tmp}, which the next
     * open or repair deletes.
     *
     * @param segment the segment path
     * @param damaged its damaged stretches in file order
     * @return one line per stretch: {@code "<path>:<offset>: <n> bytes (<problem>), kept in <side file>"}
     * @throws StorageException naming the segment, temp or side file
     */
    static List<String> removeDamage(Path segment, List<Segment.Damage> damaged) {
        List<String> removed = new ArrayList<>();
        List<FileRanges.Range> ranges = new ArrayList<>();
        try (FileChannel in = FileChannel.open(segment, StandardOpenOption.READ)) {
            for (Segment.Damage d : damaged) {
                Path kept = keepAside(segment, in, d.offset(), d.length());
                removed.add(segment + ":" + d.offset() + ": " + d.length() + " bytes (" + d.problem() + "), kept in "
                        + segment.getParent().getParent().relativize(kept));
                ranges.add(new FileRanges.Range(d.offset(), d.length()));
            }
            FileRanges.rewriteWithout(segment, in, ranges, in.size());
        } catch (IOException e) {
            throw new StorageException("Could not rewrite log segment without its damaged lines: " + segment, e);
        }
        return removed;
    }
}
