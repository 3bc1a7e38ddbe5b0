package dev.storh.log;

import dev.storh.StorageException;
import dev.storh.fs.StoreFiles;
import dev.storh.json.Jsonc;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.NoSuchFileException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The shape check of a log's {@code manifest.jsonc}, for damage that still decodes as JSON (a flipped
 * byte inside a key or a string). The writer always writes {@code nextSegment}, {@code sealed} and
 * {@code active}, each sealed entry with {@code file, index, max, min, records, ordered} and the
 * active entry with {@code file, max, min, records, ordered}; a key the writer writes that is missing
 * is damage. Unknown keys alone are not (other versions may add keys, and the log keeps them).
 *
 * <p>Two kinds of damage would make the log lose records: a manifest without its {@code sealed}
 * list or its {@code active} entry, and a sealed entry without its {@code file} (the reader would skip
 * those segments, the open's rewrite would drop them for good, and the open's sweep would delete their
 * {@code compact-*} files as leftovers). {@link #checkOnOpen} makes the open refuse those, before
 * anything is read, cut or deleted. Stateless.
 */
final class ManifestShape {

    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(SegmentedLog.class);
    private static final List<String> TOP = List.of("nextSegment", "sealed", "active");
    private static final List<String> SEALED = List.of("file", "index", "max", "min", "records", "ordered");
    private static final List<String> ACTIVE = List.of("file", "max", "min", "records", "ordered");

    private ManifestShape() {
    }

    /**
     * @param files the collection's byte seam
     * @return every shape problem of the manifest on disk, each naming the key and where it is; empty
     *     when the manifest is missing (a fresh log) or does not decode (reported elsewhere)
     */
    static List<String> problems(StoreFiles files) {
        Map<String, Object> root = decode(files);
        return root == null ? List.of() : problems(root);
    }

    /**
     * The check at open: refuses a manifest whose damage would lose records (see the class comment)
     * and logs a warning for each sealed segment file the manifest names that is missing (reads that
     * reach it fail, verify reports it, repair drops it from the manifest).
     *
     * @param state the log, whose collection lock the caller holds
     * @throws StorageException {@code "Damaged log manifest <path>: ..."} naming the missing key and
     *     the unknown keys beside it; nothing was read, cut or deleted
     */
    static void checkOnOpen(LogState state) {
        StoreFiles files = state.files;
        Map<String, Object> root = decode(files);
        if (root == null) {
            return;
        }
        if (root.get("sealed") instanceof List<?> sealed) {
            for (Object item : sealed) {
                if (item instanceof Map<?, ?> entry && entry.get("file") instanceof String file && !state.isFile(LogFiles.segment(file))) {
                    LOG.warn("Sealed log segment missing: {} (the manifest counts {} records in it; reads that reach it fail;"
                            + " repair() drops it from the manifest and accepts the loss)", state.path(file), entry.get("records"));
                }
            }
        }
        List<String> losing = new ArrayList<>();
        if (!(root.get("sealed") instanceof List<?>)) {
            losing.add(keyProblem(root, "sealed", "a list", "the top level"));
        }
        if (!(root.get("active") instanceof Map<?, ?> active && active.get("file") instanceof String)) {
            losing.add(root.get("active") instanceof Map<?, ?> active ? keyProblem(active, "file", "a string", "the active entry")
                    : keyProblem(root, "active", "an object", "the top level"));
        }
        if (root.get("sealed") instanceof List<?> sealed) {
            for (int i = 0; i < sealed.size(); i++) {
                if (sealed.get(i) instanceof Map<?, ?> entry && !(entry.get("file") instanceof String)) {
                    losing.add(keyProblem(entry, "file", "a string", "sealed entry " + i));
                }
            }
        }
        if (!losing.isEmpty()) {
            throw new StorageException("Damaged log manifest " + files.path(LogFiles.MANIFEST) + ": " + String.join("; ", losing)
                    + " (the log would lose the segments it names; nothing was read, cut or deleted: put the key back by hand)");
        }
    }

    private static List<String> problems(Map<String, Object> root) {
        List<String> found = new ArrayList<>();
        missingKeys(root, TOP, "the top level", found);
        if (root.containsKey("nextSegment") && !(root.get("nextSegment") instanceof Long)) {
            found.add("\"nextSegment\" is not an integer");
        }
        if (root.get("sealed") instanceof List<?> sealed) {
            for (int i = 0; i < sealed.size(); i++) {
                if (sealed.get(i) instanceof Map<?, ?> entry) {
                    missingKeys(entry, SEALED, "sealed entry " + i, found);
                } else {
                    found.add("sealed entry " + i + " is not an object: " + sealed.get(i));
                }
            }
        } else if (root.containsKey("sealed")) {
            found.add("\"sealed\" is not a list");
        }
        if (root.get("active") instanceof Map<?, ?> active) {
            missingKeys(active, ACTIVE, "the active entry", found);
        } else if (root.containsKey("active")) {
            found.add("\"active\" is not an object");
        }
        return found;
    }

    private static void missingKeys(Map<?, ?> object, List<String> keys, String where, List<String> found) {
        for (String key : keys) {
            if (!object.containsKey(key)) {
                found.add(keyProblem(object, key, null, where));
            }
        }
    }

    private static String keyProblem(Map<?, ?> object, String key, String kind, String where) {
        List<String> unknown = new ArrayList<>();
        List<String> known = where.equals("the top level") ? TOP : where.equals("the active entry") ? ACTIVE : SEALED;
        for (Object k : object.keySet()) {
            if (!known.contains(String.valueOf(k)) && !"compacted".equals(k)) {
                unknown.add("\"" + k + "\"");
            }
        }
        String problem = object.containsKey(key) ? "\"" + key + "\" of " + where + " is not " + kind
                : where + " lacks \"" + key + "\"";
        return unknown.isEmpty() ? problem : problem + " (beside the unknown key(s) " + String.join(", ", unknown) + ": a damaged name?)";
    }

    private static Map<String, Object> decode(StoreFiles files) {
        try (InputStream in = files.open(LogFiles.MANIFEST)) {
            return Jsonc.decodeObject(in.readAllBytes());
        } catch (NoSuchFileException e) {
            return null;
        } catch (IOException | RuntimeException unreadable) {
            return null; // Manifest.read names it
        }
    }
}
