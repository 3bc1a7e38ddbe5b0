package dev.storh.doc;

import dev.storh.StorageException;
import dev.storh.json.Jsonc;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.core.ObjectReadContext;
import tools.jackson.core.StreamReadConstraints;
import tools.jackson.core.StreamReadFeature;
import tools.jackson.core.json.JsonFactory;

/**
 * How a JSONL import row becomes a record: each line is strict
 * JSON; an object is an envelope {@code {"id":..,"data":{..}}} or bare data; top-level keys that
 * look like integers are dropped (the original cannot keep them); an array becomes an empty
 * record; anything else is refused with the file and line named, and so is a row that repeats a
 * key in one object or holds a lone UTF-16 surrogate escape ({@code "\ud800"}) in a key or string
 * (see {@code docs/json-model.md}).
 */
final class JsonlRows {

    private static final int LINE_PREVIEW = 80;

    /** Token-only second pass: duplicate keys are an error here, not "the last one wins". */
    private static final JsonFactory CHECKS = JsonFactory.builder()
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .streamReadConstraints(StreamReadConstraints.builder().maxNestingDepth(Jsonc.MAX_NESTING_DEPTH).build())
            .build();

    private JsonlRows() {
    }

    @SuppressWarnings("unchecked")
    static Map<String, ?> importRow(String line, Path file, long lineNo) {
        Object row;
        try {
            row = Jsonc.decodeStrict(line);
        } catch (StorageException e) {
            throw refused(file, lineNo, e.getMessage(), e);
        }
        if (row instanceof List<?>) {
            return Map.of();
        }
        if (!(row instanceof Map<?, ?> map)) {
            String preview = line.length() > LINE_PREVIEW ? line.substring(0, LINE_PREVIEW) + "…" : line;
            throw new StorageException("JSONL import rows must be objects. File " + file + " line " + lineNo + ": "
                    + preview);
        }
        checkKeysAndStrings(line, file, lineNo);
        Map<String, Object> cleaned = (Map<String, Object>) map;
        cleaned.keySet().removeIf(Jsonc::isIntegerLike);
        return cleaned;
    }

    /** Refuses a row (already known to be valid JSON) with a repeated key or a lone surrogate. */
    private static void checkKeysAndStrings(String line, Path file, long lineNo) {
        try (JsonParser p = CHECKS.createParser(ObjectReadContext.empty(), line)) {
            for (JsonToken t = p.nextToken(); t != null; t = p.nextToken()) {
                if (t == JsonToken.PROPERTY_NAME || t == JsonToken.VALUE_STRING) {
                    String text = p.getString();
                    int bad = loneSurrogate(text);
                    if (bad >= 0) {
                        throw refused(file, lineNo, (t == JsonToken.PROPERTY_NAME ? "key" : "string")
                                + " holds a lone UTF-16 surrogate \\u" + Integer.toHexString(text.charAt(bad))
                                + " (not representable in UTF-8)", null);
                    }
                }
            }
        } catch (JacksonException e) {
            throw refused(file, lineNo, e.getOriginalMessage(), e);
        }
    }

    /** @return the index of the first unpaired surrogate in {@code s}, or -1 */
    private static int loneSurrogate(String s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (Character.isHighSurrogate(c) && i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1))) {
                i++;
            } else if (Character.isSurrogate(c)) {
                return i;
            }
        }
        return -1;
    }

    private static StorageException refused(Path file, long lineNo, String why, Exception cause) {
        return new StorageException("Invalid JSONL row in import file " + file + " at line " + lineNo + ": " + why, cause);
    }
}
