package dev.storh.bench.harness;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Compares two results files metric by metric, and gates a run against a baseline: a tracked
 * metric fails when its time grew past the threshold ({@code current > baseline × (1 + pct/100)}),
 * or when the current run lacks it. A metric the baseline lacks is reported and skipped. As the
 * original's compare and gate helpers do, times are compared, so
 * "slower" means more seconds for the same work. Stateless and thread-safe.
 */
public final class Gate {

    /**
     * The metrics gated by default: the original's CI list less {@code mirror.*} (no mirror yet) and
     * less those too short to be stable in a 1,000-record single run ({@code cache.warm},
     * {@code uuid.monotonic}: a few milliseconds, dominated by JIT state). All cover N operations.
     */
    public static final List<String> DEFAULT_METRICS = List.of("doc.put", "doc.index_build", "doc.bulk_put",
            "doc.jsonl_import", "log.append", "log.compact", "log.bulk_append", "queue.enqueue", "queue.claim",
            "queue.complete", "queue.bulk_enqueue", "recovery.recover", "cache.cold");

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
     */
    public record Verdict(List<Line> lines, double thresholdPercent) {
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
            out.append(String.format(Locale.ROOT, "gate: fail when a metric takes more than %.0f%% longer (x%.2f)%n",
                    thresholdPercent, 1 + thresholdPercent / 100));
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
     * @param baseline the baseline run
     * @param current the run to check
     * @param metrics the tracked metric ids
     * @param thresholdPercent how much longer a metric may take, in percent
     * @return the verdict
     */
    public static Verdict check(Results baseline, Results current, List<String> metrics, double thresholdPercent) {
        List<Line> lines = new ArrayList<>();
        double limit = 1 + thresholdPercent / 100;
        for (String m : metrics) {
            Double base = baseline.secondsOf(m);
            Double now = current.secondsOf(m);
            Status status = now == null ? Status.MISSING
                    : base == null ? Status.NO_BASELINE
                    : now > base * limit ? Status.REGRESSED : Status.OK;
            lines.add(new Line(m, base, now, status));
        }
        return new Verdict(lines, thresholdPercent);
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
