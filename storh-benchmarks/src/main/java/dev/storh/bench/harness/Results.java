package dev.storh.bench.harness;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.SerializationFeature;
import tools.jackson.databind.json.JsonMapper;

/**
 * The measurements of one run, or the medians of several: for each section, in run order, each
 * metric's wall time in seconds and the operations it covered.
 *
 * <p>The JSON keeps the original's shape so two files compare line by
 * line: {@code {dataset, engine, java, runtime{...}, time, cacheValidation, results{section{metric:
 * seconds}}}}. {@code java} and {@code runtime} stand where the original has {@code php} and its
 * runtime; ours adds {@code data}, {@code threads}, {@code repeat}, {@code warmup}, {@code ops}
 * ({@code section{metric: operations}}, so rates can be derived) and, for repeats, {@code summary}
 * ({@code section{metric{min, max, mean, runs[]}}}), as the original's repeat helper does.
 * Not thread-safe: one run fills it from one thread.
 */
public final class Results {

    private static final JsonMapper JSON = JsonMapper.builder().enable(SerializationFeature.INDENT_OUTPUT).build();

    private final Map<String, Map<String, Double>> seconds = new LinkedHashMap<>();
    private final Map<String, Map<String, Long>> ops = new LinkedHashMap<>();
    private final Map<String, Map<String, Map<String, Object>>> summary = new LinkedHashMap<>();

    /**
     * Records one metric.
     *
     * @param section the section, e.g. {@code doc}
     * @param metric the metric within it, e.g. {@code put}
     * @param wallSeconds its wall time in seconds
     * @param operations the operations it covered, at least 1 (1 for a single call)
     */
    public void add(String section, String metric, double wallSeconds, long operations) {
        seconds.computeIfAbsent(section, s -> new LinkedHashMap<>()).put(metric, wallSeconds);
        ops.computeIfAbsent(section, s -> new LinkedHashMap<>()).put(metric, Math.max(1, operations));
    }

    /**
     * @return section → metric → seconds, in run order (live view)
     */
    public Map<String, Map<String, Double>> seconds() {
        return seconds;
    }

    /**
     * @return section → metric → operations, in run order (live view)
     */
    public Map<String, Map<String, Long>> ops() {
        return ops;
    }

    /**
     * @param id a metric id, {@code section.metric}
     * @return its seconds, or {@code null} when absent
     */
    public Double secondsOf(String id) {
        int dot = id.indexOf('.');
        Map<String, Double> s = dot < 0 ? null : seconds.get(id.substring(0, dot));
        return s == null ? null : s.get(id.substring(dot + 1));
    }

    /**
     * @param id a metric id, {@code section.metric}
     * @return its operations, or 1 when absent
     */
    public long opsOf(String id) {
        int dot = id.indexOf('.');
        Map<String, Long> s = dot < 0 ? null : ops.get(id.substring(0, dot));
        Long n = s == null ? null : s.get(id.substring(dot + 1));
        return n == null ? 1 : n;
    }

    /**
     * The median of each metric over runs (the mean of the middle two for an even count), with
     * min, max, mean and the samples kept in {@link #summary()}. A metric missing from some runs
     * takes the median of the runs that have it.
     *
     * @param runs measured runs, at least one
     * @return the medians
     */
    public static Results median(List<Results> runs) {
        Results out = new Results();
        for (Results run : runs) {
            run.seconds.forEach((section, metrics) -> metrics.keySet().forEach(metric -> {
                if (out.seconds.containsKey(section) && out.seconds.get(section).containsKey(metric)) {
                    return;
                }
                List<Double> samples = new ArrayList<>();
                for (Results r : runs) {
                    Map<String, Double> s = r.seconds.get(section);
                    if (s != null && s.get(metric) != null) {
                        samples.add(s.get(metric));
                    }
                }
                double[] sorted = samples.stream().mapToDouble(Double::doubleValue).sorted().toArray();
                int m = sorted.length;
                double median = m % 2 == 1 ? sorted[m / 2] : (sorted[m / 2 - 1] + sorted[m / 2]) / 2;
                out.add(section, metric, median, run.ops.get(section).get(metric));
                Map<String, Object> stats = new LinkedHashMap<>();
                stats.put("min", sorted[0]);
                stats.put("max", sorted[m - 1]);
                stats.put("mean", Arrays.stream(sorted).average().orElse(0));
                stats.put("runs", samples);
                out.summary.computeIfAbsent(section, s -> new LinkedHashMap<>()).put(metric, stats);
            }));
        }
        return out;
    }

