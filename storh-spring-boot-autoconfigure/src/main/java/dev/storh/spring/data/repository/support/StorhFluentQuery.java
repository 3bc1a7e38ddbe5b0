package dev.storh.spring.data.repository.support;

import java.util.List;
import java.util.stream.Stream;

import dev.storh.spring.data.core.StorhOperations;
import dev.storh.spring.data.core.query.StorhCriteria;
import dev.storh.spring.data.core.query.StorhQuery;

import org.springframework.dao.IncorrectResultSizeDataAccessException;
import org.springframework.dao.InvalidDataAccessApiUsageException;
import org.springframework.data.domain.Page;
import org.springframework.data.domain.Pageable;
import org.springframework.data.domain.Sort;
import org.springframework.data.repository.query.FluentQuery;
import org.springframework.data.support.PageableExecutionUtils;
import org.springframework.util.Assert;

/**
 * The fluent API of {@code findBy(Example, query -> ...)}: sort, limit and fetch the matches of a
 * Query by Example. Immutable. {@link #as(Class)} accepts the entity type and its super-types (no
 * DTO or interface projections); {@link #project} is accepted and reads whole records.
 *
 * @param <T> the entity type
 */
final class StorhFluentQuery<T> implements FluentQuery.FetchableFluentQuery<T> {

    private final StorhCriteria criteria;

    private final Class<T> domainType;

    private final StorhOperations operations;

    private final Sort sort;

    private final int limit;

    StorhFluentQuery(StorhCriteria criteria, Class<T> domainType, StorhOperations operations, Sort sort, int limit) {
        this.criteria = criteria;
        this.domainType = domainType;
        this.operations = operations;
        this.sort = sort;
        this.limit = limit;
    }

    private StorhQuery query() {
        StorhQuery query = StorhQuery.where(this.criteria).withSort(this.sort);
        return (this.limit > 0) ? query.withLimit(this.limit) : query;
    }

    @Override
    public FetchableFluentQuery<T> sortBy(Sort sort) {
        Assert.notNull(sort, "Sort must not be null");
        return new StorhFluentQuery<>(this.criteria, this.domainType, this.operations, this.sort.and(sort), this.limit);
    }

    @Override
    public FetchableFluentQuery<T> limit(int limit) {
        Assert.isTrue(limit >= 0, "Limit must not be negative");
        return new StorhFluentQuery<>(this.criteria, this.domainType, this.operations, this.sort, limit);
    }

    @Override
    @SuppressWarnings("unchecked")
    public <R> FetchableFluentQuery<R> as(Class<R> resultType) {
        Assert.notNull(resultType, "Result type must not be null");
        if (!resultType.isAssignableFrom(this.domainType)) {
            throw new InvalidDataAccessApiUsageException("Query by Example on " + this.domainType.getName()
                    + " cannot return " + resultType.getName() + ": projections are not supported");
        }
        return (FetchableFluentQuery<R>) this;
    }

    @Override
    public FetchableFluentQuery<T> project(java.util.Collection<String> properties) {
        return this;
    }

    @Override
    public T oneValue() {
        List<T> two = this.operations.find(StorhQuery.where(this.criteria).withSort(this.sort).withLimit(2),
                this.domainType);
        if (two.size() > 1) {
            throw new IncorrectResultSizeDataAccessException(1);
        }
        return two.isEmpty() ? null : two.get(0);
    }

    @Override
    public T firstValue() {
        List<T> one = this.operations.find(StorhQuery.where(this.criteria).withSort(this.sort).withLimit(1),
                this.domainType);
        return one.isEmpty() ? null : one.get(0);
    }

    @Override
    public List<T> all() {
        return this.operations.find(query(), this.domainType);
    }

    @Override
    public Page<T> page(Pageable pageable) {
        Assert.notNull(pageable, "Pageable must not be null");
        List<T> content = this.operations.find(StorhQuery.where(this.criteria).withSort(this.sort).with(pageable),
                this.domainType);
        return PageableExecutionUtils.getPage(content, pageable,
                () -> this.operations.count(StorhQuery.where(this.criteria), this.domainType));
    }

    @Override
    public Stream<T> stream() {
        return this.operations.stream(query(), this.domainType);
    }

    @Override
    public long count() {
        return this.operations.count(query(), this.domainType);
    }

    @Override
    public boolean exists() {
        return this.operations.exists(StorhQuery.where(this.criteria), this.domainType);
    }

}
