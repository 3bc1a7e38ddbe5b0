package dev.storh.spring.data.core.query;

import org.springframework.data.domain.Pageable;
import org.springframework.data.domain.Sort;
import org.springframework.util.Assert;

/**
 * What to read from one collection: optional {@link StorhCriteria}, a {@link Sort}, an offset and
 * a maximum number of results.
 * <p>
 * Without a sort, results come in ascending id order (the order of
 * {@code DocStore.stream()}); with a sort, in sort order and then ascending id
 * ({@link StorhDocument#comparator(Sort)}). The offset and the limit apply after sorting.
 * Instances are immutable; the {@code with…} methods return new instances.
 */
public final class StorhQuery {

	private static final StorhQuery ALL = new StorhQuery(null, Sort.unsorted(), 0, -1);

	private final StorhCriteria criteria;

	private final Sort sort;

	private final long offset;

	private final int limit;

	private StorhQuery(StorhCriteria criteria, Sort sort, long offset, int limit) {
		this.criteria = criteria;
		this.sort = sort;
		this.offset = offset;
		this.limit = limit;
	}

	/**
	 * @return a query matching every record, unsorted, unlimited
	 */
	public static StorhQuery all() {
		return ALL;
	}

	/**
	 * @param criteria the condition records must satisfy
	 * @return a query for the records matching {@code criteria}
	 */
	public static StorhQuery where(StorhCriteria criteria) {
		Assert.notNull(criteria, "'criteria' must not be null");
		return new StorhQuery(criteria, Sort.unsorted(), 0, -1);
	}

	/**
	 * @param sort the order, replacing any earlier one; {@code Sort.unsorted()} for id order
	 * @return a new query
	 */
	public StorhQuery withSort(Sort sort) {
		Assert.notNull(sort, "'sort' must not be null");
		return new StorhQuery(this.criteria, sort, this.offset, this.limit);
	}

	/**
	 * @param offset the number of matching records to skip, {@code >= 0}
	 * @return a new query
	 * @throws IllegalArgumentException when {@code offset} is negative
	 */
	public StorhQuery withOffset(long offset) {
		Assert.isTrue(offset >= 0, () -> "'offset' must not be negative, got " + offset);
		return new StorhQuery(this.criteria, this.sort, offset, this.limit);
	}

	/**
	 * @param limit the maximum number of results, {@code >= 0}
	 * @return a new query
	 * @throws IllegalArgumentException when {@code limit} is negative
	 */
	public StorhQuery withLimit(int limit) {
		Assert.isTrue(limit >= 0, () -> "'limit' must not be negative, got " + limit);
		return new StorhQuery(this.criteria, this.sort, this.offset, limit);
	}

	/**
	 * Apply a page request: its offset and size, and its sort after this query's sort.
	 * @param pageable the page; {@code Pageable.unpaged()} keeps offset and limit and only adds
	 * its sort
	 * @return a new query
	 */
	public StorhQuery with(Pageable pageable) {
		Assert.notNull(pageable, "'pageable' must not be null");
		StorhQuery query = withSort(this.sort.and(pageable.getSort()));
		if (pageable.isPaged()) {
			query = query.withOffset(pageable.getOffset()).withLimit(pageable.getPageSize());
		}
		return query;
	}

	/**
	 * @return the condition, or {@code null} when every record matches
	 */
	public StorhCriteria getCriteria() {
		return this.criteria;
	}

	/**
	 * @return the sort, never {@code null}
	 */
	public Sort getSort() {
		return this.sort;
	}

	/**
	 * @return the number of matching records to skip
	 */
	public long getOffset() {
		return this.offset;
	}

	/**
	 * @return the maximum number of results, or {@code -1} when unlimited
	 */
	public int getLimit() {
		return this.limit;
	}

	/**
	 * @return whether {@link #getLimit()} caps the results
	 */
	public boolean isLimited() {
		return this.limit >= 0;
	}

	/**
	 * @param document a stored record
	 * @return whether the record satisfies the criteria (always {@code true} without criteria)
	 */
	public boolean matches(StorhDocument document) {
		return this.criteria == null || this.criteria.matches(document);
	}

	@Override
	public String toString() {
		return "StorhQuery[criteria=" + ((this.criteria != null) ? this.criteria : "all") + ", sort=" + this.sort
				+ ", offset=" + this.offset + ", limit=" + ((this.limit >= 0) ? this.limit : "none") + "]";
	}

}
