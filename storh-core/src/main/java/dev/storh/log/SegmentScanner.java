package dev.storh.log;

import dev.storh.StorageException;
import dev.storh.fs.AtomicFiles;
import dev.storh.fs.FramedLine;
import dev.storh.fs.ReadOnlyFileSystem;
import dev.storh.fs.StoreFiles;
import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Arrays;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Torn-tail recovery and the state scan, one segment at a time.
 *
 * <p>Reading from the segment's committed end, every line's framing (length and XXH32) is checked;
 * canonical lines are not JSON-decoded. Each valid line is applied to the state index and the
 * segment's statistics. Invalid lines are handled by position, which is where this differs from the
 * original (weak spots W6, W7):
 * <ul>
 *   <li>A bad run followed by a valid line is a damaged line inside the file, not a torn write: it is
 *       skipped, logged and recorded in {@link Segment#damaged} with its offset, and the valid lines
 *       after it are kept (the original cuts the whole rest of the segment). When the damage swallowed
 *       a line feed, the valid line glued to its end is recovered ({@link FramedLine#resync}).
 *       {@code stream()} and {@code verify()} report it until {@code repair()} removes it.</li>
 *   <li>A bad run that reaches EOF is a torn tail. With {@code truncate} (open, recover, compact,
 *       repair, and before every append, all under the collection lock) the file is cut to the end of
 *       the last good line and fsynced; when the cut bytes hold a complete line they are first copied
 *       aside ({@link Quarantine}). Without it the tail is left alone (and invisible to the state);
 *       when it holds a complete line it is recorded in {@link Segment#badTail} for a repair.</li>
 *   <li>A valid last line without LF (PHP accepts it) gets its LF appended when truncating, so the next
 *       append cannot glue two lines together; without truncating it stays invisible, as it may be a
 *       write in flight.</li>
 * </ul>
 * Missing segment files are skipped silently (the manifest keeps listing them). Stateless.
 */
final class SegmentScanner {

    private static final Logger LOG = LoggerFactory.getLogger(SegmentScanner.class);

    private SegmentScanner() {
    }

    /**
     * Scans {@code segment} from its committed end to EOF and applies the valid lines.
     *
     * @param state the log, whose byte seam reaches the segment and whose interval the sparse offsets use
     * @param segment its statistics, advanced in place; damaged stretches are added to {@link Segment#damaged}
     * @param index the state to apply lines to
     * @param truncate whether torn tails may be cut (caller holds the collection lock)
     * @param rebuilding whether lines are applied as a rebuild (sequence 0)
     * @return bytes cut from the tail (0 when nothing was cut)
     * @throws StorageException {@code "Could not read segment: <path>"} on an I/O error other than a missing file
     */
    static long scan(LogState state, Segment segment, StateIndex index, boolean truncate, boolean rebuilding) {
        try {
            return scanFile(state, segment, index, truncate, rebuilding);
        } finally {
            if (segment.badTail != null || !segment.damaged.isEmpty()) {
                state.mayBeDamaged = true;
            }
        }
    }

    private static long scanFile(LogState state, Segment segment, StateIndex index, boolean truncate, boolean rebuilding) {
        Path file = state.path(segment.file);
        int interval = state.interval;
        if (!state.isFile(LogFiles.segment(segment.file))) {
            return 0;
        }
        state.presence.regularFile(segment.file);
        StoreFiles.Input channel;
        try {
            channel = state.open(segment.file);
        } catch (NoSuchFileException e) {
            return 0;
        } catch (IOException e) {
            throw new StorageException("Could not read segment: " + file, e);
        }
        try (channel) {
            long size = channel.size();
            if (size < segment.end) {
                segment.reset(); // shrunk behind our back: rescan from the start
            }
            SegmentReader reader = new SegmentReader(channel, segment.end, size, 64 * 1024);
            long badStart = -1;
            String badProblem = null;
            boolean badComplete = false;
            while (reader.next()) {
                long offset = reader.lineOffset();
                byte[] line = reader.line();
                LogLine.Envelope env;
                try {
                    env = LogLine.decode(line, file, offset, false);
                } catch (StorageException e) {
                    if (badStart < 0) {
                        badStart = offset;
                        badProblem = e.getMessage();
                        badComplete = false;
                    }
                    badComplete |= reader.terminated();
                    if (reader.terminated()) {
                        segment.damagedLines++;
                    }
                    // Damage that swallowed a line feed hides a valid line at the end of this one.
                    int p = reader.terminated() ? FramedLine.resync(line, false) : -1;
                    env = p > 0 ? decodeOrNull(Arrays.copyOfRange(line, p, line.length), file, offset + p) : null;
                    if (env == null) {
                        continue;
                    }
                    offset += p;
                }
                long next = reader.position();
                if (!reader.terminated()) {
                    if (!truncate) {
                        break;
                    }
                    try (StoreFiles.Output out = state.files.append(LogFiles.segment(segment.file))) {
                        out.write(new byte[] {'\n'});
                        out.syncData();
                    }
                    LOG.warn("Added the missing line feed after the last line of {} at offset {}", file, offset);
                    next++;
                }
                if (badStart >= 0) {
                    LOG.warn("Skipping {} damaged bytes in log segment {} at offset {}: valid lines follow ({})",
                            offset - badStart, file, badStart, badProblem);
                    segment.damaged.add(new Segment.Damage(badStart, offset - badStart, badProblem));
                    badStart = -1;
                }
                LogLine.Envelope applied = env;
                long at = offset;
                index.apply(env.id(), env.isDelete(), segment.file, offset, rebuilding,
                        () -> LogCounts.keysOf(applied, file, at), (f, o) -> LogCounts.keysAt(state, f, o));
                segment.observe(env.id(), offset, next, interval);
            }
            if (badStart >= 0 && truncate) {
                long cut = size - badStart;
                Path kept = Quarantine.keepTailAside(state, segment.file, channel, badStart, size);
                cutTail(state, segment.file, badStart, kept);
                LOG.warn("Cut a bad tail of {} bytes from log segment {} at offset {} ({}){}", cut, file, badStart,
                        badProblem, kept == null ? "" : "; kept in " + kept);
                segment.end = badStart;
                segment.badTail = null;
                return cut;
            }
            segment.badTail = badStart >= 0 && badComplete ? new Segment.Damage(badStart, size - badStart, badProblem) : null;
            return 0;
        } catch (NoSuchFileException e) {
            return 0;
        } catch (IOException e) {
            throw new StorageException("Could not read segment: " + file, e);
        }
    }

    /**
     * Cuts a segment at {@code at}. When the cut itself fails the side copy is removed (the segment is
     * as it was); when only its fsync fails the cut is done and stays (the side copy is durable, and a
     * cut lost to a power loss is cut again by the next open), so it is logged, not thrown.
     *
     * @throws StorageException {@code "Could not cut the bad tail of <path> at byte <at>"}
     */
    private static void cutTail(LogState state, String segment, long at, Path kept) {
        boolean cut = false;
        try (StoreFiles.Output out = state.files.append(LogFiles.segment(segment))) {
            out.truncate(at);
            cut = true;
            out.sync();
        } catch (IOException | RuntimeException e) {
            if (!cut) {
                if (kept != null) {
                    AtomicFiles.deleteQuietly(state.files, state.files.nameOf(kept));
                }
                throw new StorageException("Could not cut the bad tail of " + state.path(segment) + " at byte " + at
                        + ReadOnlyFileSystem.hint(e), e);
            }
            LOG.warn("Cut the bad tail of {} at byte {}, but could not fsync the cut (the next open cuts it again"
                    + " if it is lost): {}", state.path(segment), at, e.toString());
        }
    }

    private static LogLine.Envelope decodeOrNull(byte[] line, Path file, long offset) {
        try {
            return LogLine.decode(line, file, offset, false);
        } catch (StorageException e) {
            return null;
        }
    }
}
