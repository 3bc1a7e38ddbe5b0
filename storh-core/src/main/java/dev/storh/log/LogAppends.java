package dev.storh.log;

import dev.storh.StorageException;
import dev.storh.StorageRecord;
import dev.storh.id.UuidV7;
import dev.storh.observe.StoreOperation;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The write side of a {@link SegmentedLog}: validates and encodes records before anything is
 * written, then hands the lines to the group commit ({@link LogWriter}), in one batch or in durable
 * chunks. Thread-safe; every call blocks until its lines are durable.
 */
final class LogAppends {

    private final LogContext log;

    LogAppends(LogContext log) {
        this.log = log;
    }

    StorageRecord put(Map<String, ?> data, String id) {
        LogWriter.Line line = prepare(data, id);
        log.observed(StoreOperation.APPEND, () -> log.writer.append(List.of(line)));
        return new StorageRecord(line.id(), new LinkedHashMap<>(data));
    }

    List<StorageRecord> appendMany(Iterable<? extends Map<String, ?>> items) {
        List<LogWriter.Line> lines = new ArrayList<>();
        List<StorageRecord> records = new ArrayList<>();
        int i = 0;
        for (Map<String, ?> item : items) {
            StorageRecord r = prepareItem(item, i++, lines);
            records.add(r);
        }
        log.observed(StoreOperation.APPEND, () -> log.writer.append(lines));
        return records;
    }

    long appendStream(Iterable<? extends Map<String, ?>> items) {
        List<LogWriter.Line> chunk = new ArrayList<>();
        long chunkBytes = 0;
        long count = 0;
        for (Map<String, ?> item : items) {
            prepareItem(item, count, chunk);
            chunkBytes += chunk.get(chunk.size() - 1).bytes().length;
            count++;
            if (chunkBytes >= LogWriter.FLUSH_BYTES) {
                log.writer.append(chunk);
                chunk = new ArrayList<>();
                chunkBytes = 0;
            }
        }
        log.writer.append(chunk);
        return count;
    }

    boolean delete(String id) {
        String key = UuidV7.normalize(id);
        log.refreshIfStale();
        StateIndex.Entry e = log.state.index.get(key);
        log.observed(StoreOperation.DELETE, () -> log.writer.append(List.of(tombstone(key))));
        return e != null && !e.deleted();
    }

    /**
     * @param ids lowercase ids, written as tombstones in this order in one batch
     */
    void deleteAll(List<String> ids) {
        List<LogWriter.Line> lines = new ArrayList<>(ids.size());
        ids.forEach(id -> lines.add(tombstone(id)));
        log.writer.append(lines);
    }

    private static LogWriter.Line tombstone(String id) {
        return new LogWriter.Line(id, true, LogLine.encodeDelete(id), null);
    }

    private StorageRecord prepareItem(Map<String, ?> item, long index, List<LogWriter.Line> out) {
        if (item == null) {
            throw new StorageException("Log item " + index + " is null.");
        }
        String id = item.get("id") instanceof String s ? s : null;
        @SuppressWarnings("unchecked")
        Map<String, ?> data = item.get("data") instanceof Map<?, ?> m ? (Map<String, ?>) m : item;
        LogWriter.Line line;
        try {
            line = prepare(data, id);
        } catch (StorageException e) {
            throw new StorageException("Log item " + index + ": " + e.getMessage(), e);
        }
        out.add(line);
        return new StorageRecord(line.id(), new LinkedHashMap<>(data));
    }

    private LogWriter.Line prepare(Map<String, ?> data, String id) {
        if (data == null) {
            throw new StorageException("Record data must not be null" + (id == null ? "." : " (id " + id + ")."));
        }
        String key = resolveId(id);
        for (Object k : data.keySet()) {
            if (k instanceof String s && LogLine.isIntegerLike(s)) {
                throw new StorageException("Record " + key + ": top-level field \"" + s + "\" looks like an integer;"
                        + " the original drops such keys when reading, so it cannot be stored.");
            }
        }
        byte[] line = LogLine.encodePut(key, data);
        return new LogWriter.Line(key, false, line, LogCounts.keysOf(line, data));
    }

    private String resolveId(String id) {
        if (id != null) {
            return UuidV7.normalize(id);
        }
        Supplier<String> generator = log.options.idGenerator();
        return generator == null ? UuidV7.generate() : UuidV7.normalize(generator.get());
    }
}
