package dev.storh.doc.index;

import dev.storh.StorageException;
import dev.storh.fs.AtomicFiles;
import dev.storh.fs.StoreFiles;
import dev.storh.json.CanonicalJson;
import dev.storh.json.Jsonc;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * storh's opt-in append-only layout of equality and compound value files (see docs/indexes.md,
 * "Value deltas"): beside a value file {@code <valueKey>.jsonc} a write appends its change to
 * {@code <valueKey>.delta.jsonl} instead of rewriting the value file, so a put or a delete costs
 * the same however many records share the value. One compact JSON line per change, in order:
 *
 * <pre>
 * {"count":1043,"add":["&lt;id&gt;"],"remove":[]}\n
 * </pre>
 *
 * {@code count} is the number of ids the value holds after the line. The value's ids are the value
 * file's, then each line's {@code add} added and {@code remove} removed. A delta exists only beside
 * a value file; once it passes {@link #FOLD_BYTES} it is folded: the value file is rewritten with
 * the merged ids, then the delta deleted (a reader that read the old delta before the value file
 * replays it onto the new value file, which changes nothing). A value left with no ids loses both
 * files, value file first. Readers read the delta before the value file.
 *
 * <p>The original reads value files only: a collection written in this layout is not for a root
 * shared with it. Callers hold the collection write lock for writes. Stateless.
 */
final class ValueDeltas {

    /** The delta size past which it is folded into its value file. */
    static final int FOLD_BYTES = 64 * 1024;

    /** The delta file's suffix, in place of the value file's {@code .jsonc}. */
    static final String SUFFIX = ".delta.jsonl";

    private ValueDeltas() {
    }

    /**
     * @param valueFile a value file {@code <valueKey>.jsonc}
     * @return its delta file {@code <valueKey>.delta.jsonl}
     */
    static Path deltaOf(Path valueFile) {
        String name = valueFile.getFileName().toString();
        String stem = name.endsWith(".jsonc") ? name.substring(0, name.length() - ".jsonc".length()) : name;
        return valueFile.resolveSibling(stem + SUFFIX);
    }

    /**
     * The changes of a delta file, replayed.
     *
     * @param ops id → whether the id is held after the last line that names it
     * @param count the {@code count} of the last line, or -1 when no line carries one
     * @param bytes the delta's size in bytes
     * @param torn whether the delta ends in a line without its newline (an append cut short), which
     *     is skipped; the next write folds the delta rather than append after it
     */
    record Changes(Map<String, Boolean> ops, long count, long bytes, boolean torn) {

        /**
         * @param valueFileIds the value file's ids
         * @return the ids the value holds, ascending
         */
        TreeSet<String> applyTo(Collection<String> valueFileIds) {
            TreeSet<String> ids = new TreeSet<>(valueFileIds);
            ops.forEach((id, present) -> {
                if (present) {
                    ids.add(id);
                } else {
                    ids.remove(id);
                }
            });
            return ids;
        }

        /** @return how many ids the changes remove (at most that many of the value file's are gone) */
        int removed() {
            return (int) ops.values().stream().filter(p -> !p).count();
        }
    }

    /**
     * @param files the collection's byte seam
     * @param valueFile a value file
     * @return the changes of its delta, or {@code null} when it has none; a torn last line (an
     *     append cut short) is skipped
     * @throws StorageException {@code "Could not read equality index: <path>"}
     */
    static Changes read(StoreFiles files, Path valueFile) {
        byte[] bytes = EqualityFiles.readBytes(files, deltaOf(valueFile));
        if (bytes == null) {
            return null;
        }
        Map<String, Boolean> ops = new LinkedHashMap<>();
        long count = -1;
        int start = 0;
        for (int i = 0; i < bytes.length; i++) {
            if (bytes[i] != '\n') {
                continue;
            }
            if (i > start) {
                Map<String, Object> line;
                try {
                    line = Jsonc.decodeObject(java.util.Arrays.copyOfRange(bytes, start, i));
                } catch (StorageException torn) {
                    start = i + 1;
                    continue;
                }
                IndexBytes.strings(line.get("add")).forEach(id -> ops.put(id, true));
                IndexBytes.strings(line.get("remove")).forEach(id -> ops.put(id, false));
                if (line.get("count") instanceof Long c) {
                    count = c;
                }
            }
            start = i + 1;
        }
        return new Changes(ops, count, bytes.length, start < bytes.length);
    }

    /**
     * Applies removals then additions to a value by appending a delta line (or writing the value
     * file when the value is new, folding the delta once it is large, removing both files when the
     * value holds no id any more).
     *
     * @param files the collection's byte seam, which the write goes through
     * @param file the value file
     * @param field its {@code field} member
     * @param key its {@code key} member
     * @param value its {@code value} member
     * @param remove ids to drop (held by the value)
     * @param add ids to add (not held by the value)
     */
    static void update(StoreFiles files, Path file, String field, String key, Object value, Collection<String> remove,
            Collection<String> add) {
        String name = files.nameOf(file);
        String deltaName = files.nameOf(deltaOf(file));
        if (!exists(files, name)) {
            deleteDelta(files, file); // a delta never outlives its value file
            if (!add.isEmpty()) {
                TreeSet<String> ids = new TreeSet<>(add);
                ids.removeAll(remove);
                AtomicFiles.writeAtomic(files, name, EqualityFiles.encode(field, key, value, ids));
            }
            return;
        }
        Changes changes = read(files, file);
        long before = changes != null && changes.count() >= 0 ? changes.count()
                : EqualityFiles.headOfValueFile(files, file, key, 0).count();
        long after = before < 0 ? -1 : before - remove.size() + add.size();
        if (after == 0) {
            try {
                AtomicFiles.deleteDurably(files, name);
            } catch (IOException e) {
                throw new StorageException("Could not delete index file: " + file, e);
            }
            deleteDelta(files, file);
            return;
        }
        long bytes = changes == null ? 0 : changes.bytes();
        if (after < 0 || bytes > FOLD_BYTES || (changes != null && changes.torn())) {
            fold(files, file, field, key, value, changes, remove, add);
            return;
        }
        Map<String, Object> line = new LinkedHashMap<>();
        line.put("count", after);
        line.put("add", new ArrayList<>(new TreeSet<>(add)));
        line.put("remove", new ArrayList<>(new TreeSet<>(remove)));
        AtomicFiles.append(files, deltaName, CanonicalJson.encodeCompact(line));
        if (changes == null) {
            syncFolder(files, deltaName); // a new name in the folder
        }
    }

    /**
     * Deletes the delta of a value file, if any, and fsyncs its folder (through the seam: the
     * index writes' seam defers it), so a delta already merged into its value file cannot come
     * back after a power cut.
     *
     * @param files the collection's byte seam
     * @param valueFile the value file
     * @throws StorageException {@code "Could not delete index file: <path>"}
     */
    static void deleteDelta(StoreFiles files, Path valueFile) {
        Path delta = deltaOf(valueFile);
        try {
            AtomicFiles.deleteDurably(files, files.nameOf(delta));
        } catch (IOException e) {
            throw new StorageException("Could not delete index file: " + delta, e);
        }
    }

    private static void syncFolder(StoreFiles files, String name) {
        try {
            files.syncDirectory(AtomicFiles.parentName(name));
        } catch (IOException e) {
            throw new StorageException("Could not sync index folder: " + files.path(AtomicFiles.parentName(name)), e);
        }
    }

    /** Rewrites the value file with every change merged, then deletes the delta. */
    private static void fold(StoreFiles files, Path file, String field, String key, Object value, Changes changes,
            Collection<String> remove, Collection<String> add) {
        EqualityFiles.Entry main = EqualityFiles.readValueFile(files, file);
        List<String> mainIds = main != null && field.equals(main.field()) && key.equals(main.key()) ? main.ids() : List.of();
        TreeSet<String> ids = changes == null ? new TreeSet<>(mainIds) : changes.applyTo(mainIds);
        ids.removeAll(remove);
        ids.addAll(add);
        String name = files.nameOf(file);
        if (ids.isEmpty()) {
            try {
                AtomicFiles.deleteDurably(files, name);
            } catch (IOException e) {
                throw new StorageException("Could not delete index file: " + file, e);
            }
        } else {
            AtomicFiles.writeAtomic(files, name, EqualityFiles.encode(field, key, value, ids));
        }
        deleteDelta(files, file);
    }

    private static boolean exists(StoreFiles files, String name) {
        try {
            return files.stat(name).isPresent();
        } catch (IOException e) {
            throw new StorageException("Could not read equality index: " + files.path(name), e);
        }
    }
}
