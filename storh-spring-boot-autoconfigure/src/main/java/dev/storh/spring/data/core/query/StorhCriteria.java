package dev.storh.spring.data.core.query;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.function.UnaryOperator;
import java.util.stream.Collectors;

import dev.storh.query.Condition;
import dev.storh.query.FieldPath;
import dev.storh.query.Operator;
import dev.storh.query.QueryBuilder;

import org.springframework.util.Assert;

/**
 * A condition on stored records in disjunctive normal form over core's
 * {@link Condition}s: a record matches when every condition
 * of at least one group matches. This is the shape of a derived query such as
 * {@code findByCountryAndPopulationGreaterThanOrNameStartingWith}, and the shape core's
 * {@link QueryBuilder} plans on indexes ({@link #applyTo(QueryBuilder)}).
 * <p>
 * Semantics are core's: equality is strict and type-sensitive ({@code 1} is not {@code 1.0});
 * ranges and {@code startsWith} follow core's total order and UTF-8 byte order; {@code isNot}
 * and {@code notIn} also match records missing the key; {@code isNull} matches a missing key
 * or a JSON {@code null}. Fields are top-level JSON keys ({@code where("a.b")} is the key
 * {@code a.b}) or {@link FieldPath}s into nested objects and lists; {@code id} is the record id.
 * String conditions ({@code contains}, {@code endsWith}, {@code like}, {@code regex}) are answered
 * by reading records; equality, membership, ranges and {@code startsWith} use indexes, and so do
 * element conditions on lists ({@code hasElement}), nested paths and {@link Field#ignoreCase()}
 * equality and {@code startsWith} where a path index (multikey, case-insensitive) is declared. Operand
 * values should already be in the JSON model (the template converts entity-typed values with
 * {@code StorhEntityConverter.toJsonValue}).
 * <pre>
 * StorhCriteria.where("country").is("FR").and("population").greaterThan(100_000L)
 *     .or(StorhCriteria.where("name").startsWith("Ly"));
 * </pre>
 * Instances are immutable; every method returns a new instance.
 */
public final class StorhCriteria {

    private static final StorhCriteria ALL = new StorhCriteria(List.of(List.of()));

    private final List<List<Condition>> groups;

    private StorhCriteria(List<List<Condition>> groups) {
        this.groups = groups;
    }

    /**
     * @return criteria matching every record (one empty group)
     */
    public static StorhCriteria all() {
        return ALL;
    }

    /**
     * Start criteria on a field.
     * @param field a top-level JSON key, or {@code id} for the record id
     * @return the operator step
     * @throws IllegalArgumentException when {@code field} is empty
     */
    public static Field where(String field) {
        return ALL.and(field);
    }

    /**
     * Start criteria on a field path, such as {@code FieldPath.of("publisher", "name")}.
     * @param path the path
     * @return the condition step
     */
    public static Field where(FieldPath path) {
        return ALL.and(path);
    }

    /**
     * Criteria from groups of core conditions.
     * @param groups the OR groups, each an AND of conditions; an empty group matches everything
     * @return the criteria
     * @throws IllegalArgumentException when {@code groups} is empty
     */
    public static StorhCriteria of(List<List<Condition>> groups) {
        Assert.notEmpty(groups, "'groups' must not be empty");
        List<List<Condition>> copy = new ArrayList<>();
        for (List<Condition> group : groups) {
            if (group.isEmpty()) {
                return ALL;
            }
            copy.add(List.copyOf(group));
        }
        return new StorhCriteria(List.copyOf(copy));
    }

    /**
     * Add a condition on another field to every group.
     * @param field a top-level JSON key, or {@code id}
     * @return the operator step
     * @throws IllegalArgumentException when {@code field} is empty
     */
    public Field and(String field) {
        Assert.hasText(field, "'field' must not be empty");
        return new Field(this, FieldPath.of(field), false);
    }

    /**
     * Add a condition on a field path to every group.
     * @param path the path
     * @return the condition step
     */
    public Field and(FieldPath path) {
        Assert.notNull(path, "'path' must not be null");
        return new Field(this, path, false);
    }

    /**
     * Records matching both: every group of this is combined with every group of {@code other},
     * so {@code (A or B) and (C or D)} becomes {@code AC or AD or BC or BD}.
     * @param other the other criteria
     * @return new criteria
     */
    public StorhCriteria and(StorhCriteria other) {
        Assert.notNull(other, "'other' must not be null");
        List<List<Condition>> result = new ArrayList<>();
        for (List<Condition> left : this.groups) {
            for (List<Condition> right : other.groups) {
                List<Condition> combined = new ArrayList<>(left);
                combined.addAll(right);
                result.add(combined);
            }
        }
        return of(result);
    }

