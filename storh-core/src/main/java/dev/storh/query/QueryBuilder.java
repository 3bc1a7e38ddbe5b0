package dev.storh.query;

import dev.storh.StorageException;
import dev.storh.StorageRecord;
import dev.storh.id.UuidV7;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;

/**
 * An immutable query over a store: a disjunction of
 * groups, each a conjunction of {@link Condition}s, plus ordering, a limit and an id cursor.
 * Every method returns a new builder; the receiver is unchanged, so a builder can be shared and
 * extended by many threads.
 *
 * <pre>
 * store.query().where("kind").eq("page").where("rank").gte(10)
 *      .orWhere(q -&gt; q.where("featured").eq(true))
 *      .orderBy("rank", Direction.DESC).limit(20).get();
 * </pre>
 *
 * <ul>
 *   <li>{@code where} adds the condition to every group;</li>
 *   <li>{@code andWhere(q -> ...)} adds all conditions of the branch to every group;</li>
 *   <li>{@code orWhere(q -> ...)} adds the branch's groups as alternatives; on a query that has no
 *       conditions yet, the branch replaces the match-everything group (the original keeps it
 *       and matches everything, W13);</li>
 *   <li>without {@code orderBy}, results are in ascending id order; {@code cursor(id)} keeps ids
 *       strictly after the cursor; {@code page(n)} is {@code limit(n)}.</li>
 * </ul>
 */
public final class QueryBuilder {

    private static final Shape EMPTY = new Shape(List.of(List.of()), null, Direction.ASC, 0, null);

    private final QueryExecutor executor;
    private final Shape shape;

    private QueryBuilder(QueryExecutor executor, Shape shape) {
        this.executor = executor;
        this.shape = shape;
    }

    /**
     * What a query asks, apart from who runs it; each {@code with} copy changes one part.
     *
     * @param groups the OR groups of ANDed conditions, never empty
     * @param orderPath the sort path, or {@code null}
     * @param direction the sort direction
     * @param limit the most records, 0 for no limit
     * @param cursor the lowercase id results come after, or {@code null}
     */
    private record Shape(List<List<Condition>> groups, FieldPath orderPath, Direction direction, long limit, String cursor) {

        Shape withGroups(List<List<Condition>> next) {
            return new Shape(next, orderPath, direction, limit, cursor);
        }

        Shape withOrder(FieldPath path, Direction dir) {
            return new Shape(groups, path, dir, limit, cursor);
        }

        Shape withLimit(long n) {
            return new Shape(groups, orderPath, direction, n, cursor);
        }

        Shape withCursor(String id) {
            return new Shape(groups, orderPath, direction, limit, id);
        }
    }

    /**
     * @param executor runs the terminal operations
     * @return an empty query (one empty group: matches every record)
     */
    public static QueryBuilder on(QueryExecutor executor) {
        return new QueryBuilder(Objects.requireNonNull(executor, "executor"), EMPTY);
    }

    /**
     * @param field a top-level field, or {@code id} for the record id
     * @return the condition step; each of its methods returns the extended query
     * @throws StorageException {@code "Query field cannot be empty."}
     */
    public FieldCondition where(String field) {
        if (field == null || field.isBlank()) {
            throw new StorageException("Query field cannot be empty.");
        }
        return new FieldCondition(FieldPath.of(field), false);
    }

    /**
     * Starts a condition on a field path, such as {@code FieldPath.of("publisher", "name")}.
     * A path index on the path (see {@code IndexManager.definePath}) serves it; without one the
     * records are read.
     *
     * @param path the path
     * @return the operator step
     */
    public FieldCondition where(FieldPath path) {
        return new FieldCondition(Objects.requireNonNull(path, "path"), false);
    }

    /**
     * @param condition a condition, as {@link #groups()} lists them
     * @return this query with the condition added to every OR group
     */
    public QueryBuilder and(Condition condition) {
        return add(Objects.requireNonNull(condition, "condition"));
    }

    /**
     * @param branch builds conditions on a fresh query; all of them are ANDed into every group
     * @return the extended query
     * @throws StorageException {@code "andWhere callback must return a QueryBuilder."}
     */
    public QueryBuilder andWhere(UnaryOperator<QueryBuilder> branch) {
        QueryBuilder b = branch.apply(on(executor));
        if (b == null) {
            throw new StorageException("andWhere callback must return a QueryBuilder.");
        }
        List<Condition> flat = new ArrayList<>();
        b.shape.groups().forEach(flat::addAll);
        return andEveryGroup(flat);
    }

    /**
     * @param branch builds an alternative on a fresh query
     * @return the query matching this one OR the branch
     * @throws StorageException {@code "orWhere callback must return a QueryBuilder."}
     */
    public QueryBuilder orWhere(UnaryOperator<QueryBuilder> branch) {
        QueryBuilder b = branch.apply(on(executor));
        if (b == null) {
            throw new StorageException("orWhere callback must return a QueryBuilder.");
        }
        List<List<Condition>> next = new ArrayList<>();
        if (hasConditions()) {
            next.addAll(shape.groups());
        }
        next.addAll(b.shape.groups());
        return with(List.copyOf(next));
    }

