package dev.storh.spring.data.core.query;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * Equality and ordering of values of the JSON model (spec/docstore.md §3.2): {@code null},
 * {@code Boolean}, any {@code Number}, {@code String}, {@code List}, {@code Map}.
 * <p>
 * Numbers compare by numeric value whatever their Java type ({@code 1}, {@code 1L}, {@code 1.0}
 * and {@code BigDecimal("1.00")} are equal). Values of different kinds (a number and a string)
 * are never equal and have no order for range conditions; for sorting they order by kind:
 * booleans, numbers, strings, lists, maps, anything else.
 */
final class JsonValues {

	private JsonValues() {
	}

	static boolean equal(Object left, Object right, boolean ignoreCase) {
		if (left == null || right == null) {
			return left == right;
		}
		if (left instanceof Number l && right instanceof Number r) {
			return compareNumbers(l, r) == 0;
		}
		if (left instanceof String l && right instanceof String r) {
			return ignoreCase ? fold(l).equals(fold(r)) : l.equals(r);
		}
		if (left instanceof List<?> l && right instanceof List<?> r) {
			if (l.size() != r.size()) {
				return false;
			}
			Iterator<?> li = l.iterator();
			Iterator<?> ri = r.iterator();
			while (li.hasNext()) {
				if (!equal(li.next(), ri.next(), ignoreCase)) {
					return false;
				}
			}
			return true;
		}
		if (left instanceof Map<?, ?> l && right instanceof Map<?, ?> r) {
			if (l.size() != r.size()) {
				return false;
			}
			for (Map.Entry<?, ?> entry : l.entrySet()) {
				if (!r.containsKey(entry.getKey()) || !equal(entry.getValue(), r.get(entry.getKey()), ignoreCase)) {
					return false;
				}
			}
			return true;
		}
		return Objects.equals(left, right);
	}

	/**
	 * Order of two values of the same kind, for range conditions.
	 * @return negative, zero or positive; {@code null} when either is {@code null} or the kinds
	 * differ (the condition is then false)
	 */
	static Integer compareForRange(Object left, Object right, boolean ignoreCase) {
		if (left instanceof Number l && right instanceof Number r) {
			return compareNumbers(l, r);
		}
		if (left instanceof String l && right instanceof String r) {
			return ignoreCase ? fold(l).compareTo(fold(r)) : l.compareTo(r);
		}
		if (left instanceof Boolean l && right instanceof Boolean r) {
			return Boolean.compare(l, r);
		}
		return null;
	}

	/**
	 * Total order of two non-null values, for sorting.
	 */
	static int compareForSort(Object left, Object right, boolean ignoreCase) {
		int kinds = Integer.compare(kind(left), kind(right));
		if (kinds != 0) {
			return kinds;
		}
		Integer order = compareForRange(left, right, ignoreCase);
		if (order != null) {
			return order;
		}
		if (left instanceof List<?> l && right instanceof List<?> r) {
			Iterator<?> li = l.iterator();
			Iterator<?> ri = r.iterator();
			while (li.hasNext() && ri.hasNext()) {
				Object a = li.next();
				Object b = ri.next();
				int c = (a == null || b == null) ? Boolean.compare(a == null, b == null)
						: compareForSort(a, b, ignoreCase);
				if (c != 0) {
					return c;
				}
			}
			return Integer.compare(l.size(), r.size());
		}
		return String.valueOf(left).compareTo(String.valueOf(right));
	}

	static String fold(String value) {
		return value.toLowerCase(Locale.ROOT);
	}

	private static int kind(Object value) {
		if (value instanceof Boolean) {
			return 0;
		}
		if (value instanceof Number) {
			return 1;
		}
		if (value instanceof String) {
			return 2;
		}
		if (value instanceof List) {
			return 3;
		}
		if (value instanceof Map) {
			return 4;
		}
		return 5;
	}

	private static int compareNumbers(Number left, Number right) {
		BigDecimal l = toBigDecimal(left);
		BigDecimal r = toBigDecimal(right);
		if (l == null || r == null) {
			return Double.compare(left.doubleValue(), right.doubleValue());
		}
		return l.compareTo(r);
	}

	/** Decimal value, or {@code null} for NaN and infinities. */
	private static BigDecimal toBigDecimal(Number number) {
		if (number instanceof BigDecimal decimal) {
			return decimal;
		}
		if (number instanceof BigInteger integer) {
			return new BigDecimal(integer);
		}
		if (number instanceof Double || number instanceof Float) {
			// the shortest decimal text that reads back as the same value: 0.1 equals BigDecimal("0.1")
			return Double.isFinite(number.doubleValue()) ? new BigDecimal(number.toString()) : null;
		}
		if (number instanceof Long || number instanceof Integer || number instanceof Short
				|| number instanceof Byte) {
			return BigDecimal.valueOf(number.longValue());
		}
		try {
			return new BigDecimal(number.toString());
		}
		catch (NumberFormatException ex) {
			double value = number.doubleValue();
			return Double.isFinite(value) ? new BigDecimal(value) : null;
		}
	}

}
