package dev.storh.doc.index;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The result of a rebuild: {@code {"fields":2,"entries":3}}, plus
 * {@code "corrupt":<n>} when a recovery rebuild skipped unreadable record files.
 *
 * @param fields index definitions
 * @param entries records read (and indexed)
 * @param skipped one message per record file the rebuild skipped because it could not be read or
 *     decoded, each naming the file's path; empty for a normal rebuild, which fails instead
 */
public record ReindexReport(int fields, long entries, List<String> skipped) {

    /**
     * @param fields index definitions
     * @param entries records read
     * @param skipped skipped files' messages; copied
     */
    public ReindexReport {
        skipped = List.copyOf(skipped);
    }

    /**
     * A rebuild that skipped nothing.
     *
     * @param fields index definitions
     * @param entries records read
     */
    public ReindexReport(int fields, long entries) {
        this(fields, entries, List.of());
    }

    /**
     * @return the spec's JSON shape; {@code corrupt} (the number of skipped files) only when some
     *     were skipped
     */
    public Map<String, Object> toMap() {
        Map<String, Object> map = new LinkedHashMap<>();
        map.put("fields", (long) fields);
        map.put("entries", entries);
        if (!skipped.isEmpty()) {
            map.put("corrupt", (long) skipped.size());
        }
        return map;
    }
}
