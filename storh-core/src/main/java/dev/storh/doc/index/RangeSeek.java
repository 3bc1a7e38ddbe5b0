package dev.storh.doc.index;

import dev.storh.StorageException;
import dev.storh.fs.StoreFiles;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Reads a range index's main file a block at a time, found by a binary search over the file's
 * bytes, instead of the whole file or the whole checkpoint file. The file is cut into blocks of
 * {@link #BLOCK} bytes: block {@code j} holds the lines that start in its bytes, and its first key is
 * the key of the first line starting at or after its first byte (a line that crosses blocks belongs to
 * the block it starts in; a block in which no line starts has the next line's key). Finding the
 * blocks of a window of keys reads one line per step of the search, about {@code log2(size / BLOCK)}
 * lines. The main file is sorted by range key, and range keys follow the query order only for some
 * values (not for negative numbers, numbers from 1e17 on, or mixed kinds), so a seek is used only
 * with a proof: the first and the last key of the main file, and every key of the delta, are of one
 * {@link RangeKeyOrder} class; every key in between then is too, and every line read is checked
 * against its value and the order of the lines read. Without that proof {@link #open} answers
 * {@code null} and the caller reads the whole file instead. Thread-safe: decoded blocks and first
 * keys are kept in small bounded caches.
 */
final class RangeSeek {

    /** Bytes of the main file per block: about 128 one-id lines. */
    static final int BLOCK = 16 * 1024;
    private static final int MAX_CACHED_CHUNKS = 64;
    private static final int MAX_CACHED_KEYS = 4096;

    /** A block's lines, one entry per id: keys, values and ids at the same positions, in file order. */
    record Chunk(String[] keys, Object[] values, String[] ids) {
        int size() {
            return ids.length;
        }
    }

    /** Thrown when a block does not look as a sorted main file must: the whole file is read instead. */
    static final class Unprovable extends RuntimeException {
        private static final long serialVersionUID = 1L;

        Unprovable(String why) {
            super(why, null, false, false);
        }
    }

    private final StoreFiles files;
    private final String main;
    private final String checkpoints;
    private final RangeKeyOrder order;
    private final long size;
    private final int blocks;
    private final RangeDelta delta;
    private volatile boolean broken;
    private volatile long plainEntries = Long.MIN_VALUE;
    private final AtomicLong opens = new AtomicLong();
    /** First keys of blocks, {@link #NONE} for a block past the last line start. */
    private final Map<Integer, String> firstKeys = new ConcurrentHashMap<>();
    private static final String NONE = new String("none");
    private final Map<Integer, Chunk> chunks = new LinkedHashMap<>(16, 0.75f, true) {
        private static final long serialVersionUID = 1L;

        @Override
        protected boolean removeEldestEntry(Map.Entry<Integer, Chunk> eldest) {
            return size() > MAX_CACHED_CHUNKS;
        }
    };

    private RangeSeek(StoreFiles files, String main, String checkpoints, RangeKeyOrder order, long size, RangeDelta delta) {
        this.files = files;
        this.main = main;
        this.checkpoints = checkpoints;
        this.order = order;
        this.size = size;
        this.blocks = Math.toIntExact((size + BLOCK - 1) / BLOCK);
        this.delta = delta;
    }

    /**
     * Reads the delta, and the first and the last line of the main file: a few hundred bytes of it.
     *
     * @param files the collection's byte seam
     * @param rf the range files of one field
     * @return a seek over them, or {@code null} when their keys are not provably in query order
     */
    static RangeSeek open(StoreFiles files, RangeFiles rf) {
        try {
            RangeDelta delta = RangeDelta.read(files, rf);
            if (delta == null) {
                return null;
            }
            long size = IndexBytes.sizeOf(files, rf.main());
            String main = files.nameOf(rf.main());
            String points = files.nameOf(rf.checkpoints());
            if (size == 0) {
                return delta.order() == null ? null : new RangeSeek(files, main, points, delta.order(), 0, delta);
            }
            RangeSeek probe = new RangeSeek(files, main, points, RangeKeyOrder.NUMBERS, size, delta);
            RangeFiles.Line first;
            RangeFiles.Line last;
            try (StoreFiles.Input in = probe.input()) {
                first = RangeMainLines.lineFrom(in, size, 0).line();
                last = RangeMainLines.lastLine(in, size);
            }
            RangeKeyOrder order = RangeKeyOrder.of(first.key());
            if (order == null || delta.order() != null && delta.order() != order || !order.holds(last.key())
                    || last.key().compareTo(first.key()) < 0) {
                return null;
            }
            RangeSeek seek = new RangeSeek(files, main, points, order, size, delta);
            seek.firstKeys.put(0, first.key());
            return seek;
        } catch (IOException | StorageException | Unprovable e) {
            return null; // read the whole file, which reports what is wrong with it
        }
    }

    /** Notes that a block did not look sorted: the files are read whole until they change. */
    void markBroken() {
        broken = true;
    }

    /** @return whether {@link #markBroken} was called */
    boolean broken() {
        return broken;
    }

    RangeKeyOrder order() {
        return order;
    }

    RangeDelta delta() {
        return delta;
    }

    /**
     * @return how many entries the files hold, from the checkpoint file's number of checkpoints and
     *     the lines after its last one: only with no delta, and taking every stride but the last to
     *     hold {@link RangeFiles#STRIDE} one-id lines, as storh and the original write them; {@code -1}
     *     when there is a delta, or the checkpoint file is missing, in another form, or its last
     *     checkpoint is not the start of a line with its key. Counted once per seek (a pass over the
     *     checkpoint file's bytes, no decoding but of its last checkpoint).
     */
    long plainEntries() {
        if (!delta.isEmpty()) {
            return -1;
        }
        long known = plainEntries;
        if (known == Long.MIN_VALUE) {
            known = size == 0 ? 0 : countEntries();
            plainEntries = known;
        }
        return known;
    }

    private long countEntries() {
        byte[] idx;
        try {
            idx = files.readIfExists(checkpoints);
        } catch (IOException e) {
            return -1;
        }
        String head = "{\"stride\":" + RangeFiles.STRIDE + ",\"checkpoints\":[";
        if (idx == null || idx.length < head.length() + 2
                || !new String(idx, 0, head.length(), StandardCharsets.ISO_8859_1).equals(head)) {
            return -1;
        }
        long points = 0;
        int lastOpen = -1;
        for (int i = head.length(); i < idx.length; i++) {
            if (idx[i] == '{') { // keys of a RangeKeyOrder class hold no braces
                points++;
                lastOpen = i;
            }
        }
        String tail = lastOpen < 0 ? "" : new String(idx, lastOpen, idx.length - lastOpen, StandardCharsets.ISO_8859_1);
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("\\{\"key\":\"([^\"\\\\]*)\",\"offset\":([0-9]{1,18})}]}\\s*")
                .matcher(tail);
        if (!m.matches()) {
            return -1;
        }
        long offset = Long.parseLong(m.group(2));
        if (offset >= size || points == 1 && offset != 0) {
            return -1;
        }
        try (StoreFiles.Input in = input()) {
            long ids = 0;
            long at = offset;
            if (offset > 0 && RangeMainLines.readAt(in, offset - 1, 1)[0] != '\n') {
                return -1;
            }
            for (long line = 0; at < size; line++) {
                RangeMainLines.Located l = RangeMainLines.lineFrom(in, size, at);
                if (line == 0 && !l.line().key().equals(m.group(1)) || line >= RangeFiles.STRIDE) {
                    return -1;
                }
                ids += l.line().ids().size();
                at = l.end();
            }
            return (points - 1) * RangeFiles.STRIDE + ids;
        } catch (IOException | StorageException | Unprovable e) {
            return -1;
        }
    }

    /** @return the key of the first line starting at or after block {@code i}'s first byte; {@code null} when none */
    String firstKey(int i) {
        if (i >= blocks) {
            return null;
        }
        String known = firstKeys.get(i);
        if (known == null) {
            try (StoreFiles.Input in = input()) {
                known = firstKey(in, i);
            } catch (IOException | StorageException e) {
                throw new Unprovable("unreadable block: " + e.getMessage());
            }
        }
        return known == NONE ? null : known;
    }

    private String firstKey(StoreFiles.Input in, int i) throws IOException {
        String known = firstKeys.get(i);
        if (known != null) {
            return known;
        }
        long from = (long) i * BLOCK;
        long start = from == 0 ? 0 : RangeMainLines.lineStartFrom(in, size, from);
        known = start < 0 ? NONE : RangeMainLines.lineFrom(in, size, start).line().key();
        remember(i, known);
        return known;
    }

    /** {@link #firstKey(StoreFiles.Input, int)}, opening the main file only when the key is not known yet. */
    private String firstKey(Opened in, int i) throws IOException {
        String known = firstKeys.get(i);
        return known != null ? known : firstKey(in.input(), i);
    }

    /**
     * The main file opened on first need, at most once: a search whose first keys are all known
     * (a repeated query) opens nothing. Those keys were read from the file at this seek's size, and
     * a seek is only used while its files keep the versions it was opened at.
     */
    private final class Opened implements AutoCloseable {
        private StoreFiles.Input in;

        StoreFiles.Input input() throws IOException {
            if (in == null) {
                in = RangeSeek.this.input();
                opens.incrementAndGet();
            }
            return in;
        }

        @Override
        public void close() throws IOException {
            if (in != null) {
                in.close();
            }
        }
    }

    /** @return how many times a search of this seek has opened the main file (for tests) */
    long searchOpens() {
        return opens.get();
    }

    private void remember(int i, String key) {
        if (firstKeys.size() >= MAX_CACHED_KEYS) {
            firstKeys.clear();
        }
        firstKeys.put(i, key);
    }

    /**
     * @param fromKey a range key, or {@code ""} for the start
     * @return the block where lines of keys {@code >= fromKey} may start: the last whose first key
     *     is below {@code fromKey}, or the first
     */
    int chunkFrom(String fromKey) {
        return Math.max(0, search(fromKey, false) - 1);
    }

    /**
     * @param toKey a range key, or {@code null} for the end
     * @return the last block that may hold lines of keys {@code <= toKey} ({@code -1}: none)
     */
    int chunkTo(String toKey) {
        return toKey == null ? blocks - 1 : search(toKey, true) - 1;
    }

    /**
     * @return the first block whose first key is above {@code key} ({@code >= key} unless
     *     {@code orEqual}), or {@link #blocks}
     * @throws Unprovable when the keys met on the way are out of order
     */
    private int search(String key, boolean orEqual) {
        int lo = 0;
        int hi = blocks;
        String below = null; // the first key of block lo - 1, when read
        String above = null; // the first key of block hi, when read
        try (Opened in = new Opened()) {
            while (lo < hi) {
                int mid = (lo + hi) >>> 1;
                String k = firstKey(in, mid);
                if (below != null && compareKeys(k, below) < 0 || above != null && compareKeys(k, above) > 0) {
                    throw new Unprovable("first keys out of order at block " + mid);
                }
                int c = k == NONE ? 1 : k.compareTo(key);
                if (c < 0 || orEqual && c == 0) {
                    lo = mid + 1;
                    below = k;
                } else {
                    hi = mid;
                    above = k;
                }
            }
        } catch (IOException | StorageException e) {
            throw new Unprovable("unreadable block: " + e.getMessage());
        }
        return lo;
    }

    /** @return the order of two first keys, {@link #NONE} above every key */
    private static int compareKeys(String a, String b) {
        if (a == NONE || b == NONE) {
            return a == b ? 0 : a == NONE ? 1 : -1;
        }
        return a.compareTo(b);
    }

    /**
     * @param i a block
     * @return its lines, decoded and checked
     * @throws Unprovable when a line is malformed, its key is not its value's, or out of order
     */
    Chunk chunk(int i) {
        synchronized (chunks) {
            Chunk cached = chunks.get(i);
            if (cached != null) {
                return cached;
            }
        }
        Chunk read;
        try (StoreFiles.Input in = input()) {
            read = read(in, i);
        } catch (IOException | StorageException e) {
            throw new Unprovable("unreadable block: " + e.getMessage());
        }
        synchronized (chunks) {
            chunks.put(i, read);
        }
        return read;
    }

    private Chunk read(StoreFiles.Input in, int i) throws IOException {
        long from = (long) i * BLOCK;
        long to = Math.min(size, from + BLOCK);
        long start = from == 0 ? 0 : RangeMainLines.lineStartFrom(in, size, from);
        List<String> k = new ArrayList<>();
        List<Object> v = new ArrayList<>();
        List<String> ids = new ArrayList<>();
        if (start < 0 || start >= to) {
            return new Chunk(new String[0], new Object[0], new String[0]);
        }
        // One read for the block and the line that crosses its end, usually.
        byte[] bytes = RangeMainLines.readAt(in, start, (int) Math.min(size - start, to - start + RangeMainLines.PROBE));
        int length = bytes.length;
        String previous = null;
        String expected = firstKeys.get(i);
        int at = 0;
        while (start + at < to) {
            int end = at;
            while (end < length && bytes[end] != '\n') {
                end++;
            }
            if (end == length) { // a line longer than what was read
                bytes = java.util.Arrays.copyOf(bytes, (int) Math.min(size - start, Math.max(2L * length, length + RangeMainLines.PROBE)));
                if (bytes.length == length) {
                    throw new Unprovable("main file does not end with a newline");
                }
                RangeMainLines.fill(in, bytes, length, start + length);
                length = bytes.length;
                continue;
            }
            RangeFiles.Line line = RangeFiles.lineAt(bytes, at, end - at);
            if (line == null || !line.remove().isEmpty() || previous != null && line.key().compareTo(previous) < 0
                    || previous == null && expected != null && expected != NONE && !line.key().equals(expected)
                    || !order.matches(line.key(), line.value())) {
                throw new Unprovable("block " + i + " is not in key order");
            }
            previous = line.key();
            for (String id : line.ids()) {
                k.add(line.key());
                v.add(line.value());
                ids.add(id);
            }
            at = end + 1;
        }
        if (k.isEmpty()) {
            return new Chunk(new String[0], new Object[0], new String[0]);
        }
        String next = firstKeys.get(i + 1);
        if (next != null && next != NONE && next.compareTo(previous) < 0) {
            throw new Unprovable("block " + i + " ends after the next one starts");
        }
        remember(i, k.get(0));
        return new Chunk(k.toArray(new String[0]), v.toArray(), ids.toArray(new String[0]));
    }

    private StoreFiles.Input input() throws IOException {
        StoreFiles.Input in = files.openInput(main);
        if (in.size() != size) {
            in.close();
            throw new Unprovable("main file changed size");
        }
        return in;
    }
}
