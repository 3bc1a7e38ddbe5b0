package dev.storh.doc.index;

import dev.storh.fs.AtomicFiles;
import dev.storh.fs.StoreFiles;
import dev.storh.json.CanonicalJson;
import dev.storh.json.Jsonc;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * {@code <collection>/.storh/indexes/manifest.jsonc}:
 * pretty JSON {@code {"fields":[{"field":..,"unique":..,"range":..}, ...]}}, fields sorted by name.
 * Reading is tolerant: non-object items and non-string fields are skipped, flags count only when
 * literally {@code true}, duplicates collapse (last wins).
 */
final class IndexManifest {

    /**
     * Identity of an index file at a moment ({@link StoreFiles#version}: size, modification time and
     * inode on local files, the ETag on blob storage): changes when another process rewrites it.
     *
     * @param version the version, {@code null} when the file is absent or unreadable
     */
    record Stamp(String version) {
        static final Stamp ABSENT = new Stamp(null);
    }

    private IndexManifest() {
    }

    /**
     * @param files the byte seam of the collection
     * @param file an index file
     * @return its stamp now, {@link Stamp#ABSENT} when it is absent or unreadable
     */
    static Stamp stamp(StoreFiles files, Path file) {
        String version = IndexBytes.version(files, file);
        return version == null ? Stamp.ABSENT : new Stamp(version);
    }

    static boolean sameStamp(Stamp a, Stamp b) {
        return Objects.equals(a.version(), b.version());
    }

    /**
     * @param files the byte seam of the collection
     * @param manifest the manifest path
     * @return definitions sorted by field name; empty when the file is missing or unreadable
     */
    static List<IndexDefinition> read(StoreFiles files, Path manifest) {
        return definitionsOf(IndexBytes.readObjectOrNull(files, manifest));
    }

    /**
     * A manifest read once.
     *
     * @param definitions as {@link #read} gives them
     * @param layout as {@link #layout} gives it
     */
    record Contents(List<IndexDefinition> definitions, String layout) {
    }

    /**
     * @param files the byte seam of the collection
     * @param manifest the manifest path
     * @return its definitions and layout, from one read of the file
     */
    static Contents readContents(StoreFiles files, Path manifest) {
        Map<String, Object> doc = IndexBytes.readObjectOrNull(files, manifest);
        return new Contents(definitionsOf(doc), layoutOf(doc));
    }

    /** Manifests decoded in this process, by seam root, name and version (see {@link #readContents(StoreFiles, Path, Stamp)}). */
    private static final Map<String, Contents> DECODED = new java.util.concurrent.ConcurrentHashMap<>();
    private static final int MAX_DECODED = 256;

    /**
     * {@link #readContents(StoreFiles, Path)} of the manifest whose stamp was just taken, decoded
     * once per process for a version that names one file state ({@link StoreFiles#versionsNameFileStates}):
     * a store opening again, or another instance of the collection, takes the decoded contents
     * instead of parsing the same bytes. A manifest rewritten since has another version, so it is
     * read; only a complete read whose stamp still held afterwards is kept.
     *
     * @param files the byte seam of the collection
     * @param manifest the manifest path
     * @param stamp its stamp, taken just before
     * @return its definitions and layout
     */
    static Contents readContents(StoreFiles files, Path manifest, Stamp stamp) {
        if (stamp.version() == null || !files.versionsNameFileStates()) {
            return readContents(files, manifest);
        }
        String key = decodedKey(files, manifest, stamp);
        Contents known = DECODED.get(key);
        if (known != null) {
            return known;
        }
        Map<String, Object> doc;
        try {
            byte[] bytes = IndexBytes.readOrNull(files, manifest);
            doc = bytes == null ? null : Jsonc.decodeObject(bytes);
        } catch (IOException | RuntimeException e) {
            doc = null;
        }
        Contents contents = new Contents(definitionsOf(doc), layoutOf(doc));
        if (doc != null && sameStamp(stamp(files, manifest), stamp)) {
            if (DECODED.size() >= MAX_DECODED) {
                DECODED.clear();
            }
            DECODED.put(key, contents);
        }
        return contents;
    }

