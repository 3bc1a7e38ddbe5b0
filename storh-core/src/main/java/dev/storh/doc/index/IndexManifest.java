package dev.storh.doc.index;

import dev.storh.fs.AtomicFiles;
import dev.storh.json.CanonicalJson;
import dev.storh.json.Jsonc;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
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

    /** Identity of the manifest file at a moment: changes when another process rewrites it. */
    record Stamp(long size, long modifiedNanos, Object fileKey) {
        static final Stamp ABSENT = new Stamp(-1, 0, null);
    }

    private IndexManifest() {
    }

    static Stamp stamp(Path manifest) {
        try {
            BasicFileAttributes a = Files.readAttributes(manifest, BasicFileAttributes.class);
            return new Stamp(a.size(), a.lastModifiedTime().to(java.util.concurrent.TimeUnit.NANOSECONDS), a.fileKey());
        } catch (IOException e) {
            return Stamp.ABSENT;
        }
    }

    static boolean sameStamp(Stamp a, Stamp b) {
        return a.size() == b.size() && a.modifiedNanos() == b.modifiedNanos() && Objects.equals(a.fileKey(), b.fileKey());
    }

    /**
     * @param manifest the manifest path
     * @return definitions sorted by field name; empty when the file is missing or unreadable
     */
    static List<IndexDefinition> read(Path manifest) {
        Map<String, Object> doc;
        try {
            doc = Jsonc.decodeObject(Files.readAllBytes(manifest));
        } catch (NoSuchFileException e) {
            return List.of();
        } catch (IOException | RuntimeException e) {
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

    /**
     * Atomically writes the manifest.
     *
     * @param manifest the manifest path
     * @param definitions sorted by field name
     */
    static void write(Path manifest, List<IndexDefinition> definitions) {
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
        AtomicFiles.writeAtomic(manifest, CanonicalJson.encodePretty(doc).getBytes(StandardCharsets.UTF_8));
    }
}
