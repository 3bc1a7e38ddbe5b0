package dev.storh.doc.index;

import dev.storh.StorageException;
import dev.storh.fs.AtomicFiles;
import dev.storh.fs.StoreFiles;
import dev.storh.json.CanonicalJson;
import dev.storh.json.Jsonc;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiConsumer;

/**
 * The files of one path index, storh's own (the original neither reads nor checks them):
 *
 * <pre>
 * entries/paths/&lt;key&gt;.jsonl         a header, then one line per record with entries, ascending id
 *   {"path":["publisher","name"],"ignoreCase":false}\n
 *   {"id":"&lt;id&gt;","values":["Acme"],"containers":false}\n
 * entries/paths/&lt;key&gt;.delta.jsonl   record lines appended by writes; a later line of an id replaces
 *                                  the earlier one, {@code "values":[]} without containers removes it
 * </pre>
 *
 * {@code key} is {@link PathIndexDefinition#fileKey()}. The main file exists from the first build on
 * (also with no entries), so a missing main file means the index is not built (for example after the
 * original rebuilt {@code entries/}). A line that cannot be decoded is skipped by readers and reported
 * by {@code verify()}. Stateless apart from its paths.
 *
 * @param files the collection's byte seam
 * @param definition the path index
 * @param main the main file
 * @param delta the delta file
 */
record PathIndexFiles(StoreFiles files, PathIndexDefinition definition, Path main, Path delta) {

    /**
     * @param files the collection's byte seam
     * @param entries an {@code entries/} tree (live or being built)
     * @param definition the path index
     */
    PathIndexFiles(StoreFiles files, Path entries, PathIndexDefinition definition) {
        this(files, definition, IndexLayout.pathMain(entries, definition), IndexLayout.pathDelta(entries, definition));
    }

    /** @return the main file's stamp now ({@link IndexManifest.Stamp#ABSENT} when missing) */
    IndexManifest.Stamp mainStamp() {
        return IndexManifest.stamp(files, main);
    }

    /** @return whether the main file exists, that is whether the index is built */
    boolean built() {
        return IndexBytes.exists(files, main);
    }

    static byte[] encodeLine(String id, PathIndexDefinition.Entries e) {
        Map<String, Object> doc = new LinkedHashMap<>();
        doc.put("id", id);
        doc.put("values", new ArrayList<>(e.values()));
        doc.put("containers", e.containers());
        return CanonicalJson.encodeCompact(doc);
    }

    private byte[] header() {
        Map<String, Object> doc = new LinkedHashMap<>();
        doc.put("path", new ArrayList<Object>(definition.path().segments()));
        doc.put("ignoreCase", definition.ignoreCase());
        return CanonicalJson.encodeCompact(doc);
    }