    /**
     * @return section → metric → {min, max, mean, runs}; empty for a single run
     */
    public Map<String, Map<String, Map<String, Object>>> summary() {
        return summary;
    }

    /**
     * @param header the top-level fields before {@code results} (dataset, engine, java, runtime, ...)
     * @return the JSON document, pretty-printed, ending with a newline
     */
    public String toJson(Map<String, Object> header) {
        Map<String, Object> doc = new LinkedHashMap<>(header);
        doc.put("results", seconds);
        doc.put("ops", ops);
        if (!summary.isEmpty()) {
            doc.put("summary", summary);
        }
        return JSON.writeValueAsString(doc) + "\n";
    }

    /**
     * @param file a results JSON file
     * @return its top-level fields other than {@code results}, {@code ops} and {@code summary}, in order
     * @throws UncheckedIOException when the file cannot be read
     * @throws IllegalArgumentException naming the file when it is not a JSON object
     */
    public static Map<String, Object> header(Path file) {
        Map<String, Object> out = new LinkedHashMap<>(readDocument(file));
        out.keySet().removeAll(List.of("results", "ops", "summary"));
        return out;
    }

    /**
     * @param file a results JSON file
     * @return its top-level object, in the file's order ({@code null} for a file holding {@code null})
     * @throws UncheckedIOException when the file cannot be read
     * @throws IllegalArgumentException naming the file when it is not JSON
     */
    @SuppressWarnings("unchecked")
    private static Map<String, Object> readDocument(Path file) {
        try {
            return JSON.readValue(Files.readString(file), LinkedHashMap.class);
        } catch (IOException e) {
            throw new UncheckedIOException("Could not read results file " + file, e);
        } catch (RuntimeException e) {
            throw new IllegalArgumentException(file + ": not a JSON results file (" + e.getMessage() + ")", e);
        }
    }

    /**
     * Reads the {@code results} (and {@code ops}, when present) of a results file: ours or the
     * original's.
     *
     * @param file a results JSON file
     * @return its measurements; operations default to 1 where the file has none
     * @throws UncheckedIOException when the file cannot be read
     * @throws IllegalArgumentException naming the file when it is not JSON or has no {@code results} object
     */
    @SuppressWarnings("unchecked")
    public static Results read(Path file) {
        Map<String, Object> doc = readDocument(file);
        if (doc == null || !(doc.get("results") instanceof Map<?, ?> results)) {
            throw new IllegalArgumentException(file + ": has no \"results\" object.");
        }
        Map<String, Object> opsDoc = doc.get("ops") instanceof Map<?, ?> o ? (Map<String, Object>) o : Map.of();
        Results out = new Results();
        ((Map<String, Object>) results).forEach((section, metrics) -> {
            if (metrics instanceof Map<?, ?> m) {
                Map<String, Object> sectionOps =
                        opsDoc.get(section) instanceof Map<?, ?> so ? (Map<String, Object>) so : Map.of();
                ((Map<String, Object>) m).forEach((metric, value) -> {
                    if (value instanceof Number n) {
                        long count = sectionOps.get(metric) instanceof Number c ? c.longValue() : 1;
                        out.add(section, metric, n.doubleValue(), count);
                    }
                });
            }
        });
        return out;
    }
}