    /**
     * Records matching either.
     * @param other the alternative
     * @return new criteria
     */
    public StorhCriteria or(StorhCriteria other) {
        Assert.notNull(other, "'other' must not be null");
        if (isAll() || other.isAll()) {
            return ALL;
        }
        List<List<Condition>> result = new ArrayList<>(this.groups);
        result.addAll(other.groups);
        return of(result);
    }

    /**
     * @return whether these criteria match every record
     */
    public boolean isAll() {
        return this.groups.size() == 1 && this.groups.get(0).isEmpty();
    }

    /**
     * @return the OR groups, each an AND of conditions; unmodifiable; one empty group for
     * {@link #all()}
     */
    public List<List<Condition>> groups() {
        return this.groups;
    }

    /**
     * The same criteria with every operand passed through a function, e.g. to convert Java
     * values to the JSON model.
     * @param converter maps one operand value
     * @return new criteria
     */
    public StorhCriteria mapValues(UnaryOperator<Object> converter) {
        if (isAll()) {
            return this;
        }
        List<List<Condition>> result = new ArrayList<>();
        for (List<Condition> group : this.groups) {
            List<Condition> mapped = new ArrayList<>();
            for (Condition condition : group) {
                mapped.add(new Condition(condition.path(), condition.operator(),
                        condition.values().stream().map(converter).toList(), condition.ignoreCase()));
            }
            result.add(mapped);
        }
        return of(result);
    }

    /**
     * Add these criteria to a core query: the first group's conditions with
     * {@code where(...)}, each further group with {@code orWhere(...)}.
     * @param query the query to extend (its order, limit and cursor are kept)
     * @return the extended query
     */
    public QueryBuilder applyTo(QueryBuilder query) {
        Assert.notNull(query, "'query' must not be null");
        if (isAll()) {
            return query;
        }
        QueryBuilder result = addAll(query, this.groups.get(0));
        for (int i = 1; i < this.groups.size(); i++) {
            List<Condition> group = this.groups.get(i);
            result = result.orWhere((branch) -> addAll(branch, group));
        }
        return result;
    }

    private static QueryBuilder addAll(QueryBuilder query, List<Condition> group) {
        QueryBuilder result = query;
        for (Condition c : group) {
            result = result.and(c);
        }
        return result;
    }

    @Override
    public String toString() {
        if (isAll()) {
            return "all";
        }
        return this.groups.stream()
            .map((group) -> group.stream()
                .map((c) -> c.path() + " " + c.operator().label() + (c.ignoreCase() ? " ignoring case " : " ")
                        + c.values())
                .collect(Collectors.joining(" and ", "(", ")")))
            .collect(Collectors.joining(" or "));
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof StorhCriteria criteria && this.groups.equals(criteria.groups);
    }

    @Override
    public int hashCode() {
        return this.groups.hashCode();
    }

    /**
     * The operator step of {@link StorhCriteria#where(String)} and {@link StorhCriteria#and(String)}:
     * each method returns the criteria with the condition added to every group.
     */
    public static final class Field {

        private final StorhCriteria base;

        private final FieldPath field;

        private final boolean ignoreCase;

        private Field(StorhCriteria base, FieldPath field, boolean ignoreCase) {
            this.base = base;
            this.field = field;
            this.ignoreCase = ignoreCase;
        }

        /** {@link #add} of one string operand, refused when {@code null} naming the parameter. */
        private StorhCriteria addText(Operator operator, String name, String value) {
            Assert.notNull(value, () -> "'" + name + "' must not be null");
            return add(operator, value);
        }

        private StorhCriteria add(Operator operator, Object... values) {
            return this.base.and(new StorhCriteria(List.of(List.of(new Condition(this.field, operator,
                    Arrays.asList(values), this.ignoreCase)))));
        }

        /**
         * The same field, comparing strings case-insensitively (case folding in
         * {@code Locale.ROOT}); only for equality, membership, string and element conditions.
         * Such conditions are answered by reading records, not from indexes.
         * @return the condition step
         */
        public Field ignoreCase() {
            return new Field(this.base, this.field, true);
        }

        /**
         * @param suffix the end
         * @return criteria matching a string field ending with the suffix
         */
        public StorhCriteria endsWith(String suffix) {
            return addText(Operator.SUFFIX, "suffix", suffix);
        }

        /**
         * @param part the part
         * @return criteria matching a string field containing the part
         */
        public StorhCriteria contains(String part) {
            return addText(Operator.CONTAINS, "part", part);
        }

