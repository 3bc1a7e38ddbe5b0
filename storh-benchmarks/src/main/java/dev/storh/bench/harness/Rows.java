package dev.storh.bench.harness;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import tools.jackson.databind.json.JsonMapper;

/**
 * The records every workload writes: {@code row(i)} for {@code i = 0..N-1}.
 * Synthetic rows are the original's five fields, so selectivities match its table:
 *
 * <pre>
 * kind        "page" if i even, else "post"
 * status      "draft" if i % 3 == 0, else "published"
 * bucket      i % 10 (Long)
 * slug        "item-" + i
 * publishedAt 1_700_000_000_000 + i (Long)
 * </pre>
 *
 * With a data file (JSONL, one object a line, e.g. {@code cities.jsonl}) each row is line
 * {@code i % lines} followed by the same five fields, so the queries keep their selectivity while
 * the payload is real (larger, any Unicode). Rows are built on demand; the file is read once.
 * Thread-safe once built.
 */
public final class Rows {

    /** First {@code publishedAt}; the original's timestamp base. */
    public static final long PUBLISHED_START = 1_700_000_000_000L;

    private final List<Map<String, Object>> payloads;
    private final String label;

    private Rows(List<Map<String, Object>> payloads, String label) {
        this.payloads = payloads;
        this.label = label;
    }

    /**
     * @return synthetic rows
     */
    public static Rows synthetic() {
        return new Rows(List.of(), "synthetic");
    }

    /**
     * @param file a JSONL file of objects
     * @param max the most lines to read (the dataset size)
     * @return rows whose payload comes from the file
     * @throws UncheckedIOException when the file cannot be read
     * @throws IllegalArgumentException naming the file and line when a line is not a JSON object,
     *     or when the file holds no object
     */
    @SuppressWarnings("unchecked")
    public static Rows fromFile(Path file, int max) {
        JsonMapper mapper = JsonMapper.builder().build();
        List<Map<String, Object>> out = new ArrayList<>();
        try (BufferedReader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            String line;
            int number = 0;
            while (out.size() < max && (line = in.readLine()) != null) {
                number++;
                if (line.isBlank()) {
                    continue;
                }
                Object value;
                try {
                    value = mapper.readValue(line, Object.class);
                } catch (RuntimeException e) {
                    throw new IllegalArgumentException(file + ":" + number + ": not JSON (" + e.getMessage() + ")", e);
                }
                if (!(value instanceof Map)) {
                    throw new IllegalArgumentException(file + ":" + number + ": expected a JSON object.");
                }
                out.add((Map<String, Object>) value);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("Could not read data file " + file, e);
        }
        if (out.isEmpty()) {
            throw new IllegalArgumentException(file + ": holds no JSON object.");
        }
        return new Rows(List.copyOf(out), file.getFileName().toString());
    }

    /**
     * @return "synthetic", or the data file's name
     */
    public String label() {
        return label;
    }

    /**
     * @param i the row number, from 0
     * @return a new mutable map: the payload (if any) followed by kind, status, bucket, slug, publishedAt
     */
    public Map<String, Object> row(int i) {
        Map<String, Object> row = new LinkedHashMap<>();
        if (!payloads.isEmpty()) {
            row.putAll(payloads.get(i % payloads.size()));
        }
        row.put("kind", kind(i));
        row.put("status", status(i));
        row.put("bucket", (long) (i % 10));
        row.put("slug", "item-" + i);
        row.put("publishedAt", PUBLISHED_START + i);
        return row;
    }

    /**
     * @param n how many
     * @return an iterable over {@code row(0) .. row(n-1)}, built lazily, iterable many times
     */
    public Iterable<Map<String, Object>> rows(int n) {
        return () -> new Iterator<>() {
            private int i;

            @Override
            public boolean hasNext() {
                return i < n;
            }

            @Override
            public Map<String, Object> next() {
                if (i >= n) {
                    throw new NoSuchElementException();
                }
                return row(i++);
            }
        };
    }

    /**
     * @param n how many
     * @return {@code row(0) .. row(n-1)} built now
     */
    public List<Map<String, Object>> list(int n) {
        List<Map<String, Object>> out = new ArrayList<>(n);
        rows(n).forEach(out::add);
        return out;
    }

    /**
     * @param i the row number
     * @return its kind
     */
    public static String kind(int i) {
        return i % 2 == 0 ? "page" : "post";
    }

    /**
     * @param i the row number
     * @return its status
     */
    public static String status(int i) {
        return i % 3 == 0 ? "draft" : "published";
    }
}