    private static List<IndexDefinition> definitionsOf(Map<String, Object> doc) {
        if (doc == null) {
            return List.of();
        }
        TreeMap<String, IndexDefinition> byName = new TreeMap<>(dev.storh.query.Values::compareUtf8);
        if (doc.get("fields") instanceof List<?> items) {
            for (Object item : items) {
                if (item instanceof Map<?, ?> m && m.get("field") instanceof String field && !field.isBlank()) {
                    byName.put(field, new IndexDefinition(field, Boolean.TRUE.equals(m.get("unique")),
                            Boolean.TRUE.equals(m.get("range"))));
                }
            }
        }
        return List.copyOf(byName.values());
    }

    /** The {@code layout} member of a manifest whose value files carry append-only deltas ({@link ValueDeltas}). */
    static final String VALUE_DELTAS = "value-deltas";

    /**
     * @param files the byte seam of the collection
     * @param manifest the manifest path
     * @return its {@code layout} member (storh's own; the original neither writes nor reads it), or
     *     {@code null} when absent, not a string, or the file is missing or unreadable
     */
    static String layout(StoreFiles files, Path manifest) {
        return layoutOf(IndexBytes.readObjectOrNull(files, manifest));
    }

    private static String layoutOf(Map<String, Object> doc) {
        return doc != null && doc.get("layout") instanceof String s ? s : null;
    }

    /**
     * Atomically writes the manifest, without a {@code layout} member.
     *
     * @param manifest the manifest path
     * @param definitions sorted by field name
     */
    static void write(StoreFiles files, Path manifest, List<IndexDefinition> definitions) {
        write(files, manifest, definitions, null);
    }

    /**
     * Atomically writes the manifest.
     *
     * @param manifest the manifest path
     * @param definitions sorted by field name
     * @param layout the {@code layout} member after {@code fields}, or {@code null} for none (the original's shape)
     * @return what a read of the bytes written gives (see {@link #remember})
     */
    static Contents write(StoreFiles files, Path manifest, List<IndexDefinition> definitions, String layout) {
        List<Object> fields = new ArrayList<>();
        for (IndexDefinition d : definitions) {
            Map<String, Object> item = new LinkedHashMap<>();
            item.put("field", d.field());
            item.put("unique", d.unique());
            item.put("range", d.range());
            fields.add(item);
        }
        Map<String, Object> doc = new LinkedHashMap<>();
        doc.put("fields", fields);
        if (layout != null) {
            doc.put("layout", layout);
        }
        AtomicFiles.writeAtomic(files, files.nameOf(manifest),
                CanonicalJson.encodePretty(doc).getBytes(StandardCharsets.UTF_8));
        return new Contents(definitionsOf(doc), layoutOf(doc));
    }

    /**
     * Keeps the contents of a manifest this process just wrote as decoded for its stamp, so that the
     * next open of the collection in this process (or another instance's look) takes them instead of
     * reading and parsing the bytes again ({@link #readContents(StoreFiles, Path, Stamp)}). Call under
     * the collection write lock, with the stamp taken after the write: no other writer can have
     * replaced the file in between.
     *
     * @param files the byte seam of the collection
     * @param manifest the manifest path
     * @param stamp its stamp, taken just after the write
     * @param written what {@link #write(StoreFiles, Path, List, String)} returned
     */
    static void remember(StoreFiles files, Path manifest, Stamp stamp, Contents written) {
        if (stamp.version() == null || !files.versionsNameFileStates()) {
            return;
        }
        if (DECODED.size() >= MAX_DECODED) {
            DECODED.clear();
        }
        DECODED.put(decodedKey(files, manifest, stamp), written);
    }

    private static String decodedKey(StoreFiles files, Path manifest, Stamp stamp) {
        return files.root() + "\0" + files.nameOf(manifest) + "\0" + stamp.version();
    }
}
