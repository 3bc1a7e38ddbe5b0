package dev.storh.doc.index;

import dev.storh.StorageException;
import dev.storh.fs.AtomicFiles;
import dev.storh.fs.StoreFiles;
import dev.storh.json.CanonicalJson;
import dev.storh.json.Jsonc;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.core.ObjectReadContext;
import tools.jackson.core.json.JsonFactory;

/**
 * Equality and compound value files: one compact
 * JSON object per distinct value, keys in exactly this order because the original reads them by
 * text scanning:
 *
 * <pre>
 * entries/eq/&lt;hex(field)&gt;/&lt;valueKey&gt;.jsonc
 *   {"field":"kind","key":"s-70616765","count":2,"value":"page","ids":["&lt;id&gt;","&lt;id&gt;"]}\n
 * entries/compound/&lt;hex(left)&gt;-&lt;hex(right)&gt;/c-&lt;xxh128&gt;.jsonc   (field "left\tright", value null)
 * </pre>
 *
 * Ids are kept ascending; a file exists only while it holds at least one id; every write is an
 * atomic replace.
 */
final class EqualityFiles {

    /** A parsed value file. */
    record Entry(String field, String key, Object count, Object value, List<String> ids) {
    }

    /** How many times a read of a value file and its delta starts again when a write changed the delta meanwhile. */
    private static final int RETRIES = 8;

    private EqualityFiles() {
    }

    /**
     * @param files the collection's byte seam, which the read goes through
     * @param file a value file
     * @return its content with its delta merged ({@link ValueDeltas}: {@code count} is then the
     *     delta's last count, which verify compares with the merged ids), or {@code null} when it
     *     does not exist
     * @throws StorageException {@code "Could not read equality index: <path>"} / {@code "Malformed equality index: <path>"}
     */
    static Entry read(StoreFiles files, Path file) {
        ValueDeltas.Changes changes;
        Entry main;
        int attempt = 0;
        do { // the delta before the value file, again when the delta changed meanwhile: see ValueDeltas
            changes = ValueDeltas.read(files, file);
            main = readValueFile(files, file);
        } while (changes != null && !ValueDeltas.unchanged(files, file, changes) && ++attempt < RETRIES);
        if (changes == null || main == null) {
            return main;
        }
        List<String> ids = new ArrayList<>(changes.applyTo(main.ids()));
        return new Entry(main.field(), main.key(), changes.count() >= 0 ? changes.count() : (long) ids.size(), main.value(), ids);
    }

    /**
     * @param files the collection's byte seam
     * @param file a value file or its delta
     * @return its bytes, or {@code null} when it does not exist
     * @throws StorageException {@code "Could not read equality index: <path>"}
     */
    static byte[] readBytes(StoreFiles files, Path file) {
        try {
            return IndexBytes.readOrNull(files, file);
        } catch (IOException e) {
            throw new StorageException("Could not read equality index: " + file, e);
        }
    }

    /**
     * @param files the collection's byte seam
     * @param file a value file
     * @param valueFileVersion the value file's version
     * @return a token that changes whenever the value file or its delta ({@link ValueDeltas}) changes
     */
    static String withDelta(StoreFiles files, Path file, String valueFileVersion) {
        String delta = deltaVersion(files, file);
        return delta == null ? valueFileVersion : valueFileVersion + "+" + delta;
    }

    /**
     * The version of a value file's delta, taken just after the value file's own was (so its folder
     * was just seen): {@link StoreFiles#versionInSeenFolder}, one {@code stat} when there is no
     * delta, as for most value files.
     *
     * @param files the collection's byte seam
     * @param file a value file whose version was just taken
     * @return the delta's version, or {@code null} when it is absent or unreadable
     */
    static String deltaVersion(StoreFiles files, Path file) {
        try {
            return files.versionInSeenFolder(files.nameOf(ValueDeltas.deltaOf(file))).orElse(null);
        } catch (java.io.IOException e) {
            return null;
        }
    }

