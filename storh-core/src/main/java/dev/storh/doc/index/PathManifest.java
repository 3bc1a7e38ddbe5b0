package dev.storh.doc.index;

import dev.storh.fs.AtomicFiles;
import dev.storh.fs.StoreFiles;
import dev.storh.json.CanonicalJson;
import dev.storh.query.FieldPath;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code <collection>/.storh/indexes/paths.jsonc}, the path index definitions, beside the original's
 * {@code manifest.jsonc} (which the original reads and rewrites; it never reads this file):
 *
 * <pre>
 * {
 *     "indexes": [
 *         {
 *             "path": ["publisher", "name"],
 *             "unique": false,
 *             "ignoreCase": false
 *         }
 *     ]
 * }
 * </pre>
 *
 * Sorted by path text, then case mode. Reading is tolerant as the original's manifest reading is:
 * items that are not objects, or whose path is not a non-empty list of non-blank strings, are
 * skipped; flags count only when literally {@code true}. Stateless.
 */
final class PathManifest {

    /** The order definitions are kept in. */
    static final Comparator<PathIndexDefinition> ORDER = Comparator.comparing(PathIndexDefinition::pathText,
            dev.storh.query.Values::compareUtf8).thenComparing(PathIndexDefinition::ignoreCase);

    private PathManifest() {
    }

    /**
     * @param files the collection's byte seam
     * @param manifest the file
     * @return the definitions; empty when the file is missing or unreadable
     */
    static List<PathIndexDefinition> read(StoreFiles files, Path manifest) {
        Map<String, Object> doc = IndexBytes.readObjectOrNull(files, manifest);
        if (doc == null) {
            return List.of();
        }
        List<PathIndexDefinition> out = new ArrayList<>();
        if (doc.get("indexes") instanceof List<?> items) {
            for (Object item : items) {
                if (item instanceof Map<?, ?> m && m.get("path") instanceof List<?> keys && !keys.isEmpty()
                        && keys.stream().allMatch(k -> k instanceof String s && !s.isBlank())) {
                    PathIndexDefinition d = new PathIndexDefinition(new FieldPath(keys.stream().map(String.class::cast).toList()),
                            Boolean.TRUE.equals(m.get("unique")), Boolean.TRUE.equals(m.get("ignoreCase")));
                    merge(out, d);
                }
            }
        }
        out.sort(ORDER);
        return List.copyOf(out);
    }

    /**
     * @param into definitions; {@code d} is merged into the one of its index, or added
     */
    static void merge(List<PathIndexDefinition> into, PathIndexDefinition d) {
        for (int i = 0; i < into.size(); i++) {
            if (into.get(i).sameIndex(d)) {
                into.set(i, into.get(i).merge(d));
                return;
            }
        }
        into.add(d);
    }

    /**
     * Atomically writes the file.
     *
     * @param files the collection's byte seam
     * @param manifest the file
     * @param definitions in {@link #ORDER}
     */
    static void write(StoreFiles files, Path manifest, List<PathIndexDefinition> definitions) {
        List<Object> items = new ArrayList<>();
        for (PathIndexDefinition d : definitions) {
            Map<String, Object> item = new LinkedHashMap<>();
            item.put("path", new ArrayList<Object>(d.path().segments()));
            item.put("unique", d.unique());
            item.put("ignoreCase", d.ignoreCase());
            items.add(item);
        }
        Map<String, Object> doc = new LinkedHashMap<>();
        doc.put("indexes", items);
        AtomicFiles.ensureDirectory(files, files.nameOf(manifest.getParent()));
        AtomicFiles.writeAtomic(files, files.nameOf(manifest), CanonicalJson.encodePretty(doc).getBytes(StandardCharsets.UTF_8));
    }
}
