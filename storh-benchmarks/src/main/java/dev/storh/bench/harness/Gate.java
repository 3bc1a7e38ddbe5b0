package dev.storh.bench.harness;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Compares two results files metric by metric, and gates a run against a baseline: a tracked
 * metric fails when its time grew past the threshold ({@code current > baseline × (1 + pct/100)})
 * and by more than an absolute floor (so that a metric of a few microseconds does not fail on one
 * scheduling hiccup of a busy machine), or when the current run lacks it. A metric the baseline lacks is reported and skipped. As the
 * original's compare and gate helpers do, times are compared, so
 * "slower" means more seconds for the same work. Stateless and thread-safe.
 */
public final class Gate {

    /**
     * The metrics gated by default. The durable write paths and maintenance runs of the original's CI
     * list (each covers N operations), and the reads and counts that the speed work made fast and that
     * would fall back to a scan or a re-read if a fast path broke: the log's memory counts, the
     * queue's no-op requeue, index counts with and without limits, range reads, point reads served
     * by the record cache, deletes and streams. The short ones are meant for a warm run
     * ({@code --repeat} with a warm-up) and the {@linkplain #DEFAULT_FLOOR_SECONDS floor}.
     */
    public static final List<String> DEFAULT_METRICS = List.of("doc.put", "doc.index_build", "doc.bulk_put",
            "doc.jsonl_import", "doc.get", "doc.delete", "doc.stream", "doc.id_count", "doc.indexed_count",
            "doc.indexed_compound_count", "doc.indexed_range", "doc.indexed_range_limit_count", "log.append",
            "log.compact", "log.bulk_append", "log.query_count", "queue.enqueue", "queue.claim", "queue.complete",
            "queue.requeue", "queue.bulk_enqueue", "queue.bulk_claim", "recovery.recover", "cache.cold");

    /**
     * The default absolute floor: a metric fails only when it also grew by more than half a
     * millisecond. A scan where a memory count should answer costs more than that at 1,000 records;
     * a pause of the scheduler on a loaded machine mostly does not.
     */
    public static final double DEFAULT_FLOOR_SECONDS = 0.0005;

    /** The default threshold: 400 % slower, i.e. five times the baseline's time. */
    public static final double DEFAULT_THRESHOLD_PERCENT = 400;

    /** How one tracked metric fared. */
    public enum Status {
        /** within the threshold */
        OK,
        /** slower than the threshold allows: fails the gate */
        REGRESSED,
        /** absent from the current run: fails the gate */
        MISSING,
        /** absent from the baseline: skipped */
        NO_BASELINE
    }

    /**
     * One tracked metric.
     *
     * @param metric its id, {@code section.metric}
     * @param baselineSeconds the baseline's time, or {@code null}
     * @param currentSeconds the current time, or {@code null}
     * @param status the verdict
     */
    public record Line(String metric, Double baselineSeconds, Double currentSeconds, Status status) {
        /**
         * @return current / baseline time (2.0 = twice as slow), or NaN when either is missing
         */
        public double ratio() {
            return baselineSeconds == null || currentSeconds == null || baselineSeconds <= 0 ? Double.NaN
                    : currentSeconds / baselineSeconds;
        }
    }

    /**
     * The gate's verdict.
     *
     * @param lines one per tracked metric, in the order given
     * @param thresholdPercent the threshold used
     * @param floorSeconds the absolute floor used, in seconds
     */
    public record Verdict(List<Line> lines, double thresholdPercent, double floorSeconds) {
        /**
         * @return true when no tracked metric regressed or went missing
         */
        public boolean passed() {
            return lines.stream().noneMatch(l -> l.status() == Status.REGRESSED || l.status() == Status.MISSING);
        }

        /**
         * @return a report: one line per metric, then PASS or FAIL, then {@code gate: N passed, M failed}
         */
        public String render() {
            StringBuilder out = new StringBuilder();
            out.append(String.format(Locale.ROOT,
                    "gate: fail when a metric takes more than %.0f%% longer (x%.2f) and over %.3f ms more%n",
                    thresholdPercent, 1 + thresholdPercent / 100, floorSeconds * 1000));
            for (Line l : lines) {
                out.append(String.format(Locale.ROOT, "  %-28s %12s %12s %8s  %s%n", l.metric(),
                        seconds(l.baselineSeconds()), seconds(l.currentSeconds()),
                        Double.isNaN(l.ratio()) ? "-" : String.format(Locale.ROOT, "x%.2f", l.ratio()), l.status()));
            }
            long bad = lines.stream().filter(l -> l.status() == Status.REGRESSED || l.status() == Status.MISSING).count();
            out.append(passed() ? "PASS" : "FAIL").append(" (").append(lines.size()).append(" tracked metrics)\n");
            out.append("gate: ").append(lines.size() - bad).append(" passed, ").append(bad).append(" failed\n");
            return out.toString();
        }
    }

    private Gate() {
    }

    /**
     * @param text {@code 400%}, {@code 400} (percent) or {@code 5x} (times the baseline)
     * @return the threshold in percent
     * @throws IllegalArgumentException naming the text when it is not one of those, or is negative
     */
    public static double parseThreshold(String text) {
        String t = text.trim().toLowerCase(Locale.ROOT);
        try {
            double pct = t.endsWith("x") ? (Double.parseDouble(t.substring(0, t.length() - 1)) - 1) * 100
                    : Double.parseDouble(t.endsWith("%") ? t.substring(0, t.length() - 1) : t);
            if (pct < 0 || Double.isNaN(pct)) {
                throw new IllegalArgumentException("Threshold must not be negative: '" + text + "'.");
            }
            return pct;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("Threshold must look like 400%, 400 or 5x, got '" + text + "'.", e);
        }
    }

