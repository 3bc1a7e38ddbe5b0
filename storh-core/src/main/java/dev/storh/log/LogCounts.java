package dev.storh.log;

import dev.storh.StorageException;
import dev.storh.fs.StoreFiles;
import dev.storh.query.RecordQuery;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Counts with one equality condition answered from the state index's {@link EqualityCounts}, as a
 * scan would answer them.
 *
 * <p>Memory answers only what it can answer exactly: a query with one {@code whereEqual} on a counted
 * value kind, no cursor, no time range and no error handler, while no segment holds a damaged line or
 * bad tail and every segment file is there (a scan would throw or report it), which {@link SegmentPresence}
 * tells for one {@code stat} of {@code segments/}. When the counts are not built yet, a count without a
 * limit builds them from the scan it has to make anyway (a snapshot stream, taken without blocking
 * writers); they are installed only if nothing was appended meanwhile. A limited count on unbuilt
 * counts scans as before (it stops early). Thread-safe.
 */
final class LogCounts {

    private final LogState state;
    private final AtomicLong segmentsOpened;

    LogCounts(LogState state, AtomicLong segmentsOpened) {
        this.state = state;
        this.segmentsOpened = segmentsOpened;
    }

    /**
     * @param query the query; the caller has caught up with other processes
     * @return how many live records match it, without the limit; -1 when memory cannot tell
     */
    long count(RecordQuery query) {
        List<Map.Entry<String, Object>> eq = query.equalities();
        if (eq.size() != 1 || query.after() != null || query.fromId() != null || query.untilId() != null
                || query.errorHandler() != null) {
            return -1;
        }
        Map.Entry<String, Object> condition = eq.get(0);
        Object key = EqualityCounts.key(condition.getValue());
        if (key == null || !state.presence.present()) {
            return -1;
        }
        String field = condition.getKey();
        StateIndex index;
        List<Segment.View> views;
        long snapshot;
        synchronized (state) {
            if (state.mayBeDamaged && damaged()) {
                return -1;
            }
            index = state.index;
            EqualityCounts counts = index.counts();
            if (counts.usable()) {
                return counts.count(field, key);
            }
            if (query.limit() > 0 || !counts.worthBuilding()) {
                return -1;
            }
            views = state.views();
            snapshot = index.openSnapshot();
        }
        EqualityCounts built = EqualityCounts.empty();
        try (LogStream records = new LogStream(state, views, snapshot, RecordQuery.all(), segmentsOpened,
                new LogStream.Release(state))) {
            while (records.hasNext()) {
                built.add(EqualityCounts.keysOf(records.next().data()));
            }
        } catch (StorageException e) {
            return -1; // the caller's scan meets the same line and reports it
        }
        synchronized (state) {
            index.installCounts(built, snapshot);
        }
        return built.count(field, key);
    }

    /** @return whether a segment holds damage a scan would report; call under the state monitor */
    private boolean damaged() {
        for (Segment s : state.sealed) {
            if (!s.damaged.isEmpty() || s.badTail != null) {
                return true;
            }
        }
        Segment a = state.active;
        return !a.damaged.isEmpty() || a.badTail != null;
    }

    /**
     * Reads the counted values of the record on one line.
     *
     * @param state the log
     * @param file segment file name
     * @param offset the line's offset
     * @return its counted values, as {@link EqualityCounts#keysOf}
     * @throws StorageException when the line cannot be read or is not a record
     */
    static Object[] keysAt(LogState state, String file, long offset) {
        Path path = state.path(file);
        try (StoreFiles.Input in = state.open(file)) {
            SegmentReader reader = new SegmentReader(in, offset, in.size(), 1024);
            if (!reader.next() || !reader.terminated()) {
                throw new StorageException("Could not read segment record at " + path + ":" + offset);
            }
            Object[] keys = keysOf(LogLine.decode(reader.line(), path, offset, false), path, offset);
            if (keys == null) {
                throw new StorageException("Unexpected value kind in the record at " + path + ":" + offset);
            }
            return keys;
        } catch (IOException e) {
            throw new StorageException("Could not read segment record at " + path + ":" + offset, e);
        }
    }

    /**
     * The counted values of the record on a line, read from its bytes when it is a canonical put.
     *
     * @param env the line's envelope, with or without its data decoded
     * @param file the segment, for messages
     * @param offset the line's offset, for messages
     * @return its counted values, as {@link EqualityCounts#keysOf} gives them for the decoded data
     * @throws dev.storh.CorruptRecordException when the data must be decoded and is not valid JSON
     */
    static Object[] keysOf(LogLine.Envelope env, Path file, long offset) {
        Object[] fast = env.data() == null ? env.countedValues() : null;
        return fast != null ? fast : EqualityCounts.keysOf(env.data(file, offset));
    }

    /**
     * @param line an encoded put line
     * @param data the data it was encoded from
     * @return the counted values of the record as it reads back from the line
     */
    static Object[] keysOf(byte[] line, Map<String, ?> data) {
        Object[] keys = EqualityCounts.keysOf(data);
        if (keys != null) {
            return keys;
        }
        Path where = Path.of("(new line)");
        return EqualityCounts.keysOf(LogLine.decode(line, where, 0, true).data(where, 0));
    }
}
