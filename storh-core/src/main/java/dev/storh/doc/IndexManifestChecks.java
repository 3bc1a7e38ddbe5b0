package dev.storh.doc;

import dev.storh.fs.StoreFiles;
import dev.storh.json.Jsonc;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Verify's check of the two index definition files in {@code .storh/indexes/}: {@code manifest.jsonc}
 * must decode as {@code {"fields":[{"field":"<name>","unique":<bool>,"range":<bool>},…]}} and
 * {@code paths.jsonc} as {@code {"indexes":[{"path":["<key>",…],"unique":<bool>,"ignoreCase":<bool>},…]}}.
 * The store reads a damaged one tolerantly, as "no index" or without the damaged definition (a renamed
 * key included), so verify names it and repair sets it aside. Stateless.
 */
final class IndexManifestChecks {

    private IndexManifestChecks() {
    }

    /**
     * @param files the collection's byte seam
     * @param layout the collection's layout
     * @return verify's errors for both files, empty when they are sound or missing
     */
    static List<String> errors(StoreFiles files, DocLayout layout) {
        List<String> errors = new ArrayList<>();
        for (Path manifest : layout.indexManifests()) {
            String error = error(files, manifest);
            if (error != null) {
                errors.add(error);
            }
        }
        return errors;
    }

    /**
     * @param files the collection's byte seam
     * @param manifest one of {@link DocLayout#indexManifests()}
     * @return verify's error, or {@code null} when the file is sound or missing (no index defined)
     */
    static String error(StoreFiles files, Path manifest) {
        boolean paths = manifest.getFileName().toString().equals(DocLayout.PATH_INDEX_MANIFEST);
        String problem;
        try (InputStream in = files.open(files.nameOf(manifest))) {
            Map<String, Object> doc = Jsonc.decodeObject(in.readAllBytes());
            problem = paths ? pathsProblem(doc) : fieldsProblem(doc);
        } catch (NoSuchFileException e) {
            return null;
        } catch (IOException | RuntimeException e) {
            problem = "it does not decode: " + e.getMessage();
        }
        return problem == null ? null : (paths ? "Damaged path index manifest: " : "Damaged index manifest: ") + manifest
                + " (" + problem + "; its index definitions are not in force; repair() moves it to .storh/corrupt/)";
    }

    private static String fieldsProblem(Map<String, Object> doc) {
        if (!(doc.get("fields") instanceof List<?> fields)) {
            return "no fields list";
        }
        for (Object item : fields) {
            if (!(item instanceof Map<?, ?> m && m.get("field") instanceof String f && !f.isBlank()
                    && m.get("unique") instanceof Boolean && m.get("range") instanceof Boolean)) {
                return "a malformed definition " + item;
            }
        }
        return null;
    }

    private static String pathsProblem(Map<String, Object> doc) {
        if (!(doc.get("indexes") instanceof List<?> indexes)) {
            return "no indexes list";
        }
        for (Object item : indexes) {
            if (!(item instanceof Map<?, ?> m && m.get("path") instanceof List<?> keys && !keys.isEmpty()
                    && keys.stream().allMatch(k -> k instanceof String s && !s.isBlank())
                    && m.get("unique") instanceof Boolean && m.get("ignoreCase") instanceof Boolean)) {
                return "a malformed definition " + item;
            }
        }
        return null;
    }
}
