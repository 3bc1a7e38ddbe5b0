package dev.storh.doc.index;

import dev.storh.StorageException;
import dev.storh.fs.StoreFiles;
import dev.storh.json.Jsonc;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads one stride of a range index's main file at a time, found through its checkpoints, instead of
 * the whole file. The main file is sorted by range key, and range keys follow the query order only
 * for some values (not for negative numbers, numbers from 1e17 on, or mixed kinds), so a seek is
 * used only with a proof: the first and the last key of the main file, and every key of the delta,
 * are of one {@link RangeKeyOrder} class; every key in between then is too, and every line read is
 * checked against its value. Without that proof {@link #open} answers {@code null} and the caller
 * reads the whole file instead. Thread-safe: decoded strides are kept in a small bounded cache.
 */
final class RangeSeek {

    private static final int MAX_CACHED_CHUNKS = 64;

    /** A stride's lines, one entry per id: keys, values and ids at the same positions, in file order. */
    record Chunk(String[] keys, Object[] values, String[] ids) {
        int size() {
            return ids.length;
        }
    }

    /** Thrown when a stride does not look as the checkpoints promise: the whole file is read instead. */
    static final class Unprovable extends RuntimeException {
        private static final long serialVersionUID = 1L;

        Unprovable(String why) {
            super(why, null, false, false);
        }
    }

    private final StoreFiles files;
    private final String main;
    private final RangeKeyOrder order;
    private final String[] keys;
    private final long[] offsets;
    private final long size;
    private final RangeDelta delta;
    private volatile boolean broken;
    private final Map<Integer, Chunk> chunks = new LinkedHashMap<>(16, 0.75f, true) {
        private static final long serialVersionUID = 1L;

        @Override
        protected boolean removeEldestEntry(Map.Entry<Integer, Chunk> eldest) {
            return size() > MAX_CACHED_CHUNKS;
        }
    };

    private RangeSeek(StoreFiles files, String main, RangeKeyOrder order, String[] keys, long[] offsets, long size,
            RangeDelta delta, Chunk last) {
        this.files = files;
        this.main = main;
        this.order = order;
        this.keys = keys;
        this.offsets = offsets;
        this.size = size;
        this.delta = delta;
        if (last != null) {
            chunks.put(keys.length - 1, last);
        }
    }

    /**
     * @param files the collection's byte seam
     * @param rf the range files of one field
     * @return a seek over them, or {@code null} when their keys are not provably in query order (or
     *     the checkpoints do not fit the main file)
     */
    static RangeSeek open(StoreFiles files, RangeFiles rf) {
        try {
            RangeDelta delta = RangeDelta.read(files, rf);
            if (delta == null) {
                return null;
            }
            long size = IndexBytes.sizeOf(files, rf.main());
            if (size == 0) {
                return delta.order() == null ? null
                        : new RangeSeek(files, files.nameOf(rf.main()), delta.order(), new String[0], new long[0], 0, delta, null);
            }
            byte[] idx = IndexBytes.readOrNull(files, rf.checkpoints());
            if (idx == null) {
                return null;
            }
            List<Object> points = checkpoints(idx);
            String[] keys = new String[points.size() / 2];
            long[] offsets = new long[keys.length];
            for (int i = 0; i < keys.length; i++) {
                if (!(points.get(2 * i) instanceof String k) || !(points.get(2 * i + 1) instanceof Long o)
                        || o < 0 || o >= size || (i == 0 ? o != 0 : o <= offsets[i - 1] || k.compareTo(keys[i - 1]) < 0)) {
                    return null;
                }
                keys[i] = k;
                offsets[i] = o;
            }
            if (keys.length == 0) {
                return null;
            }
            RangeKeyOrder order = RangeKeyOrder.of(keys[0]);
            if (order == null || delta.order() != null && delta.order() != order) {
                return null;
            }
            RangeSeek probe = new RangeSeek(files, files.nameOf(rf.main()), order, keys, offsets, size, delta, null);
            Chunk last = probe.read(keys.length - 1);
            if (!order.holds(last.keys()[last.size() - 1])) {
                return null;
            }
            return new RangeSeek(files, probe.main, order, keys, offsets, size, delta, last);
        } catch (IOException | StorageException | Unprovable e) {
            return null; // read the whole file, which reports what is wrong with it
        }
    }

    /** Notes that a stride did not match its checkpoints: the files are read whole until they change. */
    void markBroken() {
        broken = true;
    }

    /** @return whether {@link #markBroken} was called */
    boolean broken() {
        return broken;
    }

    /**
     * @return key, offset, key, offset… of the checkpoints file: read directly in the compact form
     *     both implementations write, else by the JSON decoder
     */
    private static List<Object> checkpoints(byte[] idx) {
        List<Object> out = new ArrayList<>();
        String text = new String(idx, java.nio.charset.StandardCharsets.ISO_8859_1);
        int at = text.indexOf("\"checkpoints\":[");
        boolean plain = at >= 0 && text.indexOf('\\') < 0;
        at += "\"checkpoints\":[".length();
        while (plain && text.startsWith("{\"key\":\"", at)) {
            int end = text.indexOf('"', at + 8);
            int digits = end + 11;
            int close = end < 0 ? -1 : text.indexOf('}', digits);
            if (close < 0 || !text.startsWith("\",\"offset\":", end) || close == digits || close - digits > 18) {
                plain = false;
                break;
            }
            out.add(text.substring(at + 8, end));
            for (int i = digits; i < close; i++) {
                plain &= text.charAt(i) >= '0' && text.charAt(i) <= '9';
            }
            out.add(plain ? Long.parseLong(text, digits, close, 10) : null);
            at = close + 1;
            at += at < text.length() && text.charAt(at) == ',' ? 1 : 0;
        }
        if (plain && text.startsWith("]", at)) {
            return out;
        }
        out.clear();
        List<?> points = Jsonc.decodeObject(idx).get("checkpoints") instanceof List<?> l ? l : List.of();
        for (Object p : points) {
            Map<?, ?> point = p instanceof Map<?, ?> m ? m : Map.of();
            out.add(point.get("key"));
            out.add(point.get("offset"));
        }
        return out;
    }

    RangeKeyOrder order() {
        return order;
    }

    RangeDelta delta() {
        return delta;
    }

    /**
     * @return how many entries the files hold, from the checkpoints alone: only with no delta, and
     *     taking every stride but the last to hold {@link RangeFiles#STRIDE} lines, as storh and the
     *     original write them; {@code -1} when there is a delta
     */
    long plainEntries() {
        if (!delta.isEmpty()) {
            return -1;
        }
        return keys.length == 0 ? 0 : (long) (keys.length - 1) * RangeFiles.STRIDE + chunk(keys.length - 1).size();
    }

    /** @return the key of the first line of stride {@code i}; {@code null} past the last */
    String firstKey(int i) {
        return i < keys.length ? keys[i] : null;
    }

    /**
     * @param fromKey a range key, or {@code ""} for the start
     * @return the stride where lines of keys {@code >= fromKey} may start
     */
    int chunkFrom(String fromKey) {
        int lo = 0;
        int hi = keys.length;
        while (lo < hi) { // first stride whose first key is >= fromKey
            int mid = (lo + hi) >>> 1;
            if (keys[mid].compareTo(fromKey) < 0) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return Math.max(0, lo - 1);
    }

    /**
     * @param toKey a range key, or {@code null} for the end
     * @return the last stride that may hold lines of keys {@code <= toKey} ({@code -1}: none)
     */
    int chunkTo(String toKey) {
        if (toKey == null) {
            return keys.length - 1;
        }
        int lo = 0;
        int hi = keys.length;
        while (lo < hi) { // first stride whose first key is > toKey
            int mid = (lo + hi) >>> 1;
            if (keys[mid].compareTo(toKey) <= 0) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo - 1;
    }

    /**
     * @param i a stride
     * @return its lines, decoded and checked
     * @throws Unprovable when the stride does not start where its checkpoint says, or a line's key
     *     is not its value's, or out of order
     */
    Chunk chunk(int i) {
        synchronized (chunks) {
            Chunk cached = chunks.get(i);
            if (cached != null) {
                return cached;
            }
        }
        Chunk read;
        try {
            read = read(i);
        } catch (IOException | StorageException e) {
            throw new Unprovable("unreadable stride: " + e.getMessage());
        }
        synchronized (chunks) {
            chunks.put(i, read);
        }
        return read;
    }

    private Chunk read(int i) throws IOException {
        long from = offsets[i] == 0 ? 0 : offsets[i] - 1; // the newline before the stride too
        long to = i + 1 < offsets.length ? offsets[i + 1] : size;
        byte[] bytes = new byte[Math.toIntExact(to - from)];
        try (StoreFiles.Input in = files.openInput(main)) {
            int at = 0;
            while (at < bytes.length) {
                int n = in.read(bytes, at, bytes.length - at, from + at);
                if (n < 0) {
                    throw new Unprovable("main file shorter than its checkpoints");
                }
                at += n;
            }
        }
        int start = offsets[i] == 0 ? 0 : 1;
        if (start == 1 && bytes[0] != '\n' || bytes.length == start || bytes[bytes.length - 1] != '\n') {
            throw new Unprovable("stride not on line boundaries");
        }
        List<String> k = new ArrayList<>();
        List<Object> v = new ArrayList<>();
        List<String> ids = new ArrayList<>();
        String previous = keys[i];
        String bound = i + 1 < keys.length ? keys[i + 1] : null;
        for (int end = start; end < bytes.length; end++) {
            if (bytes[end] != '\n') {
                continue;
            }
            RangeFiles.Line line = RangeFiles.lineAt(bytes, start, end - start);
            if (line == null || !line.remove().isEmpty() || line.key().compareTo(previous) < 0
                    || k.isEmpty() && !line.key().equals(keys[i]) || bound != null && line.key().compareTo(bound) > 0
                    || !order.matches(line.key(), line.value())) {
                throw new Unprovable("stride " + i + " is not in key order");
            }
            previous = line.key();
            for (String id : line.ids()) {
                k.add(line.key());
                v.add(line.value());
                ids.add(id);
            }
            start = end + 1;
        }
        return new Chunk(k.toArray(new String[0]), v.toArray(), ids.toArray(new String[0]));
    }
}