    /**
     * @param files the collection's byte seam
     * @param file a value file
     * @return the value file's own content (no delta merged), or {@code null} when it does not exist
     * @throws StorageException {@code "Could not read equality index: <path>"} / {@code "Malformed equality index: <path>"}
     */
    static Entry readValueFile(StoreFiles files, Path file) {
        byte[] bytes = readBytes(files, file);
        if (bytes == null) {
            return null;
        }
        Map<String, Object> doc;
        try {
            doc = Jsonc.decodeObject(bytes);
        } catch (StorageException e) {
            throw new StorageException("Malformed equality index: " + file, e);
        }
        List<String> ids = IndexBytes.strings(doc.get("ids"));
        return new Entry(doc.get("field") instanceof String f ? f : null, doc.get("key") instanceof String k ? k : null,
                doc.get("count"), doc.get("value"), ids);
    }

    /**
     * @param files the collection's byte seam
     * @param file a value file
     * @return its ids (empty when absent)
     */
    static List<String> ids(StoreFiles files, Path file) {
        Entry e = read(files, file);
        return e == null ? List.of() : e.ids();
    }

    private static final JsonFactory STREAMING = JsonFactory.builder().build();

    /**
     * Reads only the start of a value file, as the original's text scanner does, streaming with
     * Jackson: the {@code count} member, or the first {@code limit} ids. Files written by storh
     * (either implementation) put {@code count} before the ids, so a count costs one small read.
     *
     * @param files the collection's byte seam, which the read goes through
     * @param file a value file
     * @param expectedKey the key the file must carry (else it counts as empty)
     * @param limit how many ids to collect; 0 collects none and returns after {@code count}
     * @return the count (or -1 when the file has none) and up to {@code limit} ids; count 0 when absent
     * @throws StorageException {@code "Malformed equality index: <path>"} on broken JSON
     */
    static Head head(StoreFiles files, Path file, String expectedKey, int limit) {
        if (limit == 0) {
            ValueDeltas.Tail tail = ValueDeltas.tail(files, file); // a count: the delta's last line, read from its end
            if (tail == null) {
                return headOfValueFile(files, file, expectedKey, 0);
            }
            Head main = headOfValueFile(files, file, expectedKey, 0);
            if (main.count() == 0 && main.ids().isEmpty()) {
                return main; // absent, or another key
            }
            if (tail.count() >= 0 && tail.version().equals(IndexBytes.version(files, ValueDeltas.deltaOf(file)))) {
                return new Head(tail.count(), List.of());
            }
        }
        ValueDeltas.Changes changes;
        Head main;
        int attempt = 0;
        do { // the delta before the value file, again when the delta changed meanwhile: see ValueDeltas
            changes = ValueDeltas.read(files, file);
            if (changes == null) {
                return headOfValueFile(files, file, expectedKey, limit);
            }
            // The first limit ids of the merged set lie in the first limit + removed ids of the value
            // file, or among the delta's additions.
            main = headOfValueFile(files, file, expectedKey, limit == 0 ? 0 : limit + changes.removed());
        } while (!ValueDeltas.unchanged(files, file, changes) && ++attempt < RETRIES);
        if (main.count() == 0 && main.ids().isEmpty()) {
            return main; // absent, or another key
        }
        long count = changes.count() >= 0 ? changes.count() : -1;
        if (limit == 0) {
            return count >= 0 ? new Head(count, List.of()) : new Head(ids(files, file).size(), List.of());
        }
        return new Head(count, changes.applyTo(main.ids()).stream().limit(limit).toList());
    }

    /**
     * {@link #head} of the value file alone (no delta merged).
     *
     * @param files the collection's byte seam
     * @param file a value file
     * @param expectedKey the key the file must carry (else it counts as empty)
     * @param limit how many ids to collect; 0 collects none and returns after {@code count}
     * @return the count (or -1 when the file has none) and up to {@code limit} ids; count 0 when absent
     */
    static Head headOfValueFile(StoreFiles files, Path file, String expectedKey, int limit) {
        return headOfValueFile(files, file, files.nameOf(file), expectedKey, limit);
    }

    /**
     * The {@code count} of a value file alone (no delta merged), its name already known.
     *
     * @param files the collection's byte seam
     * @param file a value file
     * @param name its name on the seam ({@code files.nameOf(file)})
     * @param expectedKey the value key the file must hold (else the count is 0)
     * @return the count (or -1 when the file has none), with no ids; count 0 when the file is absent or
     *     holds another key
     * @throws StorageException {@code "Could not read equality index: <path>"} / {@code "Malformed equality index: <path>"}
     */
    static Head headOfValueFile(StoreFiles files, Path file, String name, String expectedKey) {
        return headOfValueFile(files, file, name, expectedKey, 0);
    }

