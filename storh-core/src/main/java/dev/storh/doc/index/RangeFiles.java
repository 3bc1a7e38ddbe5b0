package dev.storh.doc.index;

import dev.storh.StorageException;
import dev.storh.fs.AtomicFiles;
import dev.storh.fs.StoreFiles;
import dev.storh.json.CanonicalJson;
import dev.storh.json.Jsonc;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Range index files of one field:
 *
 * <pre>
 * entries/range/&lt;hex(field)&gt;.jsonl        main file, sorted by (rangeKey, valueKey, line), one id per line
 *   {"key":"n-00000000000000010d000000","value":10,"count":1,"ids":["&lt;id&gt;"],"remove":[]}\n
 * entries/range/&lt;hex(field)&gt;.idx.jsonc    {"stride":256,"checkpoints":[{"key":..,"offset":..}, ...]}\n
 * entries/range/&lt;hex(field)&gt;.delta.jsonl  appended changes: adds (count 1) and removals
 *   {"key":..,"value":&lt;old&gt;,"count":-1,"ids":[],"remove":["&lt;id&gt;"]}\n
 * </pre>
 *
 * The effective content is the main file's lines, then the delta's, each adding its ids and
 * removing its {@code remove} ids. Unlike the original, the delta is folded back into the main
 * file once it grows (W5): main and checkpoints are replaced first, the delta deleted last, which
 * the original reads correctly. Immutable: the paths of one field's files and the seam they are
 * read and written through.
 *
 * @param files the collection's byte seam, which every write goes through
 * @param field the range-indexed field
 * @param main the main file
 * @param checkpoints the checkpoint file
 * @param delta the delta file
 * @param unindexed the ids of records whose field holds a list or an object, which the range lines
 *     cannot hold (the original never indexes them): {@code {"field":"<field>","ids":[...]}}. Written
 *     by every rebuild (also when empty) and kept by writes, so range conditions that lists or
 *     objects can satisfy ({@code gt(5)} matches every object) still find those records. The
 *     original neither reads nor writes it; a store whose range files the original rebuilt has none.
 */
record RangeFiles(StoreFiles files, String field, Path main, Path checkpoints, Path delta, Path unindexed) {

    static final int STRIDE = 256;

    private static final byte[] NEWLINE = {'\n'};

    /** The change of an id that a delta removes, in the maps of {@link #fold(long, boolean)}. */
    static final Object REMOVED = new Object();

    /**
     * @param files the collection's byte seam, which every write goes through
     * @param entries an {@code entries/} tree (live or being built)
     * @param field the range-indexed field
     */
    RangeFiles(StoreFiles files, Path entries, String field) {
        this(files, field, IndexLayout.rangeMain(entries, field), IndexLayout.rangeCheckpoints(entries, field),
                IndexLayout.rangeDelta(entries, field), IndexLayout.rangeUnindexed(entries, field));
    }

    /**
     * @return the ids of {@link #unindexed()}, or {@code null} when the file is missing or unreadable
     */
    java.util.Set<String> readUnindexed() {
        try {
            byte[] bytes = IndexBytes.readOrNull(files, unindexed);
            if (bytes == null) {
                return null;
            }
            Map<String, Object> doc = Jsonc.decodeObject(bytes);
            if (!field.equals(doc.get("field")) || !(doc.get("ids") instanceof List)) {
                return null;
            }
            return new java.util.TreeSet<>(IndexBytes.strings(doc.get("ids")));
        } catch (IOException | StorageException e) {
            return null;
        }
    }

    /**
     * @param ids the ids of records whose field holds a list or an object
     */
    void writeUnindexed(java.util.Collection<String> ids) {
        Map<String, Object> doc = new LinkedHashMap<>();
        doc.put("field", field);
        doc.put("ids", new ArrayList<>(new java.util.TreeSet<>(ids)));
        AtomicFiles.ensureDirectory(files, files.nameOf(unindexed.getParent()));
        AtomicFiles.writeAtomic(files, files.nameOf(unindexed), CanonicalJson.encodeCompact(doc));
    }

    /** A decoded line. */
    record Line(String key, Object value, long count, List<String> ids, List<String> remove) {
    }

    static byte[] encodeLine(String key, Object value, long count, List<String> ids, List<String> remove) {
        Map<String, Object> doc = new LinkedHashMap<>();
        doc.put("key", key);
        doc.put("value", value);
        doc.put("count", count);
        doc.put("ids", ids);
        doc.put("remove", remove);
        return CanonicalJson.encodeCompact(doc);
    }

