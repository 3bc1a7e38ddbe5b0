package dev.storh.doc.index;

import static org.assertj.core.api.Assertions.assertThat;

import dev.storh.doc.DocStore;
import dev.storh.query.Condition;
import dev.storh.query.Operator;
import dev.storh.query.Values;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link RangeSlices#ordered} with a large delta (new records, changed values and deletes after
 * the main file was written, values tied within the delta and with the main file's) equals the
 * records sorted by value then id, both ways, for limits around the stride length and beyond the
 * number of values, with and without a range condition: the delta's matches counted before a key
 * by binary search must be exactly those an unread line cannot precede, and those tested for a
 * condition (the ones with keys in its window) must hold every match; {@link RangeSlices#ids} too,
 * and the ordered read among a random seventh of the ids equals that sort filtered.
 */
class RangeSlicesOrderedDeltaTest {

    @TempDir
    Path root;

    @Test
    void orderedReadsWithALargeDeltaEqualASort() throws Exception {
        Random random = new Random(7);
        try (DocStore store = DocStore.open(root, "q")) {
            store.indexes().field("s").range().field("n").range().sync();
            List<Map<String, Object>> rows = new ArrayList<>();
            for (int i = 0; i < 2_000; i++) {
                rows.add(row(random));
            }
            store.putStream(rows);
            store.reindex(); // everything in the main files, several strides each
            List<String> ids = new ArrayList<>();
            try (java.util.stream.Stream<String> all = store.ids()) {
                ids.addAll(all.toList());
            }
            for (int i = 0; i < 900; i++) { // the delta: more than three strides of new and changed values
                int what = random.nextInt(6);
                if (what == 0) {
                    store.delete(ids.remove(random.nextInt(ids.size())));
                } else {
                    String id = what == 1 ? ids.get(random.nextInt(ids.size())) : null;
                    String written = store.put(row(random), id).id();
                    if (id == null) {
                        ids.add(written);
                    }
                }
            }
            java.util.Set<String> accepted = new java.util.HashSet<>();
            ids.forEach(id -> {
                if (random.nextInt(7) == 0) {
                    accepted.add(id);
                }
            });
            for (String field : List.of("s", "n")) {
                List<Map.Entry<String, Object>> values = values(store, ids, field);
                RangeSlices slices = store.indexes().rangeSlices(field);
                List<Condition> conditions = new ArrayList<>();
                conditions.add(null);
                if (field.equals("s")) {
                    conditions.add(new Condition("s", Operator.GTE, List.of("k3")));
                    conditions.add(new Condition("s", Operator.PREFIX, List.of("k1")));
                    conditions.add(new Condition("s", Operator.LT, List.of("k25")));
                } else {
                    conditions.add(new Condition("n", Operator.BETWEEN, List.of(100L, 700L)));
                    conditions.add(new Condition("n", Operator.LTE, List.of(250L)));
                    conditions.add(new Condition("n", Operator.GT, List.of(999L)));
                }
                for (Condition c : conditions) {
                    List<Map.Entry<String, Object>> matching = values.stream()
                            .filter(e -> c == null || c.matchesValue(e.getValue())).toList();
                    for (boolean ascending : new boolean[] { true, false }) {
                        List<String> sorted = sorted(matching, ascending);
                        for (int need : new int[] { 1, 2, 7, 100, 255, 256, 257, 513, 1_000, 2_500, 5_000 }) {
                            List<String> got = slices.ordered(c, ascending, need);
                            String label = field + " " + c + (ascending ? " asc " : " desc ") + need;
                            assertThat(got).as(label + ": the strides answer").isNotNull();
                            assertThat(got).as(label).isEqualTo(sorted.subList(0, Math.min(need, sorted.size())));
                            // among some ids only (about one in seven, from the delta and the main file alike)
                            List<String> few = sorted.stream().filter(accepted::contains).toList();
                            assertThat(slices.ordered(c, ascending, need, accepted::contains)).as(label + " accepted")
                                    .isEqualTo(few.subList(0, Math.min(need, few.size())));
                        }
                        if (c != null) {
                            assertThat(slices.ids(c)).as(field + " " + c + ": ids").isEqualTo(matching.stream()
                                    .map(Map.Entry::getKey).sorted().toList());
                        }
                    }
                }
            }
        }
    }

    private static Map<String, Object> row(Random random) {
        Map<String, Object> data = new LinkedHashMap<>();
        data.put("s", "k" + random.nextInt(600)); // ties: about four records a value
        data.put("n", (long) random.nextInt(1_000));
        return data;
    }

    private static List<Map.Entry<String, Object>> values(DocStore store, List<String> ids, String field) {
        List<Map.Entry<String, Object>> out = new ArrayList<>();
        for (String id : ids) {
            store.get(id).ifPresent(r -> out.add(Map.entry(r.id(), r.data().get(field))));
        }
        return out;
    }

    /** @return the ids by value in the direction, ties by ascending id */
    private static List<String> sorted(List<Map.Entry<String, Object>> values, boolean ascending) {
        Comparator<Map.Entry<String, Object>> byValue = (a, b) -> Values.compare(a.getValue(), b.getValue());
        Comparator<Map.Entry<String, Object>> order = (ascending ? byValue : byValue.reversed())
                .thenComparing(Map.Entry::getKey);
        return values.stream().sorted(order).map(Map.Entry::getKey).toList();
    }
}
