package dev.storh.spring.data.core.query;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Collections;
import java.util.List;

import org.springframework.util.Assert;

/**
 * One condition on the value at a property path of a stored record.
 * <p>
 * Values are in the JSON model (spec/docstore.md §3.2): {@code String}, any {@code Number},
 * {@code Boolean}, {@code null}, {@code List}, {@code Map}; numbers compare by numeric value. A
 * missing key reads as {@code null}. Semantics per operator:
 * <ul>
 * <li>{@code EQUALS}: equal values; {@code null} matches null or missing.</li>
 * <li>{@code NOT_EQUALS}: the negation of {@code EQUALS} (a missing value is "not equal" to a
 * non-null one).</li>
 * <li>{@code IN} / {@code NOT_IN}: equal to any / none of the listed values.</li>
 * <li>{@code GREATER_THAN}, {@code GREATER_THAN_OR_EQUAL}, {@code LESS_THAN},
 * {@code LESS_THAN_OR_EQUAL}, {@code BETWEEN} (both bounds inclusive): only between values of
 * the same kind (number with number, string with string, boolean with boolean); otherwise false.</li>
 * <li>{@code STARTS_WITH}: a string value starting with the given prefix.</li>
 * <li>{@code IS_NULL} / {@code IS_NOT_NULL}: null or missing / present and not null.</li>
 * </ul>
 * {@link #ignoreCase()} makes string comparisons case-insensitive (lower case, root locale).
 * Instances are immutable.
 *
 * @param path the dotted property path (entity property names), never empty
 * @param operator the operator
 * @param values the operands: as many as {@link Operator#arity()}; for {@code IN}/{@code NOT_IN}
 * one {@code List} of candidates
 * @param ignoreCase whether string comparisons ignore case
 */
public record Criterion(String path, Operator operator, List<Object> values, boolean ignoreCase) {

	/**
	 * Check and freeze the operands.
	 * @throws IllegalArgumentException when the path is empty, the operand count does not match
	 * the operator, an {@code IN}/{@code NOT_IN} operand is not a collection, or a
	 * {@code STARTS_WITH} operand is not a string
	 */
	public Criterion {
		Assert.hasText(path, "'path' must not be empty");
		Assert.notNull(operator, "'operator' must not be null");
		Assert.notNull(values, "'values' must not be null");
		if (values.size() != operator.arity()) {
			throw new IllegalArgumentException("Operator " + operator + " on '" + path + "' takes "
					+ operator.arity() + " value(s), got " + values.size());
		}
		if (operator == Operator.IN || operator == Operator.NOT_IN) {
			Object candidates = values.get(0);
			if (!(candidates instanceof Collection<?> collection)) {
				throw new IllegalArgumentException("Operator " + operator + " on '" + path
						+ "' needs a collection of values, got " + describe(candidates));
			}
			values = List.of(Collections.unmodifiableList(new ArrayList<>(collection)));
		}
		else {
			values = Collections.unmodifiableList(new ArrayList<>(values));
		}
		if (operator == Operator.STARTS_WITH && !(values.get(0) instanceof String)) {
			throw new IllegalArgumentException(
					"Operator STARTS_WITH on '" + path + "' needs a string prefix, got " + describe(values.get(0)));
		}
	}

	/**
	 * @param path the property path
	 * @param value the value; {@code null} matches null or missing values
	 * @return a condition {@code path == value}
	 */
	public static Criterion is(String path, Object value) {
		return of(path, Operator.EQUALS, value);
	}

	/**
	 * @param path the property path
	 * @param value the value
	 * @return a condition {@code path != value}
	 */
	public static Criterion isNot(String path, Object value) {
		return of(path, Operator.NOT_EQUALS, value);
	}

	/**
	 * @param path the property path
	 * @param values the candidates
	 * @return a condition "equal to one of the candidates"
	 */
	public static Criterion in(String path, Collection<?> values) {
		return of(path, Operator.IN, values);
	}

	/**
	 * @param path the property path
	 * @param values the excluded values
	 * @return a condition "equal to none of the values"
	 */
	public static Criterion notIn(String path, Collection<?> values) {
		return of(path, Operator.NOT_IN, values);
	}

	/**
	 * @param path the property path
	 * @param value the exclusive lower bound
	 * @return a condition {@code path > value}
	 */
	public static Criterion greaterThan(String path, Object value) {
		return of(path, Operator.GREATER_THAN, value);
	}

	/**
	 * @param path the property path
	 * @param value the inclusive lower bound
	 * @return a condition {@code path >= value}
	 */
	public static Criterion greaterThanOrEqual(String path, Object value) {
		return of(path, Operator.GREATER_THAN_OR_EQUAL, value);
	}

	/**
	 * @param path the property path
	 * @param value the exclusive upper bound
	 * @return a condition {@code path < value}
	 */
	public static Criterion lessThan(String path, Object value) {
		return of(path, Operator.LESS_THAN, value);
	}

	/**
	 * @param path the property path
	 * @param value the inclusive upper bound
	 * @return a condition {@code path <= value}
	 */
	public static Criterion lessThanOrEqual(String path, Object value) {
		return of(path, Operator.LESS_THAN_OR_EQUAL, value);
	}

