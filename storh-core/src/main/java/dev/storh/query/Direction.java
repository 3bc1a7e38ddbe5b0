package dev.storh.query;

import dev.storh.StorageException;
import java.util.Locale;

/** Sort direction of {@link QueryBuilder#orderBy(String, Direction)}. */
public enum Direction {
    /** Ascending by {@link Values#compare}. */
    ASC,
    /** Descending by {@link Values#compare}; ties stay in ascending id order. */
    DESC;

    /**
     * @param text {@code asc} or {@code desc}, any case
     * @return the direction
     * @throws StorageException {@code "Query order direction must be asc or desc."}
     */
    public static Direction parse(String text) {
        if (text != null) {
            switch (text.toLowerCase(Locale.ROOT)) {
                case "asc":
                    return ASC;
                case "desc":
                    return DESC;
                default:
                    break;
            }
        }
        throw new StorageException("Query order direction must be asc or desc. Got: " + text);
    }
}