    /**
     * {@link #check(Results, Results, List, double, double)} with no absolute floor.
     *
     * @param baseline the baseline run
     * @param current the run to check
     * @param metrics the tracked metric ids
     * @param thresholdPercent how much longer a metric may take, in percent
     * @return the verdict
     */
    public static Verdict check(Results baseline, Results current, List<String> metrics, double thresholdPercent) {
        return check(baseline, current, metrics, thresholdPercent, 0);
    }

    /**
     * @param baseline the baseline run
     * @param current the run to check
     * @param metrics the tracked metric ids
     * @param thresholdPercent how much longer a metric may take, in percent
     * @param floorSeconds how many seconds longer a metric may always take, whatever its ratio
     * @return the verdict: a metric regressed when it is past both the threshold and the floor
     */
    public static Verdict check(Results baseline, Results current, List<String> metrics, double thresholdPercent,
            double floorSeconds) {
        if (floorSeconds < 0 || Double.isNaN(floorSeconds)) {
            throw new IllegalArgumentException("Floor must not be negative: " + floorSeconds + " s.");
        }
        List<Line> lines = new ArrayList<>();
        double limit = 1 + thresholdPercent / 100;
        for (String m : metrics) {
            Double base = baseline.secondsOf(m);
            Double now = current.secondsOf(m);
            Status status = now == null ? Status.MISSING
                    : base == null ? Status.NO_BASELINE
                    : now > base * limit && now - base > floorSeconds ? Status.REGRESSED : Status.OK;
            lines.add(new Line(m, base, now, status));
        }
        return new Verdict(lines, thresholdPercent, floorSeconds);
    }

    /**
     * @param text a duration: {@code 0.5ms}, {@code 500us}, {@code 0.0005s} or {@code 0.0005} (seconds)
     * @return the duration in seconds
     * @throws IllegalArgumentException naming the text when it is none of those, or is negative
     */
    public static double parseFloor(String text) {
        String t = text.trim().toLowerCase(Locale.ROOT);
        double scale = 1;
        if (t.endsWith("ms")) {
            scale = 1e-3;
            t = t.substring(0, t.length() - 2);
        } else if (t.endsWith("us")) {
            scale = 1e-6;
            t = t.substring(0, t.length() - 2);
        } else if (t.endsWith("s")) {
            t = t.substring(0, t.length() - 1);
        }
        try {
            double seconds = Double.parseDouble(t) * scale;
            if (seconds < 0 || Double.isNaN(seconds)) {
                throw new IllegalArgumentException("Floor must not be negative: '" + text + "'.");
            }
            return seconds;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("Floor must look like 0.5ms, 500us or 0.0005s, got '" + text + "'.", e);
        }
    }

    /**
     * Every metric of either run, baseline order first, with both times and the change in percent
     * ({@code +} = slower), as the original's compare helper prints, and the speedup (baseline time
     * divided by current time: {@code 2.00x} means current takes half as long). The last lines count
     * the metrics both runs measured, how many of them the current run is slower on (named), and the
     * geometric mean of the speedups; given the original's results file as the baseline, that is our
     * ratio to the original.
     *
     * @param baseline the earlier run (or the original's results)
     * @param current the later run (or ours)
     * @return the report, one metric a line, then the summary
     */
    public static String compare(Results baseline, Results current) {
        Set<String> ids = new LinkedHashSet<>();
        baseline.seconds().forEach((s, m) -> m.keySet().forEach(k -> ids.add(s + "." + k)));
        current.seconds().forEach((s, m) -> m.keySet().forEach(k -> ids.add(s + "." + k)));
        StringBuilder out = new StringBuilder(String.format(Locale.ROOT, "  %-40s %12s %12s %9s %9s%n", "metric",
                "baseline", "current", "change", "speedup"));
        double logSum = 0;
        int compared = 0;
        List<String> slower = new ArrayList<>();
        for (String id : ids) {
            Double a = baseline.secondsOf(id);
            Double b = current.secondsOf(id);
            String change = a == null ? "new" : b == null ? "gone"
                    : a <= 0 ? "-" : String.format(Locale.ROOT, "%+.1f%%", (b - a) / a * 100);
            String speedup = "-";
            if (a != null && b != null && a > 0 && b > 0) {
                double ratio = a / b;
                speedup = String.format(Locale.ROOT, "%.2fx", ratio);
                logSum += Math.log(ratio);
                compared++;
                if (ratio < 1) {
                    slower.add(id);
                }
            }
            out.append(String.format(Locale.ROOT, "  %-40s %12s %12s %9s %9s%n", id, seconds(a), seconds(b), change,
                    speedup));
        }
        if (compared > 0) {
            out.append(String.format(Locale.ROOT,
                    "%d metrics in both: current faster on %d, slower on %d; geometric mean speedup %.2fx%n",
                    compared, compared - slower.size(), slower.size(), Math.exp(logSum / compared)));
            if (!slower.isEmpty()) {
                out.append("slower: ").append(String.join(", ", slower)).append(System.lineSeparator());
            }
        }
        return out.toString();
    }

    private static String seconds(Double s) {
        return s == null ? "-" : String.format(Locale.ROOT, "%.6fs", s);
    }
}