    private static Head headOfValueFile(StoreFiles files, Path file, String name, String expectedKey, int limit) {
        try (InputStream in = files.open(name)) {
            byte[] first = in.readNBytes(ValueFileHeads.bytesFor(limit));
            Head compact = ValueFileHeads.scan(first, first.length, expectedKey, limit);
            if (compact != null) {
                return compact;
            }
            return headByParser(new java.io.SequenceInputStream(new java.io.ByteArrayInputStream(first), in), file, expectedKey, limit);
        } catch (NoSuchFileException e) {
            return new Head(0, List.of());
        } catch (IOException e) {
            throw new StorageException("Could not read equality index: " + file, e);
        }
    }

    /** {@link #headOfValueFile} by the JSON reader, from the file's bytes in {@code in} (any JSON layout). */
    static Head headByParser(InputStream in, Path file, String expectedKey, int limit) {
        try (JsonParser p = STREAMING.createParser(ObjectReadContext.empty(), in)) {
            if (p.nextToken() != JsonToken.START_OBJECT) {
                throw new StorageException("Malformed equality index: " + file);
            }
            long count = -1;
            boolean keyMatches = false;
            List<String> ids = new ArrayList<>();
            for (JsonToken t = p.nextToken(); t == JsonToken.PROPERTY_NAME; t = p.nextToken()) {
                String name = p.currentName();
                JsonToken value = p.nextToken();
                if (name.equals("key")) {
                    keyMatches = value == JsonToken.VALUE_STRING && p.getString().equals(expectedKey);
                    if (!keyMatches) {
                        return new Head(0, List.of());
                    }
                } else if (name.equals("count") && value == JsonToken.VALUE_NUMBER_INT) {
                    count = p.getLongValue();
                    if (limit == 0 && keyMatches) {
                        return new Head(count, List.of());
                    }
                } else if (name.equals("ids") && value == JsonToken.START_ARRAY) {
                    for (JsonToken id = p.nextToken(); id != JsonToken.END_ARRAY && ids.size() < limit; id = p.nextToken()) {
                        if (id == JsonToken.VALUE_STRING) {
                            ids.add(p.getString());
                        }
                    }
                    return new Head(count, ids);
                } else {
                    p.skipChildren();
                }
            }
            return new Head(count, ids);
        } catch (RuntimeException e) {
            throw new StorageException("Malformed equality index: " + file, e);
        }
    }

    /** What {@link #head} found: the count (-1 if missing) and the first ids. */
    record Head(long count, List<String> ids) {
    }

    /**
     * Applies removals then additions to one value file and rewrites it (or deletes it when empty).
     *
     * @param files the collection's byte seam, which the write goes through
     * @param file the value file
     * @param field the {@code field} member
     * @param key the {@code key} member
     * @param value the {@code value} member
     * @param remove ids to drop
     * @param add ids to add
     */
    static void update(StoreFiles files, Path file, String field, String key, Object value, Collection<String> remove,
            Collection<String> add) {
        ValueDeltas.Changes changes = ValueDeltas.read(files, file);
        Entry existing = readValueFile(files, file);
        TreeSet<String> ids = new TreeSet<>();
        if (existing != null && field.equals(existing.field()) && key.equals(existing.key())) {
            ids = changes == null ? new TreeSet<>(existing.ids()) : changes.applyTo(existing.ids());
        }
        ids.removeAll(remove);
        ids.addAll(add);
        if (ids.isEmpty()) {
            if (existing != null) {
                try {
                    AtomicFiles.deleteDurably(files, files.nameOf(file));
                } catch (IOException e) {
                    throw new StorageException("Could not delete index file: " + file, e);
                }
            }
        } else {
            AtomicFiles.writeAtomic(files, files.nameOf(file), encode(field, key, value, ids));
        }
        if (changes != null) { // left by value deltas, now merged into the value file: the original's shape again
            ValueDeltas.deleteDelta(files, file);
        }
    }

    static byte[] encode(String field, String key, Object value, Collection<String> ids) {
        Map<String, Object> doc = new LinkedHashMap<>();
        doc.put("field", field);
        doc.put("key", key);
        doc.put("count", (long) ids.size());
        doc.put("value", value);
        doc.put("ids", new ArrayList<>(ids));
        return CanonicalJson.encodeCompact(doc);
    }
}
