package dev.storh.spring.data.core.query;

import org.springframework.data.domain.Pageable;
import org.springframework.data.domain.Sort;
import org.springframework.util.Assert;

/**
 * What to read from one collection: {@link StorhCriteria}, a {@link Sort}, an id cursor, an
 * offset and a maximum number of results. The template runs it as a core {@code QueryBuilder}, so
 * indexes answer it where the planner can.
 * <p>
 * Without a sort, results come in ascending id order (the order of {@code DocStore.stream()});
 * with a sort, in the order of core's {@code Values.compare} on each sort property (a missing
 * key sorts as JSON null) and then ascending id. A one-property sort is core's
 * {@code orderBy}, read in index order when the planner can; a longer sort is applied in memory
 * to the matches. The cursor keeps only ids strictly after it (keyset scrolling); the offset and
 * the limit apply after sorting. Instances are immutable; the {@code with…} methods return new
 * instances.
 *
 * @param criteria the condition, never {@code null}; {@link StorhCriteria#all()} when every record
 * matches
 * @param sort the sort, never {@code null}
 * @param offset the number of matching records to skip, {@code >= 0}
 * @param limit the maximum number of results, or {@code -1} when unlimited
 * @param cursor the id cursor (UUIDv7 text): only records with greater ids match; or {@code null}
 * @param fields the stored fields read into the entities, {@code null} for all of them
 */
public record StorhQuery(StorhCriteria criteria, Sort sort, long offset, int limit, String cursor,
        FieldProjection fields) {

    private static final StorhQuery ALL = new StorhQuery(StorhCriteria.all(), Sort.unsorted(), 0, -1, null, null);

    /**
     * @throws IllegalArgumentException when {@code criteria} or {@code sort} is {@code null}, the
     * offset is negative or the limit is below {@code -1}
     */
    public StorhQuery {
        Assert.notNull(criteria, "'criteria' must not be null");
        Assert.notNull(sort, "'sort' must not be null");
        Assert.isTrue(offset >= 0, () -> "'offset' must not be negative, got " + offset);
        Assert.isTrue(limit >= -1, () -> "'limit' must not be below -1, got " + limit);
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
        return new StorhQuery(criteria, Sort.unsorted(), 0, -1, null, null);
    }

    /**
     * @param sort the order, replacing any earlier one; {@code Sort.unsorted()} for id order
     * @return a new query
     */
    public StorhQuery withSort(Sort sort) {
        Assert.notNull(sort, "'sort' must not be null");
        return new StorhQuery(this.criteria, sort, this.offset, this.limit, this.cursor, this.fields);
    }

    /**
     * @param offset the number of matching records to skip, {@code >= 0}
     * @return a new query
     * @throws IllegalArgumentException when {@code offset} is negative
     */
    public StorhQuery withOffset(long offset) {
        Assert.isTrue(offset >= 0, () -> "'offset' must not be negative, got " + offset);
        return new StorhQuery(this.criteria, this.sort, offset, this.limit, this.cursor, this.fields);
    }

    /**
     * @param limit the maximum number of results, {@code >= 0}
     * @return a new query
     * @throws IllegalArgumentException when {@code limit} is negative
     */
    public StorhQuery withLimit(int limit) {
        Assert.isTrue(limit >= 0, () -> "'limit' must not be negative, got " + limit);
        return new StorhQuery(this.criteria, this.sort, this.offset, limit, this.cursor, this.fields);
    }

    /**
     * @param afterId a record id (UUIDv7 text); only records with greater ids match;
     * {@code null} removes the cursor
     * @return a new query
     */
    public StorhQuery withCursor(String afterId) {
        return new StorhQuery(this.criteria, this.sort, this.offset, this.limit, afterId, this.fields);
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
     * @param fields the stored fields to read into the entities; {@code null} reads all
     * @return a new query
     */
    public StorhQuery withFields(FieldProjection fields) {
        return new StorhQuery(this.criteria, this.sort, this.offset, this.limit, this.cursor, fields);
    }

    /**
     * @return whether {@link #limit()} caps the results
     */
    public boolean isLimited() {
        return this.limit >= 0;
    }

    @Override
    public String toString() {
        return "StorhQuery[criteria=" + this.criteria + ", cursor=" + this.cursor + ", sort=" + this.sort
                + ", offset=" + this.offset + ", limit=" + ((this.limit >= 0) ? this.limit : "none")
                + ((this.fields != null) ? ", fields=" + this.fields : "") + "]";
    }

}