	/**
	 * @param path the property path
	 * @param from the inclusive lower bound
	 * @param to the inclusive upper bound
	 * @return a condition {@code from <= path <= to}
	 */
	public static Criterion between(String path, Object from, Object to) {
		return of(path, Operator.BETWEEN, from, to);
	}

	/**
	 * @param path the property path
	 * @param prefix the prefix
	 * @return a condition "a string starting with {@code prefix}"
	 */
	public static Criterion startsWith(String path, String prefix) {
		return of(path, Operator.STARTS_WITH, prefix);
	}

	/**
	 * @param path the property path
	 * @return a condition "null or missing"
	 */
	public static Criterion isNull(String path) {
		return of(path, Operator.IS_NULL);
	}

	/**
	 * @param path the property path
	 * @return a condition "present and not null"
	 */
	public static Criterion isNotNull(String path) {
		return of(path, Operator.IS_NOT_NULL);
	}

	/**
	 * Create a condition from its parts.
	 * @param path the property path
	 * @param operator the operator
	 * @param values the operands, as many as {@link Operator#arity()}
	 * @return the condition
	 * @throws IllegalArgumentException as the canonical constructor
	 */
	public static Criterion of(String path, Operator operator, Object... values) {
		return new Criterion(path, operator, Arrays.asList(values), false);
	}

	/**
	 * @return a copy of this condition comparing strings case-insensitively
	 */
	public Criterion ignoringCase() {
		return new Criterion(this.path, this.operator, this.values, true);
	}

	/**
	 * Evaluate the condition on one document.
	 * @param document the document
	 * @return whether the value at {@link #path()} satisfies the condition
	 */
	public boolean matches(StorhDocument document) {
		Object actual = document.valueAt(this.path);
		return switch (this.operator) {
			case EQUALS -> JsonValues.equal(actual, this.values.get(0), this.ignoreCase);
			case NOT_EQUALS -> !JsonValues.equal(actual, this.values.get(0), this.ignoreCase);
			case IN -> containsEqual((Collection<?>) this.values.get(0), actual);
			case NOT_IN -> !containsEqual((Collection<?>) this.values.get(0), actual);
			case GREATER_THAN -> compare(actual, this.values.get(0), (c) -> c > 0);
			case GREATER_THAN_OR_EQUAL -> compare(actual, this.values.get(0), (c) -> c >= 0);
			case LESS_THAN -> compare(actual, this.values.get(0), (c) -> c < 0);
			case LESS_THAN_OR_EQUAL -> compare(actual, this.values.get(0), (c) -> c <= 0);
			case BETWEEN -> compare(actual, this.values.get(0), (c) -> c >= 0)
					&& compare(actual, this.values.get(1), (c) -> c <= 0);
			case STARTS_WITH -> actual instanceof String text && (this.ignoreCase
					? JsonValues.fold(text).startsWith(JsonValues.fold((String) this.values.get(0)))
					: text.startsWith((String) this.values.get(0)));
			case IS_NULL -> actual == null;
			case IS_NOT_NULL -> actual != null;
		};
	}

	@Override
	public String toString() {
		String operands = (this.operator.arity() == 0) ? "" : " " + this.values;
		return this.path + " " + this.operator + operands + (this.ignoreCase ? " (ignore case)" : "");
	}

	private boolean containsEqual(Collection<?> candidates, Object actual) {
		for (Object candidate : candidates) {
			if (JsonValues.equal(actual, candidate, this.ignoreCase)) {
				return true;
			}
		}
		return false;
	}

	private boolean compare(Object actual, Object bound, java.util.function.IntPredicate test) {
		if (actual == null || bound == null) {
			return false;
		}
		Integer order = JsonValues.compareForRange(actual, bound, this.ignoreCase);
		return order != null && test.test(order);
	}

	private static String describe(Object value) {
		return (value != null) ? value.getClass().getName() : "null";
	}

	/**
	 * The comparison a {@link Criterion} applies.
	 */
	public enum Operator {

		/** Equal value. */
		EQUALS(1),
		/** Not an equal value. */
		NOT_EQUALS(1),
		/** Equal to one of a collection of values. */
		IN(1),
		/** Equal to none of a collection of values. */
		NOT_IN(1),
		/** Strictly greater. */
		GREATER_THAN(1),
		/** Greater or equal. */
		GREATER_THAN_OR_EQUAL(1),
		/** Strictly less. */
		LESS_THAN(1),
		/** Less or equal. */
		LESS_THAN_OR_EQUAL(1),
		/** Between two inclusive bounds. */
		BETWEEN(2),
		/** A string with a prefix. */
		STARTS_WITH(1),
		/** Null or missing. */
		IS_NULL(0),
		/** Present and not null. */
		IS_NOT_NULL(0);

		private final int arity;

		Operator(int arity) {
			this.arity = arity;
		}

		/**
		 * @return the number of operands the operator takes
		 */
		public int arity() {
			return this.arity;
		}

	}

}
