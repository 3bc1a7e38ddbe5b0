package dev.storh.doc.index;

import static org.assertj.core.api.Assertions.assertThat;

import dev.storh.doc.DocStore;
import dev.storh.query.QueryBuilder;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.DoublePredicate;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Range counts read from the strides of a range file without a delta: lines whose key lies strictly
 * between the bounds' keys count without a look at their values, lines that share a bound's key are
 * compared one by one. Values that round to one key (six decimals) sit on every bound, over several
 * strides, and every count equals the count of the values themselves.
 */
class RangeCountsByKeyTest {

    @TempDir
    Path root;

    @Test
    void countsOfComparisonsEqualTheValuesCountWhenValuesShareTheBoundsKeys() {
        List<Double> values = new ArrayList<>();
        try (DocStore store = DocStore.open(root, "r")) {
            store.indexes().field("x").range().sync();
            for (long i = 0; i < 700; i++) {
                store.put(Map.of("x", i), null);
                values.add((double) i);
            }
            for (double v : new double[] {100.0000001, 100.0000002, 299.9999999, 300.0000004, 555.0000003}) {
                store.put(Map.of("x", v), null);
                values.add(v);
            }
            store.reindex(); // the range file holds every line, no delta: the strides answer
            double[] bounds = {-1, 0, 99.9999999, 100, 100.0000001, 100.00000015, 100.0000002, 250.5, 299.9999999,
                300, 300.0000004, 555.0000003, 699, 700};
            for (double lo : bounds) {
                check(store, values, "gt " + lo, q -> q.where("x").gt(lo), v -> v > lo);
                check(store, values, "gte " + lo, q -> q.where("x").gte(lo), v -> v >= lo);
                check(store, values, "lt " + lo, q -> q.where("x").lt(lo), v -> v < lo);
                check(store, values, "lte " + lo, q -> q.where("x").lte(lo), v -> v <= lo);
                for (double hi : bounds) {
                    check(store, values, "between " + lo + " " + hi, q -> q.where("x").between(lo, hi), v -> v >= lo && v <= hi);
                }
            }
            assertThat(store.query().where("x").gte(100L).limit(300).count()).isEqualTo(300);
            assertThat(store.query().where("x").gt(100L).limit(1000).count()).isEqualTo(values.stream().filter(v -> v > 100).count());
        }
    }

    private static void check(DocStore store, List<Double> values, String as, UnaryOperator<QueryBuilder> query,
            DoublePredicate test) {
        long expected = values.stream().filter(test::test).count();
        assertThat(query.apply(store.query()).count()).as(as).isEqualTo(expected);
    }
}
