package dev.storh.spring.data.core.query;

import java.util.Comparator;
import java.util.Map;

import org.springframework.data.domain.Sort;
import org.springframework.util.Assert;

/**
 * One stored record as queries see it: its id, its JSON object and the name of the entity
 * property that holds the id.
 * <p>
 * {@link #valueAt(String)} resolves a dotted property path: the id property name gives the record
 * id (which is not part of {@code data}), other paths walk nested JSON objects.
 *
 * @param id the record id (a UUIDv7 text), never {@code null}
 * @param data the record's JSON object (spec/docstore.md §3.2 model), never {@code null}
 * @param idProperty the entity property mapped to the id, or {@code null} when none is mapped
 */
public record StorhDocument(String id, Map<String, Object> data, String idProperty) {

	public StorhDocument {
		Assert.notNull(id, "'id' must not be null");
		Assert.notNull(data, "'data' must not be null");
	}

	/**
	 * The value at a dotted property path, such as {@code country} or {@code address.city}.
	 * @param path the path; segments are JSON object keys
	 * @return the value; {@code null} when the value is JSON {@code null}, a key is missing, or an
	 * intermediate value is not a JSON object
	 */
	public Object valueAt(String path) {
		if (path.equals(this.idProperty)) {
			return this.id;
		}
		Object current = this.data;
		int start = 0;
		while (true) {
			int dot = path.indexOf('.', start);
			String segment = (dot < 0) ? path.substring(start) : path.substring(start, dot);
			if (!(current instanceof Map<?, ?> map)) {
				return null;
			}
			current = map.get(segment);
			if (dot < 0) {
				return current;
			}
			start = dot + 1;
		}
	}

	/**
	 * Order documents by a {@link Sort}, then by ascending id so that the order is total.
	 * <p>
	 * Each order compares the values at its property path ({@link #valueAt(String)}); {@code null}
	 * and missing values come last unless the order asks for
	 * {@link Sort.NullHandling#NULLS_FIRST}; {@link Sort.Order#isIgnoreCase()} folds strings to
	 * lower case. Values of different JSON kinds order by kind: booleans, numbers, strings, lists,
	 * objects.
	 * @param sort the sort, may be unsorted (id order only)
	 * @return a comparator, never {@code null}
	 */
	public static Comparator<StorhDocument> comparator(Sort sort) {
		Comparator<StorhDocument> result = null;
		for (Sort.Order order : sort) {
			Comparator<StorhDocument> next = orderComparator(order);
			result = (result == null) ? next : result.thenComparing(next);
		}
		Comparator<StorhDocument> byId = Comparator.comparing(StorhDocument::id);
		return (result == null) ? byId : result.thenComparing(byId);
	}

	private static Comparator<StorhDocument> orderComparator(Sort.Order order) {
		String path = order.getProperty();
		boolean ignoreCase = order.isIgnoreCase();
		boolean descending = order.isDescending();
		boolean nullsFirst = order.getNullHandling() == Sort.NullHandling.NULLS_FIRST;
		return (left, right) -> {
			Object a = left.valueAt(path);
			Object b = right.valueAt(path);
			if (a == null || b == null) {
				if (a == b) {
					return 0;
				}
				return ((a == null) == nullsFirst) ? -1 : 1;
			}
			int c = JsonValues.compareForSort(a, b, ignoreCase);
			return descending ? -c : c;
		};
	}

}