    /**
     * @param field the field to sort by ({@code id} for the record id); missing sorts as null
     * @return the query sorted ascending
     */
    public QueryBuilder orderBy(String field) {
        return orderBy(field, Direction.ASC);
    }

    /**
     * @param field the field to sort by
     * @param direction ascending or descending; ties stay in ascending id order
     * @return the sorted query
     */
    public QueryBuilder orderBy(String field, Direction direction) {
        if (field == null || field.isBlank()) {
            throw new StorageException("Query field cannot be empty.");
        }
        return orderBy(FieldPath.of(field), direction);
    }

    /**
     * @param path the path to sort by (missing sorts as {@code null})
     * @param direction the direction
     * @return the query sorted by the path, ties in ascending id order
     */
    public QueryBuilder orderBy(FieldPath path, Direction direction) {
        return new QueryBuilder(executor, shape.withOrder(Objects.requireNonNull(path, "path"),
                Objects.requireNonNull(direction, "direction")));
    }

    /**
     * @param field the field to sort by
     * @param direction {@code asc} or {@code desc}, any case
     * @return the sorted query
     * @throws StorageException {@code "Query order direction must be asc or desc."}
     */
    public QueryBuilder orderBy(String field, String direction) {
        return orderBy(field, Direction.parse(direction));
    }

    /**
     * @param n the most records to return, at least 1
     * @return the limited query
     * @throws StorageException {@code "Query limit must be at least 1."}
     */
    public QueryBuilder limit(long n) {
        if (n < 1) {
            throw new StorageException("Query limit must be at least 1. Got: " + n);
        }
        return new QueryBuilder(executor, shape.withLimit(n));
    }

    /**
     * @param size page size, as {@link #limit(long)} (the next page starts after the last id: {@link #cursor})
     * @return the limited query
     */
    public QueryBuilder page(long size) {
        return limit(size);
    }

    /**
     * @param id a UUIDv7; only records with greater ids match
     * @return the query after the cursor
     * @throws StorageException {@code "Invalid UUIDv7 value."}
     */
    public QueryBuilder cursor(String id) {
        return new QueryBuilder(executor, shape.withCursor(UuidV7.normalize(id)));
    }

    /**
     * @return matching records, ordered, limited
     */
    public List<StorageRecord> get() {
        return executor.get(this);
    }

    /**
     * @return the first matching record
     */
    public Optional<StorageRecord> first() {
        return executor.first(this);
    }

    /**
     * @return the number of matching records, at most the limit
     */
    public long count() {
        return executor.count(this);
    }

    /**
     * @return matching records as a stream; close it
     */
    public Stream<StorageRecord> stream() {
        return executor.stream(this);
    }

    /**
     * @return the plan the store would use
     */
    public QueryPlan explain() {
        return executor.explain(this);
    }

    /**
     * @return the OR groups, each a list of ANDed conditions; never empty
     */
    public List<List<Condition>> groups() {
        return shape.groups();
    }

    /**
     * @return whether any group has a condition
     */
    public boolean hasConditions() {
        for (List<Condition> g : shape.groups()) { // a loop, not a stream: every query asks
            if (!g.isEmpty()) {
                return true;
            }
        }
        return false;
    }

    /**
     * @return the order field, or {@code null}
     */
    public String orderField() {
        FieldPath path = shape.orderPath();
        return path == null ? null : path.nested() ? path.toString() : path.segments().get(0);
    }

    /**
     * @return the sort path, or {@code null} when unsorted
     */
    public FieldPath orderPath() {
        return shape.orderPath();
    }

    /**
     * @return the order direction
     */
    public Direction direction() {
        return shape.direction();
    }

    /**
     * @return the limit, or 0 when unlimited
     */
    public long limit() {
        return shape.limit();
    }

    /**
     * @return the cursor id (lowercase), or {@code null}
     */
    public String cursor() {
        return shape.cursor();
    }

    /**
     * @param id record id
     * @param data record data
     * @return whether the record passes the cursor and any group
     */
    public boolean matches(String id, java.util.Map<String, Object> data) {
        String cursor = shape.cursor();
        if (cursor != null && id.compareTo(cursor) <= 0) {
            return false;
        }
        for (List<Condition> group : shape.groups()) {
            boolean all = true;
            for (Condition c : group) {
                if (!c.matches(id, data)) {
                    all = false;
                    break;
                }
            }
            if (all) {
                return true;
            }
        }
        return false;
    }

    private QueryBuilder with(List<List<Condition>> nextGroups) {
        return new QueryBuilder(executor, shape.withGroups(nextGroups));
    }

    private QueryBuilder add(Condition c) {
        return andEveryGroup(List.of(c));
    }