    /**
     * Writes the main file from a complete state (ids ascending) and removes the delta, the delta last.
     *
     * @param state id → entries, in ascending id order
     */
    void writeMain(Map<String, PathIndexDefinition.Entries> state) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes(header());
        state.forEach((id, e) -> {
            if (!e.isEmpty()) {
                out.writeBytes(encodeLine(id, e));
            }
        });
        AtomicFiles.ensureDirectory(files, files.nameOf(main.getParent()));
        AtomicFiles.writeAtomic(files, files.nameOf(main), out.toByteArray());
        AtomicFiles.deleteQuietly(files, files.nameOf(delta));
        AtomicFiles.syncDirectory(files, files.nameOf(delta.getParent()));
    }

    /**
     * What {@link #appendDelta} appended.
     *
     * @param from the delta's size before the append
     * @param bytes the bytes appended, ending with a newline
     */
    record Appended(long from, byte[] bytes) {
        /** @return the delta's size after the append */
        long to() {
            return from + bytes.length;
        }
    }

    /**
     * Appends record lines with one fsync; first ends a torn last line (a crashed append) so the new
     * lines stay readable.
     *
     * @param lines encoded lines
     * @return what was appended, or {@code null} for no lines
     */
    Appended appendDelta(List<byte[]> lines) {
        if (lines.isEmpty()) {
            return null;
        }
        String name = files.nameOf(delta);
        long size;
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try {
            size = files.stat(name).map(StoreFiles.Entry::size).orElse(0L);
            if (size > 0) {
                try (InputStream in = files.open(name, size - 1)) {
                    if (in.read() != '\n') {
                        out.write('\n');
                    }
                }
            }
        } catch (NoSuchFileException e) {
            size = 0;
        } catch (IOException e) {
            throw new StorageException("Could not read path index file: " + delta, e);
        }
        lines.forEach(out::writeBytes);
        byte[] bytes = out.toByteArray();
        AtomicFiles.append(files, name, bytes);
        return new Appended(size, bytes);
    }

    /**
     * Reads lines this instance appended as {@link #readDelta} reads them from the file.
     *
     * @param appended what {@link #appendDelta} appended
     * @param onLine receives each record line
     */
    void readAppended(Appended appended, BiConsumer<String, PathIndexDefinition.Entries> onLine) {
        lines(appended.bytes(), 0, appended.bytes().length, onLine, null, delta);
    }

    /**
     * @return the size of the delta in bytes (0 when absent)
     */
    long deltaBytes() {
        return IndexBytes.sizeOf(files, delta);
    }

    /**
     * @return the size of the main file in bytes (0 when absent)
     */
    long mainBytes() {
        return IndexBytes.sizeOf(files, main);
    }

    /**
     * Reads the main file: its header must name this index.
     *
     * @param onLine receives each record line's id and entries
     * @param errors receives problems (or {@code null} to skip bad lines silently)
     * @return whether the main file exists (and names this index)
     */
    boolean readMain(BiConsumer<String, PathIndexDefinition.Entries> onLine, List<String> errors) {
        byte[] bytes;
        try {
            bytes = IndexBytes.readOrNull(files, main);
            if (bytes == null) {
                return false;
            }
        } catch (IOException e) {
            if (errors != null) {
                errors.add("Unreadable path index file: " + main + " (" + e.getMessage() + ")");
            }
            return false;
        }
        int firstEnd = indexOf(bytes, 0);
        if (firstEnd < 0 || !java.util.Arrays.equals(java.util.Arrays.copyOfRange(bytes, 0, firstEnd + 1), header())) {
            if (errors != null) {
                errors.add("Malformed path index file: " + main + " (the header does not name " + definition.label() + ")");
            }
            return false;
        }
        lines(bytes, firstEnd + 1, bytes.length, onLine, errors, main);
        return true;
    }

    /**
     * Reads the delta from a byte offset, complete lines only.
     *
     * @param from the offset of the first unread byte
     * @param onLine receives each record line
     * @param errors receives problems, or {@code null}
     * @return the offset after the last complete line read
     */
    long readDelta(long from, BiConsumer<String, PathIndexDefinition.Entries> onLine, List<String> errors) {
        byte[] bytes;
        String name = files.nameOf(delta);
        try {
            long size = files.stat(name).map(StoreFiles.Entry::size).orElse(0L);
            if (size <= from) {
                return from;
            }
            try (InputStream in = files.open(name, from)) {
                bytes = in.readNBytes(Math.toIntExact(size - from));
            }
        } catch (NoSuchFileException e) {
            return from;
        } catch (IOException e) {
            if (errors != null) {
                errors.add("Unreadable path index file: " + delta + " (" + e.getMessage() + ")");
            }
            return from;
        }
        int end = bytes.length;
        while (end > 0 && bytes[end - 1] != '\n') {
            end--;
        }
        lines(bytes, 0, end, onLine, errors, delta);
        return from + end;
    }

    private static int indexOf(byte[] bytes, int from) {
        for (int i = from; i < bytes.length; i++) {
            if (bytes[i] == '\n') {
                return i;
            }
        }
        return -1;
    }

    private static void lines(byte[] bytes, int from, int to, BiConsumer<String, PathIndexDefinition.Entries> onLine,
            List<String> errors, Path file) {
        int start = from;
        for (int i = from; i < to; i++) {
            if (bytes[i] != '\n') {
                continue;
            }
            if (i > start) {
                try {
                    Map<String, Object> doc = Jsonc.decodeObject(java.util.Arrays.copyOfRange(bytes, start, i));
                    if (!(doc.get("id") instanceof String id) || !(doc.get("values") instanceof List<?> values)
                            || !(doc.get("containers") instanceof Boolean containers)
                            || !values.stream().allMatch(IndexKeys::isIndexable)) {
                        throw new StorageException("not a record line");
                    }
                    onLine.accept(id, new PathIndexDefinition.Entries(new ArrayList<>(values), containers));
                } catch (StorageException e) {
                    if (errors != null) {
                        errors.add("Malformed path index line: " + file);
                    }
                }
            }
            start = i + 1;
        }
    }
}
