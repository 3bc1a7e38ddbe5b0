package dev.storh.query;

import dev.storh.StorageException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Where a query condition or a sort looks in a record: a list of keys, the first a top-level key
 * of the record data, each next one a key of the object the previous one reached. A key may
 * contain any character, dots included, so {@code FieldPath.of("a.b")} is the top-level key
 * {@code a.b} while {@code FieldPath.of("a", "b")} is key {@code b} inside the object under
 * {@code a}. Walking a path through a list visits every element of the list (as MongoDB does for
 * {@code reviews.rating} on a list of reviews), so one record can reach several values.
 * Immutable and thread-safe.
 *
 * @param segments the keys, at least one, none empty
 */
public record FieldPath(List<String> segments) {

    /**
     * @throws StorageException {@code "Query field cannot be empty."} for no key; for a blank key
     *     the message goes on naming the path's keys
     */
    public FieldPath {
        if (segments == null || segments.isEmpty()) {
            throw new StorageException("Query field cannot be empty.");
        }
        for (String s : segments) { // a loop, not a stream: every condition of every query builds one
            if (s == null || s.isBlank()) {
                throw new StorageException("Query field cannot be empty. A key of the path is blank: " + segments);
            }
        }
        segments = List.copyOf(segments);
    }

    /**
     * @param key a top-level key
     * @return the path of that key alone
     * @throws StorageException {@code "Query field cannot be empty."} for a null or blank key
     */
    public static FieldPath of(String key) {
        if (key == null) {
            throw new StorageException("Query field cannot be empty.");
        }
        return new FieldPath(List.of(key)); // a blank key is rejected as by of(String...)
    }

    /**
     * @param segments the keys, outermost first
     * @return the path
     * @throws StorageException for no key or a blank key
     */
    public static FieldPath of(String... segments) {
        return new FieldPath(segments == null ? List.of() : java.util.Arrays.asList(segments));
    }

    /**
     * @param dotted keys joined by dots, such as {@code publisher.name}; use {@link #of} for a key
     *     that itself contains a dot
     * @return the path of the dot-separated keys
     * @throws StorageException when a key is empty ({@code "a..b"}), naming the text
     */
    public static FieldPath parse(String dotted) {
        if (dotted == null || dotted.isBlank()) {
            throw new StorageException("Query field cannot be empty.");
        }
        List<String> keys = java.util.Arrays.asList(dotted.split("\\.", -1));
        if (keys.stream().anyMatch(String::isBlank)) {
            throw new StorageException("Query field cannot be empty. The dotted path \"" + dotted + "\" has a blank key.");
        }
        return new FieldPath(keys);
    }

    /**
     * @return whether the path goes below the top level
     */
    public boolean nested() {
        return segments.size() > 1;
    }

    /**
     * @return whether this is the record id ({@code id} at the top level)
     */
    public boolean isId() {
        return segments.size() == 1 && segments.get(0).equals("id");
    }

    /**
     * @param data record data in the JSON model
     * @return the values the path reaches, in document order; empty when the path is missing
     *     (a {@code null} on the way counts as missing, a {@code null} at the end as present)
     */
    public List<Object> resolve(Map<String, Object> data) {
        List<Object> reached = new ArrayList<>();
        walk(data, 0, reached);
        return reached;
    }

    private void walk(Object node, int depth, List<Object> reached) {
        if (node instanceof Map<?, ?> map) {
            String key = segments.get(depth);
            if (!map.containsKey(key)) {
                return;
            }
            Object next = map.get(key);
            if (depth == segments.size() - 1) {
                reached.add(next);
            } else {
                walk(next, depth + 1, reached);
            }
        } else if (node instanceof List<?> list && depth > 0) {
            for (Object element : list) {
                walk(element, depth, reached);
            }
        }
    }

    /**
     * @return the keys joined by dots (ambiguous when a key contains a dot; for display)
     */
    @Override
    public String toString() {
        return String.join(".", segments);
    }
}
