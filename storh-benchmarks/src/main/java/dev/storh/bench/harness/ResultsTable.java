package dev.storh.bench.harness;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The readable form of a run: one line per metric with its wall time, operations, time per
 * operation and rate, then each durable write as a share of the raw fsync limit measured in the
 * same run ({@link FsyncProbe}). Stateless and thread-safe.
 */
public final class ResultsTable {

    /**
     * Durable writes and the probe that bounds them: the document store's writes against a new
     * file + fsync + rename + folder fsync, log and queue writes (and SQLite commits) against an
     * append + fsync. Concurrent variants ({@code _tT}) follow their base metric.
     */
    static final Map<String, String> DURABLE = durable();

    private ResultsTable() {
    }

    private static Map<String, String> durable() {
        Map<String, String> m = new LinkedHashMap<>();
        for (String doc : List.of("doc.put", "doc.bulk_put", "doc.jsonl_import")) {
            m.put(doc, "fsync.new_file");
        }
        for (String append : List.of("log.append", "queue.enqueue", "queue.claim", "queue.complete", "sqlite.insert")) {
            m.put(append, "fsync.append");
        }
        return m;
    }

    /**
     * @param metric a metric id
     * @return the probe that bounds it, or {@code null} when it is not a durable single-record write
     */
    static String probeFor(String metric) {
        String base = metric.replaceFirst("_t\\d+$", "");
        return DURABLE.get(base);
    }

    /**
     * @param results a run's measurements
     * @param heading lines printed first (what ran, where, how many runs)
     * @return the table, ending with a newline
     */
    public static String render(Results results, List<String> heading) {
        StringBuilder out = new StringBuilder();
        heading.forEach(h -> out.append(h).append('\n'));
        String format = "  %-40s %11s %8s %11s %14s%n";
        out.append(String.format(Locale.ROOT, format, "metric", "seconds", "ops", "per op", "rate"));
        results.seconds().forEach((section, metrics) -> metrics.forEach((metric, s) -> {
            long ops = results.ops().get(section).get(metric);
            out.append(String.format(Locale.ROOT, format, section + "." + metric, String.format(Locale.ROOT, "%.6f", s),
                    ops, duration(s / ops), rate(ops / s)));
        }));
        List<String> shares = new ArrayList<>();
        results.seconds().forEach((section, metrics) -> metrics.forEach((metric, s) -> {
            String id = section + "." + metric;
            String probe = probeFor(id);
            Double limit = probe == null ? null : results.secondsOf(probe);
            if (limit != null) {
                double rate = results.opsOf(id) / s;
                double limitRate = results.opsOf(probe) / limit;
                shares.add(String.format(Locale.ROOT, "  %-40s %14s %14s %7.0f%%", id, rate(rate), rate(limitRate),
                        rate / limitRate * 100));
            }
        }));
        if (!shares.isEmpty()) {
            out.append("\nDurable writes as a share of the raw fsync limit (same run, same folder):\n");
            out.append(String.format(Locale.ROOT, "  %-40s %14s %14s %8s%n", "metric", "rate", "fsync limit", "share"));
            shares.forEach(l -> out.append(l).append('\n'));
            out.append("  (doc writes vs fsync.new_file; log, queue and SQLite commits vs fsync.append;"
                    + " over 100% = fsyncs shared by group commit or batches)\n");
        }
        return out.toString();
    }

    /**
     * @param seconds a duration
     * @return it in ns, µs, ms or s with three significant-ish digits
     */
    static String duration(double seconds) {
        if (seconds < 1e-6) {
            return String.format(Locale.ROOT, "%.0f ns", seconds * 1e9);
        }
        if (seconds < 1e-3) {
            return String.format(Locale.ROOT, "%.2f µs", seconds * 1e6);
        }
        if (seconds < 1) {
            return String.format(Locale.ROOT, "%.2f ms", seconds * 1e3);
        }
        return String.format(Locale.ROOT, "%.2f s", seconds);
    }

    /**
     * @param perSecond a rate
     * @return it with a thousands separator, per second
     */
    static String rate(double perSecond) {
        return perSecond >= 100 ? String.format(Locale.ROOT, "%,.0f/s", perSecond)
                : String.format(Locale.ROOT, "%.2f/s", perSecond);
    }
}
