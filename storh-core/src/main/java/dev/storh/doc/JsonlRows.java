package dev.storh.doc;

import dev.storh.StorageException;
import dev.storh.json.Jsonc;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * How a JSONL import row becomes a record: each line is strict
 * JSON; an object is an envelope {@code {"id":..,"data":{..}}} or bare data; top-level keys that
 * look like integers are dropped (the original cannot keep them); an array becomes an empty
 * record; anything else is refused with the file and line named.
 */
final class JsonlRows {

    private static final int LINE_PREVIEW = 80;

    private JsonlRows() {
    }

    @SuppressWarnings("unchecked")
    static Map<String, ?> importRow(String line, Path file, long lineNo) {
        Object row;
        try {
            row = Jsonc.decodeStrict(line);
        } catch (StorageException e) {
            throw new StorageException("Invalid JSONL row in import file " + file + " at line " + lineNo + ": "
                    + e.getMessage(), e);
        }
        if (row instanceof List<?>) {
            return Map.of();
        }
        if (!(row instanceof Map<?, ?> map)) {
            String preview = line.length() > LINE_PREVIEW ? line.substring(0, LINE_PREVIEW) + "…" : line;
            throw new StorageException("JSONL import rows must be objects. File " + file + " line " + lineNo + ": "
                    + preview);
        }
        Map<String, Object> cleaned = (Map<String, Object>) map;
        cleaned.keySet().removeIf(Jsonc::isIntegerLike);
        return cleaned;
    }


}
