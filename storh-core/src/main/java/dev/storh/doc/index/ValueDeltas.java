package dev.storh.doc.index;

import dev.storh.StorageException;
import dev.storh.fs.AtomicFiles;
import dev.storh.fs.StoreFiles;
import dev.storh.json.CanonicalJson;
import dev.storh.json.Jsonc;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * storh's opt-in append-only layout of equality and compound value files (see docs/indexes.md,
 * "Value deltas"): beside a value file {@code <valueKey>.jsonc} a write appends its change to
 * {@code <valueKey>.delta.jsonl} instead of rewriting the value file, so a put or a delete costs
 * the same however many records share the value. One compact JSON line per change, in order:
 *
 * <pre>
 * {"add":["&lt;id&gt;"],"remove":[],"count":1043}\n
 * </pre>
 *
 * {@code count} is the number of ids the value holds after the line; it comes last, so that a
 * write and a count read it from the end of the delta without parsing the rest. The value's ids
 * are the value file's, then each line's {@code add} added and {@code remove} removed. A delta
 * exists only beside a value file; once it passes a quarter of the value file's size ({@link #foldAt}: at least
 * {@link #MIN_FOLD_BYTES}, at most {@link #FOLD_BYTES}, so that a write costs a bounded share of
 * the value file and a read a bounded share more than the value file alone) it is folded: the
 * value file is rewritten with the merged ids, then the delta deleted. A value left with no ids
 * loses both files, value file first. Readers read the delta before the value file, and both
 * again when the delta changed meanwhile ({@link #unchanged}).
 *
 * <p>The original reads value files only: a collection written in this layout is not for a root
 * shared with it. Callers hold the collection write lock for writes. Stateless.
 */
final class ValueDeltas {

    /** The delta size past which it is folded into its value file. */
    static final int FOLD_BYTES = 64 * 1024;

    /** The delta size below which it is never folded. */
    static final int MIN_FOLD_BYTES = 4 * 1024;

    /**
     * @param valueFileBytes the value file's size
     * @return the delta size past which the delta is folded into it
     */
    static long foldAt(long valueFileBytes) {
        return Math.max(MIN_FOLD_BYTES, Math.min(FOLD_BYTES, valueFileBytes / 4));
    }

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
     * @param version the delta's version ({@link StoreFiles#version}) read before its bytes
     */
    record Changes(Map<String, Boolean> ops, long count, long bytes, boolean torn, String version) {

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
        String version = deltaVersion(files, valueFile); // one stat: most value files have no delta
        byte[] bytes = version == null ? null : EqualityFiles.readBytes(files, deltaOf(valueFile));
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
                    line = Jsonc.decodeObject(Arrays.copyOfRange(bytes, start, i));
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
        return new Changes(ops, count, bytes.length, start < bytes.length, version);
    }

    /**
     * Whether a delta read before its value file still holds what was read: a reader that read the
     * delta, then the value file, reads both again when not (a write may have folded or removed
     * the delta and written a new value file between the two reads, and the old delta's changes
     * would then be applied to ids they were not meant for).
     *
     * @param files the collection's byte seam
     * @param valueFile the value file
     * @param read what {@link #read} returned for it
     * @return whether the delta's version is still the one read
     */
    static boolean unchanged(StoreFiles files, Path valueFile, Changes read) {
        return read.version().equals(deltaVersion(files, valueFile));
    }

    /**
     * @return the version of a value file's delta, {@code null} when it is absent or unreadable: one
     *     plain {@code stat} when there is none ({@link StoreFiles#versionInSeenFolder}; an absent
     *     folder means no delta too, so its folder needs no look of its own)
     */
    private static String deltaVersion(StoreFiles files, Path valueFile) {
        try {
            return files.versionInSeenFolder(files.nameOf(deltaOf(valueFile))).orElse(null);
        } catch (IOException e) {
            return null;
        }
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
        long valueFileBytes = size(files, name);
        if (valueFileBytes < 0) {
            if (size(files, deltaName) >= 0) {
                deleteDelta(files, file); // a delta never outlives its value file
            }
            if (!add.isEmpty()) {
                TreeSet<String> ids = new TreeSet<>(add);
                ids.removeAll(remove);
                AtomicFiles.writeAtomic(files, name, EqualityFiles.encode(field, key, value, ids));
            }
            return;
        }
        Tail tail = tail(files, file); // the count and the size: the delta is not parsed on a write
        long before = tail != null ? tail.count() : EqualityFiles.headOfValueFile(files, file, key, 0).count();
        long after = before < 0 ? -1 : before - remove.size() + add.size();
        if (after <= 0 || (tail != null && tail.bytes() > foldAt(valueFileBytes))) {
            fold(files, file, field, key, value, remove, add); // exact: also when the value is left empty or the tail is torn
            return;
        }
        Map<String, Object> line = new LinkedHashMap<>();
        line.put("add", new ArrayList<>(new TreeSet<>(add)));
        line.put("remove", new ArrayList<>(new TreeSet<>(remove)));
        line.put("count", after); // last, so that a write or a count reads it from the end
        AtomicFiles.append(files, deltaName, CanonicalJson.encodeCompact(line));
        if (tail == null) {
            syncFolder(files, deltaName); // a new name in the folder
        }
    }

    /**
     * The end of a delta: its size, and the {@code count} of its last line when that line is
     * complete and ends with it.
     *
     * @param bytes the delta's size
     * @param count the last line's count, or -1 when the last line is torn or ends otherwise
     * @param version the delta's version, read before its end
     */
    record Tail(long bytes, long count, String version) {
    }

    /** How many bytes at the end of a delta hold its last {@code "count":<n>}. */
    private static final int TAIL_BYTES = 48;

    /**
     * @param files the collection's byte seam
     * @param valueFile a value file
     * @return the end of its delta, read without the rest of it, or {@code null} when it has none
     * @throws StorageException {@code "Could not read equality index: <path>"}
     */
    static Tail tail(StoreFiles files, Path valueFile) {
        Path delta = deltaOf(valueFile);
        String version = IndexBytes.version(files, delta);
        if (version == null) {
            return null;
        }
        try (StoreFiles.Input in = files.openInput(files.nameOf(delta))) {
            long size = in.size();
            int n = (int) Math.min(size, TAIL_BYTES);
            byte[] end = new byte[n];
            int got = 0;
            while (got < n) {
                int r = in.read(end, got, n - got, size - n + got);
                if (r <= 0) {
                    break;
                }
                got += r;
            }
            return new Tail(size, got == n ? lastCount(new String(end, StandardCharsets.UTF_8)) : -1, version);
        } catch (NoSuchFileException gone) {
            return null;
        } catch (IOException e) {
            throw new StorageException("Could not read equality index: " + delta, e);
        }
    }

    private static final Pattern LAST_COUNT = Pattern.compile("\"count\":(\\d{1,18})}\n$");

    /** @return the count that a delta's end (a complete last line ending with its count) carries, or -1 */
    private static long lastCount(String end) {
        Matcher m = LAST_COUNT.matcher(end);
        return m.find() ? Long.parseLong(m.group(1)) : -1;
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

    /** Rewrites the value file with every change merged (deleting it when no id is left), then deletes the delta. */
    private static void fold(StoreFiles files, Path file, String field, String key, Object value,
            Collection<String> remove, Collection<String> add) {
        Changes changes = read(files, file);
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

    /** @return the file's size, or -1 when it does not exist */
    private static long size(StoreFiles files, String name) {
        try {
            return files.stat(name).map(StoreFiles.Entry::size).orElse(-1L);
        } catch (IOException e) {
            throw new StorageException("Could not read equality index: " + files.path(name), e);
        }
    }
}