    static Line decodeLine(byte[] bytes, int off, int len) {
        Map<String, Object> doc = Jsonc.decodeObject(java.util.Arrays.copyOfRange(bytes, off, off + len));
        if (!(doc.get("key") instanceof String key)) {
            throw new StorageException("Malformed range index line: key is not a string");
        }
        long count = doc.get("count") instanceof Long l ? l : 0;
        return new Line(key, doc.get("value"), count, IndexBytes.strings(doc.get("ids")), IndexBytes.strings(doc.get("remove")));
    }

    /**
     * Replays main then delta.
     *
     * @param errors receives problems per line ({@code null} to skip bad lines silently)
     * @return id → value, in no particular order
     */
    Map<String, Object> load(List<String> errors) {
        // about 130 bytes a line in the main file: sized once instead of growing through every doubling
        Map<String, Object> state = new HashMap<>((int) Math.min(1 << 24, mainBytes() / 75 + 16));
        LineSink apply = line -> {
            if (line != null) {
                for (String id : line.ids()) {
                    state.put(id, line.value());
                }
                line.remove().forEach(state::remove);
            }
        };
        forEachLine(main, apply, errors);
        forEachLine(delta, apply, errors);
        return state;
    }

    /** Receives the lines of a range file in order. */
    interface LineSink {
        /** @param line a decoded line, or {@code null} for a malformed one (already reported) */
        void accept(Line line);
    }

    /**
     * Reads a range file line by line, holding one read buffer and one line.
     *
     * @param file the main file or the delta; a missing file has no lines
     * @param sink receives each line
     * @param errors receives problems per line and an unreadable file ({@code null} to skip bad lines silently)
     */
    void forEachLine(Path file, LineSink sink, List<String> errors) {
        forEachRawLine(file, (bytes, off, len) -> acceptLine(file, bytes, off, len, sink, errors), errors);
    }

    /** Receives the lines of a range file in order, as bytes. */
    interface RawLineSink {
        /**
         * @param bytes a buffer, valid during the call only
         * @param off where the line starts
         * @param len its length, without the newline (never 0)
         */
        void accept(byte[] bytes, int off, int len);
    }

    /**
     * Reads a range file line by line as bytes, holding one read buffer.
     *
     * @param file the main file or the delta; a missing file has no lines
     * @param sink receives each non-empty line
     * @param errors receives an unreadable file ({@code null} to skip it silently)
     */
    void forEachRawLine(Path file, RawLineSink sink, List<String> errors) {
        try (java.io.InputStream in = files.open(files.nameOf(file))) {
            // read in blocks and decoded in place: a byte-at-a-time read cost a fold of a 10 MB file
            // more than its decoding
            byte[] buf = new byte[StreamedFile.BUFFER];
            int start = 0; // the first byte of the line being read
            int end = 0; // how many bytes buf holds
            int scan = 0; // the next byte to test for a newline
            while (true) {
                int newline = -1;
                for (int i = scan; i < end; i++) {
                    if (buf[i] == '\n') {
                        newline = i;
                        break;
                    }
                }
                if (newline >= 0) {
                    if (newline > start) {
                        sink.accept(buf, start, newline - start);
                    }
                    start = newline + 1;
                    scan = start;
                    continue;
                }
                if (start > 0) { // keep the partial line at the front
                    System.arraycopy(buf, start, buf, 0, end - start);
                    end -= start;
                    start = 0;
                }
                scan = end;
                if (end == buf.length) {
                    buf = java.util.Arrays.copyOf(buf, buf.length * 2); // a line longer than the buffer
                }
                int read = in.read(buf, end, buf.length - end);
                if (read < 0) {
                    if (end > 0) {
                        sink.accept(buf, 0, end); // a last line without its newline
                    }
                    return;
                }
                end += read;
            }
        } catch (java.nio.file.NoSuchFileException e) {
            // no lines
        } catch (IOException e) {
            if (errors != null) {
                errors.add("Unreadable range index file: " + file + " (" + e.getMessage() + ")");
            }
        }
    }

    private static void acceptLine(Path file, byte[] bytes, int off, int len, LineSink sink, List<String> errors) {
        Line decoded = lineAt(bytes, off, len);
        if (decoded == null && errors != null) {
            errors.add("Malformed range index line: " + file);
        } else if (decoded != null && errors != null && !decoded.key().equals(IndexKeys.rangeKey(decoded.value()))) {
            errors.add("Range index key mismatch: " + file);
        }
        sink.accept(decoded);
    }

    /**
     * @param bytes a buffer
     * @param off where a line starts
     * @param len its length, without the newline
     * @return the line decoded, or {@code null} when it is malformed or its value is not indexable
     *     (a replay skips it)
     */
    static Line lineAt(byte[] bytes, int off, int len) {
        return lineAt(bytes, off, len, RangeLines.decode(bytes, off, len));
    }

