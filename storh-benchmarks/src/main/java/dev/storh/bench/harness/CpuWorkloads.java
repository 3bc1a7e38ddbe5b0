package dev.storh.bench.harness;

import dev.storh.id.UuidV7;
import dev.storh.query.Condition;
import dev.storh.query.Operator;
import dev.storh.query.RecordQuery;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Sections {@code uuid} and {@code filter}: pure CPU, N calls each.
 * Filter rows (and their ids at timestamps start + i) are built before the timer starts. Single
 * shots like these include first-call JIT costs; {@code --repeat} with warm-up runs, or the JMH
 * benchmarks, give steady-state figures.
 */
final class CpuWorkloads {

    private CpuWorkloads() {
    }

    static void uuid(SectionRun b) throws Exception {
        int n = b.n();
        long start = Rows.PUBLISHED_START;
        String lower = UuidV7.generate(start);
        String upper = lower.toUpperCase(Locale.ROOT);
        b.time("monotonic", n, () -> {
            int h = 0;
            for (int i = 0; i < n; i++) {
                h += UuidV7.generate(start + 1).hashCode();
            }
            return h;
        });
        b.time("spread", n, () -> {
            int h = 0;
            for (int i = 0; i < n; i++) {
                h += UuidV7.generate(start + 2 + i).hashCode();
            }
            return h;
        });
        b.time("validate", n, () -> {
            int valid = 0;
            for (int i = 0; i < n; i++) {
                valid += UuidV7.isValid((i & 1) == 0 ? lower : upper) ? 1 : 0;
            }
            return valid;
        });
        b.time("timestamp", n, () -> {
            long sum = 0;
            for (int i = 0; i < n; i++) {
                sum += UuidV7.timestampMs((i & 1) == 0 ? lower : upper);
            }
            return sum;
        });
    }

    static void filter(SectionRun b) throws Exception {
        int n = b.n();
        long start = Rows.PUBLISHED_START;
        List<Map<String, Object>> rows = b.rows().list(n);
        String[] ids = new String[n];
        for (int i = 0; i < n; i++) {
            ids[i] = UuidV7.generate(start + i);
        }
        RecordQuery pages = RecordQuery.all().whereEqual("kind", "page");
        RecordQuery range = RecordQuery.all().timeRangeMs(start + 10, Math.max(start + 10, start + n - 10));
        Condition published = new Condition("status", Operator.EQ, List.of("published"));
        b.time("record_equal", n, () -> {
            int hits = 0;
            for (Map<String, Object> row : rows) {
                hits += pages.matchesData(row) ? 1 : 0;
            }
            return hits;
        });
        b.time("record_range", n, () -> {
            int hits = 0;
            for (String id : ids) {
                hits += range.matchesId(id) ? 1 : 0;
            }
            return hits;
        });
        b.time("condition_equal", n, () -> {
            int hits = 0;
            for (int i = 0; i < n; i++) {
                hits += published.matches(ids[i], rows.get(i)) ? 1 : 0;
            }
            return hits;
        });
    }
}