        /**
         * @param part the part
         * @return criteria matching a field that is missing or not a string containing the part
         */
        public StorhCriteria notContains(String part) {
            return addText(Operator.NOT_CONTAINS, "part", part);
        }

        /**
         * @param pattern the whole string, {@code *} standing for any run of characters
         * @return criteria matching a string field against the pattern
         */
        public StorhCriteria like(String pattern) {
            return addText(Operator.LIKE, "pattern", pattern);
        }

        /**
         * @param pattern as for {@link #like(String)}
         * @return criteria matching a field that is missing or not a string matching the pattern
         */
        public StorhCriteria notLike(String pattern) {
            return addText(Operator.NOT_LIKE, "pattern", pattern);
        }

        /**
         * @param regex a {@link java.util.regex.Pattern}, found anywhere in the string
         * @return criteria matching a string field in which the expression finds a match
         * @throws dev.storh.StorageException naming the field when the expression is invalid
         */
        public StorhCriteria regex(String regex) {
            return addText(Operator.REGEX, "regex", regex);
        }

        /**
         * @param element the element
         * @return criteria matching a list field holding an element equal to the given one
         */
        public StorhCriteria hasElement(Object element) {
            return add(Operator.HAS, element);
        }

        /**
         * @param element the element
         * @return criteria matching a field that is missing or not a list holding the element
         */
        public StorhCriteria lacksElement(Object element) {
            return add(Operator.NOT_HAS, element);
        }

        /** @param value the value @return criteria adding {@code field == value} (core {@code eq}: present and identical) */
        public StorhCriteria is(Object value) {
            return add(Operator.EQ, value);
        }

        /** @param value the value @return criteria adding core {@code neq}: missing, or not identical */
        public StorhCriteria isNot(Object value) {
            return add(Operator.NEQ, value);
        }

        /** @param values the candidates @return criteria adding core {@code in}: present and identical to one */
        public StorhCriteria in(Collection<?> values) {
            Assert.notNull(values, "'values' must not be null");
            return add(Operator.IN, values.toArray());
        }

        /** @param values the excluded values @return criteria adding core {@code not_in}: missing, or identical to none */
        public StorhCriteria notIn(Collection<?> values) {
            Assert.notNull(values, "'values' must not be null");
            return add(Operator.NOT_IN, values.toArray());
        }

        /** @param value exclusive lower bound @return criteria adding core {@code gt} */
        public StorhCriteria greaterThan(Object value) {
            return add(Operator.GT, value);
        }

        /** @param value inclusive lower bound @return criteria adding core {@code gte} */
        public StorhCriteria greaterThanOrEqual(Object value) {
            return add(Operator.GTE, value);
        }

        /** @param value exclusive upper bound @return criteria adding core {@code lt} */
        public StorhCriteria lessThan(Object value) {
            return add(Operator.LT, value);
        }

        /** @param value inclusive upper bound @return criteria adding core {@code lte} */
        public StorhCriteria lessThanOrEqual(Object value) {
            return add(Operator.LTE, value);
        }

        /** @param from inclusive lower bound @param to inclusive upper bound @return criteria adding core {@code between} */
        public StorhCriteria between(Object from, Object to) {
            return add(Operator.BETWEEN, from, to);
        }

        /** @param prefix the prefix @return criteria adding core {@code prefix}: a string starting with it (bytewise) */
        public StorhCriteria startsWith(String prefix) {
            return addText(Operator.PREFIX, "prefix", prefix);
        }

        /** @return criteria adding core {@code exists}: the key is present (a null value counts) */
        public StorhCriteria exists() {
            return add(Operator.EXISTS);
        }

        /** @return criteria adding core {@code missing}: the key is absent */
        public StorhCriteria missing() {
            return add(Operator.MISSING);
        }

        /** @return criteria adding "missing or JSON null" (two OR groups: {@code missing}, {@code eq null}) */
        public StorhCriteria isNull() {
            StorhCriteria alternatives = new StorhCriteria(List.of(
                    List.of(new Condition(this.field, Operator.MISSING, List.of(), false)),
                    List.of(new Condition(this.field, Operator.EQ, Arrays.asList((Object) null), false))));
            return this.base.and(alternatives);
        }

        /** @return criteria adding "present and not JSON null" ({@code exists} and {@code neq null}) */
        public StorhCriteria isNotNull() {
            return this.base.and(new StorhCriteria(List.of(List.of(new Condition(this.field, Operator.EXISTS, List.of(), false),
                    new Condition(this.field, Operator.NEQ, Arrays.asList((Object) null), false)))));
        }

    }

}
