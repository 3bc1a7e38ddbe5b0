package dev.storh.doc;

import dev.storh.doc.index.IndexDefinition;
import dev.storh.doc.index.IndexKeys;
import dev.storh.doc.index.RangeView;
import dev.storh.query.Condition;
import dev.storh.query.FieldPath;
import dev.storh.query.Operator;
import dev.storh.query.Values;
import java.util.List;
import java.util.Map;

/**
 * Which index answers a query condition, for the DocStore planner ({@link DocQueryExecutor}): the
 * definition that supports a condition, the compound bucket that answers two equality conditions, whether
 * a value file holds only values identical to the sought ones, and the slice of a range view a range
 * condition matches. Stateless.
 */
final class IndexedConditions {

    private IndexedConditions() {
    }

    /** @return the definition that can answer {@code c}, or {@code null} */
    static IndexDefinition supporting(Condition c, Map<String, IndexDefinition> defs) {
        FieldPath path = c.path();
        if (c.ignoreCase() || path.nested() || path.isId()) {
            return null;
        }
        IndexDefinition d = defs.get(path.segments().get(0));
        if (d == null) {
            return null;
        }
        Operator op = c.operator();
        if (op == Operator.EQ || op == Operator.IN) {
            // Lists and objects are never in an index, so only scalar operands can be looked up.
            List<Object> values = c.values();
            for (int i = 0; i < values.size(); i++) {
                if (!IndexKeys.isIndexable(values.get(i))) {
                    return null;
                }
            }
            return d;
        }
        return d.range() && op.isRange() ? d : null;
    }

    /** @return whether every value filed under the key of each of {@code values} is identical to it */
    static boolean exactKeys(List<Object> values) {
        for (int i = 0; i < values.size(); i++) {
            if (!IndexKeys.keyIsExact(values.get(i))) {
                return false;
            }
        }
        return true;
    }

    /** Two plain equality conditions a compound bucket answers: the definition whose name sorts first on the left. */
    record Compound(IndexDefinition left, Object leftValue, IndexDefinition right, Object rightValue) {
    }

    static Compound compound(List<Condition> group, Map<String, IndexDefinition> defs) {
        if (group.size() != 2) {
            return null;
        }
        Condition a = group.get(0);
        Condition b = group.get(1);
        if (a.operator() != Operator.EQ || b.operator() != Operator.EQ || a.field().equals(b.field())) {
            return null;
        }
        IndexDefinition da = supporting(a, defs);
        IndexDefinition db = supporting(b, defs);
        if (da == null || db == null || !da.equality() || !db.equality() || da.unique() || db.unique()
                || !IndexKeys.isIndexable(a.value()) || !IndexKeys.isIndexable(b.value())
                || IndexKeys.valueKeys(a.value()).size() > 1 || IndexKeys.valueKeys(b.value()).size() > 1) {
            return null; // a zero fraction lives under two keys: intersect the equality sets instead
        }
        boolean aFirst = Values.compareUtf8(a.field(), b.field()) < 0;
        return aFirst ? new Compound(da, a.value(), db, b.value()) : new Compound(db, b.value(), da, a.value());
    }

    /**
     * The slice of a range view matching a range condition: its matches are contiguous in value
     * order because {@code compare} is a total order.
     */
    static int[] span(RangeView view, Condition c) {
        int n = view.size();
        switch (c.operator()) {
            case GT:
                return new int[] {view.lowerBound(c.value(), true), n};
            case GTE:
                return new int[] {view.lowerBound(c.value(), false), n};
            case LT:
                return new int[] {0, view.lowerBound(c.value(), false)};
            case LTE:
                return new int[] {0, view.lowerBound(c.value(), true)};
            case BETWEEN: {
                int from = view.lowerBound(c.values().get(0), false);
                return new int[] {from, Math.max(from, view.lowerBound(c.values().get(1), true))};
            }
            case PREFIX: {
                if (!(c.value() instanceof String p)) {
                    return new int[] {0, 0};
                }
                if (!Values.prefixRunIsContiguous(p)) {
                    return new int[] {0, view.lowerBound(0L, false)}; // every string: the records are re-checked
                }
                int from = view.lowerBound(c.value(), false);
                int to = from;
                while (to < n && c.matchesValue(view.value(to))) {
                    to++;
                }
                return new int[] {from, to};
            }
            default:
                throw new IllegalArgumentException("not a range operator: " + c.operator());
        }
    }
}