    /** @return this query with the conditions appended to every OR group */
    private QueryBuilder andEveryGroup(List<Condition> conditions) {
        if (shape.groups().size() == 1 && conditions.size() == 1) { // where(...) on a query without orWhere
            List<Condition> g = shape.groups().get(0);
            Condition[] ng = g.toArray(new Condition[g.size() + 1]);
            ng[g.size()] = conditions.get(0);
            return with(List.of(List.of(ng)));
        }
        List<List<Condition>> next = new ArrayList<>();
        for (List<Condition> g : shape.groups()) {
            List<Condition> ng = new ArrayList<>(g);
            ng.addAll(conditions);
            next.add(List.copyOf(ng));
        }
        return with(List.copyOf(next));
    }

    @Override
    public String toString() {
        return "QueryBuilder[groups=" + shape.groups() + ", orderBy=" + shape.orderPath() + " " + shape.direction()
                + ", limit=" + shape.limit() + ", cursor=" + shape.cursor() + "]";
    }

    /** The operator step of {@code where(field)}. */
    public final class FieldCondition {
        private final FieldPath field;
        private final boolean ignoreCase;

        private FieldCondition(FieldPath field, boolean ignoreCase) {
            this.field = field;
            this.ignoreCase = ignoreCase;
        }

        private QueryBuilder op(Operator op, Object... values) {
            return add(new Condition(field, op, java.util.Arrays.asList(values), ignoreCase));
        }

        /**
         * @return the same step comparing strings case-insensitively ({@link Condition#fold});
         *     the next operator must compare strings (not a range); a case-folded path index
         *     serves {@code eq}, {@code in}, {@code has} and {@code prefix}, other operators read
         *     records
         */
        public FieldCondition ignoringCase() {
            return new FieldCondition(field, true);
        }

        /** @param s suffix @return query with a string field ending with s */
        public QueryBuilder suffix(String s) {
            return op(Operator.SUFFIX, s);
        }

        /** @param s part @return query with a string field containing s */
        public QueryBuilder contains(String s) {
            return op(Operator.CONTAINS, s);
        }

        /** @param s part @return query with the field missing or not a string containing s */
        public QueryBuilder notContains(String s) {
            return op(Operator.NOT_CONTAINS, s);
        }

        /** @param p pattern, {@code *} for any run of characters @return query with a string field matching p whole */
        public QueryBuilder like(String p) {
            return op(Operator.LIKE, p);
        }

        /** @param p pattern as for {@link #like} @return query with the field missing or not a string matching p */
        public QueryBuilder notLike(String p) {
            return op(Operator.NOT_LIKE, p);
        }

        /**
         * @param regex a {@link java.util.regex.Pattern}, found anywhere in the string
         * @return query with a string field in which regex finds a match
         * @throws StorageException naming the field when regex is invalid
         */
        public QueryBuilder regex(String regex) {
            return op(Operator.REGEX, regex);
        }

        /** @param v element @return query with a list field holding an element identical to v */
        public QueryBuilder has(Object v) {
            return op(Operator.HAS, v);
        }

        /** @param v element @return query with the field missing or not a list holding v */
        public QueryBuilder notHas(Object v) {
            return op(Operator.NOT_HAS, v);
        }

        /** @param v value @return query with {@code field == v} (strict, type-sensitive) */
        public QueryBuilder eq(Object v) {
            return op(Operator.EQ, v);
        }

        /** @param v value @return query with {@code field} missing or not identical to v */
        public QueryBuilder neq(Object v) {
            return op(Operator.NEQ, v);
        }

        /** @param vs values @return query with {@code field} identical to one of vs */
        public QueryBuilder in(Collection<?> vs) {
            return add(new Condition(field, Operator.IN, new ArrayList<>(vs), ignoreCase));
        }

        /** @param vs values @return query with {@code field} missing or identical to none of vs */
        public QueryBuilder notIn(Collection<?> vs) {
            return add(new Condition(field, Operator.NOT_IN, new ArrayList<>(vs), ignoreCase));
        }

        /** @param v bound @return query with {@code field > v} */
        public QueryBuilder gt(Object v) {
            return op(Operator.GT, v);
        }

        /** @param v bound @return query with {@code field >= v} */
        public QueryBuilder gte(Object v) {
            return op(Operator.GTE, v);
        }

        /** @param v bound @return query with {@code field < v} */
        public QueryBuilder lt(Object v) {
            return op(Operator.LT, v);
        }

        /** @param v bound @return query with {@code field <= v} */
        public QueryBuilder lte(Object v) {
            return op(Operator.LTE, v);
        }

        /** @param lo lower bound @param hi upper bound @return query with {@code lo <= field <= hi} */
        public QueryBuilder between(Object lo, Object hi) {
            return op(Operator.BETWEEN, lo, hi);
        }

        /** @return query with the key present (null counts) */
        public QueryBuilder exists() {
            return op(Operator.EXISTS);
        }

        /** @return query with the key absent */
        public QueryBuilder missing() {
            return op(Operator.MISSING);
        }

        /** @param p prefix @return query with a string field starting with p (bytewise) */
        public QueryBuilder prefix(String p) {
            return op(Operator.PREFIX, p);
        }
    }
}