    /**
     * {@link #lineAt(byte[], int, int)} of a line {@link RangeLines} has already read.
     *
     * @param plain what {@link RangeLines#decode} read of it, or {@code null}: it is not in the plain form
     */
    static Line lineAt(byte[] bytes, int off, int len, Line plain) {
        try {
            Line line = plain != null ? plain : decodeLine(bytes, off, len);
            return IndexKeys.isIndexable(line.value()) ? line : null;
        } catch (StorageException e) {
            return null;
        }
    }

    /**
     * Appends changes to the delta file with one fsync.
     *
     * @param lines encoded lines
     */
    void appendDelta(List<byte[]> lines) {
        if (lines.isEmpty()) {
            return;
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        lines.forEach(out::writeBytes);
        AtomicFiles.append(files, files.nameOf(delta), out.toByteArray());
    }

    /**
     * @return the delta file's size in bytes (0 when absent)
     */
    long deltaBytes() {
        return IndexBytes.sizeOf(files, delta);
    }

    /**
     * @return the main file's size in bytes (0 when absent)
     */
    long mainBytes() {
        return IndexBytes.sizeOf(files, main);
    }

    /**
     * Writes the main file and checkpoints from a complete state and removes the delta: main and
     * checkpoints first, the delta last. With no values, all three files are removed.
     *
     * @param state id → value
     */
    void writeMain(Map<String, Object> state) {
        if (state.isEmpty()) {
            AtomicFiles.deleteQuietly(files, files.nameOf(checkpoints));
            AtomicFiles.deleteQuietly(files, files.nameOf(main));
            AtomicFiles.deleteQuietly(files, files.nameOf(delta));
            return;
        }
        record Sorted(String rangeKey, String valueKey, byte[] line) {
        }
        List<Sorted> rows = new ArrayList<>(state.size());
        state.forEach((id, value) -> rows.add(new Sorted(IndexKeys.rangeKey(value), IndexKeys.valueKey(value),
                encodeLine(IndexKeys.rangeKey(value), value, 1, List.of(id), List.of()))));
        Comparator<byte[]> bytewise = java.util.Arrays::compareUnsigned;
        rows.sort(Comparator.comparing(Sorted::rangeKey).thenComparing(Sorted::valueKey)
                .thenComparing(Sorted::line, bytewise));
        try (MainWriter writer = new MainWriter()) {
            rows.forEach(r -> writer.add(r.rangeKey(), r.line()));
            writer.finish();
        }
    }

    /**
     * @param id a record id
     * @param value its indexable value
     * @return the sort row of its main-file line: range key, value key and the line, apart by
     *     {@link ExpectedIndexes#SEP}, so that rows sort in the main file's order
     */
    static String sortRow(String id, Object value) {
        String rangeKey = IndexKeys.rangeKey(value);
        return rangeKey + ExpectedIndexes.SEP + IndexKeys.valueKey(value) + ExpectedIndexes.SEP
                + new String(encodeLine(rangeKey, value, 1, List.of(id), List.of()), StandardCharsets.UTF_8);
    }

    /**
     * @param row a row of {@link #sortRow}, from {@code from} on
     * @param from where the row's range key starts
     * @param writer receives its line
     */
    static void addSortRow(String row, int from, MainWriter writer) {
        int rangeEnd = row.indexOf(ExpectedIndexes.SEP, from);
        int valueEnd = row.indexOf(ExpectedIndexes.SEP, rangeEnd + 1);
        writer.add(row.substring(from, rangeEnd), row.substring(valueEnd + 1).getBytes(StandardCharsets.UTF_8));
    }

    /**
     * Folds the delta into a new main file (as {@link #writeMain} of {@link #load} does), holding
     * only the delta's changes and the sort's buffer: the main file's entries of ids the delta does
     * not touch and the delta's last value of every id it adds go through an external sort, whose
     * runs are temp files of the range folder. Main files as storh and the original write them (one
     * id a line, no removals) fold exactly; one with removals is folded in memory instead.
     */
    void fold() {
        fold(SortedRows.BUDGET_CHARS);
    }

    /** {@link #fold()} with another sort budget ({@link SortedRows}). */
    void fold(long budgetChars) {
        fold(budgetChars, true);
    }

    /**
     * @param budgetChars the sort budget ({@link SortedRows})
     * @param merge whether a main file in its own order is merged with the delta without a sort
     *     ({@link #foldByMerge}); without, every fold sorts (the same bytes, for tests)
     */
    void fold(long budgetChars, boolean merge) {
        Map<String, Object> changed = deltaChanges();
        Object removed = REMOVED;
        if (merge && foldByMerge(changed)) {
            return;
        }
        boolean[] removals = {false};
        try (SortedRows rows = new SortedRows(files, files.nameOf(main.getParent()), budgetChars)) {
            forEachLine(main, line -> {
                if (line != null) {
                    removals[0] |= !line.remove().isEmpty();
                    for (String id : line.ids()) {
                        if (!changed.containsKey(id)) {
                            rows.add(sortRow(id, line.value()));
                        }
                    }
                }
            }, null);
            if (removals[0]) {
                rows.close();
                writeMain(load(null));
                return;
            }
            changed.forEach((id, value) -> {
                if (value != removed) {
                    rows.add(sortRow(id, value));
                }
            });
            try (MainWriter writer = new MainWriter()) {
                for (java.util.Iterator<String> it = rows.sorted(); it.hasNext();) {
                    addSortRow(it.next(), 0, writer);
                }
                writer.finish();
            }
        }
    }

    /** @return the delta's last change of every id it touches: its value, or {@link #REMOVED} */
    Map<String, Object> deltaChanges() {
        Map<String, Object> changed = new HashMap<>();
        forEachLine(delta, line -> {
            if (line != null) {
                line.ids().forEach(id -> changed.put(id, line.value()));
                line.remove().forEach(id -> changed.put(id, REMOVED));
            }
        }, null);
        return changed;
    }

    /**
     * {@link #fold()} without a sort when the main file is in its own order: its rows (one id a
     * line, no removals, in {@link #sortRow} order, as storh and the original write them) are
     * merged with the delta's rows, sorted in memory, as they are read ({@link RangeMerge}). The
     * result is the sort's, byte for byte. Any other main file (a line with several ids or
     * removals, rows out of order) is left as it was, for the sort.
     *
     * @param changed the delta's last change of every id it touches: its value, or {@link #REMOVED}
     * @return whether the main file was folded; {@code false} leaves every file as it was
     */
    boolean foldByMerge(Map<String, Object> changed) {
        return new RangeMerge(this).fold(changed);
    }

    /**
     * Writes a new main file from lines given in file order (range key, value key, then the line's
     * bytes), with a checkpoint every {@link #STRIDE} lines, holding one buffer and the
     * checkpoints: into a temp file renamed over the main file by {@link #finish()}, which then
     * writes the checkpoints and removes the delta. Closed unfinished, it leaves the files as they were.
     */
    final class MainWriter implements AutoCloseable {
        private final String temp = files.nameOf(main.resolveSibling("." + main.getFileName() + "."
                + Long.toHexString(System.nanoTime()) + dev.storh.doc.DocLayout.TEMP_SUFFIX));
        private final StreamedFile out;
        private final List<Object> points = new ArrayList<>();
        private long lines;

        MainWriter() {
            AtomicFiles.ensureDirectory(files, files.nameOf(main.getParent()));
            out = new StreamedFile(files, temp);
        }

        /**
         * @param rangeKey the line's range key
         * @param line the encoded line, with its newline
         */
        void add(String rangeKey, byte[] line) {
            checkpoint(rangeKey);
            out.write(line);
        }

        /**
         * @param rangeKey the line's range key
         * @param bytes a buffer holding the line, without its newline
         * @param off where the line starts
         * @param len its length
         */
        void add(String rangeKey, byte[] bytes, int off, int len) {
            checkpoint(rangeKey);
            out.write(bytes, off, len);
            out.write(NEWLINE);
        }

        /** A checkpoint at every {@link #STRIDE}th line, before the line is written. */
        private void checkpoint(String rangeKey) {
            if (lines++ % STRIDE == 0) {
                Map<String, Object> point = new LinkedHashMap<>();
                point.put("key", rangeKey);
                point.put("offset", out.position());
                points.add(point);
            }
        }

        /** Puts the new main file in place (or removes the files when no line was added). */
        void finish() {
            if (lines == 0) {
                out.close();
                AtomicFiles.deleteQuietly(files, files.nameOf(checkpoints));
                AtomicFiles.deleteQuietly(files, files.nameOf(main));
                AtomicFiles.deleteQuietly(files, files.nameOf(delta));
                return;
            }
            out.finish();
            AtomicFiles.moveAtomic(files, temp, files.nameOf(main));
            Map<String, Object> idx = new LinkedHashMap<>();
            idx.put("stride", (long) STRIDE);
            idx.put("checkpoints", points);
            AtomicFiles.writeAtomic(files, files.nameOf(checkpoints), CanonicalJson.encodeCompact(idx));
            AtomicFiles.deleteQuietly(files, files.nameOf(delta));
            AtomicFiles.syncDirectory(files, files.nameOf(delta.getParent()));
        }

        @Override
        public void close() {
            out.close();
        }
    }

    static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
