package dev.storh.spring.data.repository.query;

import java.lang.reflect.Method;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;

import dev.storh.spring.data.core.StorhOperations;
import dev.storh.spring.data.core.query.StorhQuery;

import org.springframework.dao.IncorrectResultSizeDataAccessException;
import org.springframework.data.domain.Limit;
import org.springframework.data.domain.Pageable;
import org.springframework.data.domain.SliceImpl;
import org.springframework.data.repository.query.ParametersParameterAccessor;
import org.springframework.data.repository.query.QueryCreationException;
import org.springframework.data.repository.query.QueryMethod;
import org.springframework.data.repository.query.RepositoryQuery;
import org.springframework.data.repository.query.parser.Part;
import org.springframework.data.repository.query.parser.PartTree;
import org.springframework.data.support.PageableExecutionUtils;
import org.springframework.util.Assert;
import org.springframework.util.ClassUtils;

/**
 * A repository query derived from its method name, such as
 * {@code Page<City> findByCountry(String country, Pageable pageable)}, evaluated by scanning the
 * entity's collection ({@link StorhOperations#find(StorhQuery, Class)}).
 * <p>
 * The method name is parsed and checked in the constructor, so a bad method fails when the
 * repository is created, at application startup, with a {@link QueryCreationException} naming the
 * repository, the method and the reason: an unknown property, a keyword outside
 * {@link StorhQueryCreator#SUPPORTED_TYPES}, {@code IgnoreCase} on a non-string property, an
 * argument count that does not match the name, or an unsupported return type.
 * <p>
 * Results: {@code countBy} → {@code long}; {@code existsBy} → {@code boolean}; {@code deleteBy}
 * / {@code removeBy} → the deleted entities as a {@code List}, their number, or nothing
 * ({@code void}); finders → {@code List}, {@code Page} (with the total), {@code Slice},
 * {@code Stream} (close it), {@code Optional} or the entity ({@code null} when none matches; more
 * than one match gives an {@link IncorrectResultSizeDataAccessException}). {@code Top}/{@code First}
 * and a {@code Limit} argument cap the results before a {@code Pageable} splits them into pages.
 * Thread-safe.
 */
public class StorhPartTreeQuery implements RepositoryQuery {

	private final Method method;

	private final QueryMethod queryMethod;

	private final StorhOperations operations;

	private final PartTree tree;

	private final Class<?> domainType;

	/**
	 * Parse and check the method.
	 * @param method the repository method
	 * @param queryMethod Spring Data's view of the method
	 * @param operations the operations that run the query
	 * @throws QueryCreationException when the method cannot be evaluated by storh
	 */
	public StorhPartTreeQuery(Method method, QueryMethod queryMethod, StorhOperations operations) {
		Assert.notNull(method, "'method' must not be null");
		Assert.notNull(queryMethod, "'queryMethod' must not be null");
		Assert.notNull(operations, "'operations' must not be null");
		this.method = method;
		this.queryMethod = queryMethod;
		this.operations = operations;
		this.domainType = queryMethod.getEntityInformation().getJavaType();
		try {
			this.tree = new PartTree(method.getName(), this.domainType);
		}
		catch (RuntimeException ex) {
			throw QueryCreationException.create(queryMethod, "query method " + describe() + ": " + ex.getMessage(), ex);
		}
		validate();
	}

	@Override
	public QueryMethod getQueryMethod() {
		return this.queryMethod;
	}

	@Override
	public Object execute(Object[] parameters) {
		ParametersParameterAccessor accessor = new ParametersParameterAccessor(this.queryMethod.getParameters(),
				parameters);
		StorhQuery query = new StorhQueryCreator(this.tree, accessor, this.operations.getConverter()).createQuery();
		// getLimit() also reports a Pageable's size; only a Limit argument caps the results
		int maxResults = maxResults(this.queryMethod.getParameters().hasLimitParameter() ? accessor.getLimit()
				: Limit.unlimited());
		if (this.tree.isCountProjection()) {
			return this.operations.count(query, this.domainType);
		}
		if (this.tree.isExistsProjection()) {
			return this.operations.exists(query, this.domainType);
		}
		if (this.tree.isDelete()) {
			return deleteResult(this.operations.delete(window(query, accessor.getPageable(), maxResults),
					this.domainType));
		}
		Object result = find(query, accessor.getPageable(), maxResults);
		return this.queryMethod.getResultProcessor().withDynamicProjection(accessor).processResult(result);
	}

	private Object find(StorhQuery query, Pageable pageable, int maxResults) {
		if (this.queryMethod.isPageQuery()) {
			List<?> content = this.operations.find(window(query, pageable, maxResults), this.domainType);
			return PageableExecutionUtils.getPage(content, pageable, () -> {
				long total = this.operations.count(query, this.domainType);
				return (maxResults >= 0) ? Math.min(total, maxResults) : total;
			});
		}
		if (this.queryMethod.isSliceQuery()) {
			if (pageable.isUnpaged()) {
				return new SliceImpl<>(this.operations.find(window(query, pageable, maxResults), this.domainType),
						pageable, false);
			}
			// read one more than the page to learn whether a next slice exists
			StorhQuery window = window(query, pageable, maxResults);
			if (maxResults < 0 || pageable.getOffset() + pageable.getPageSize() < maxResults) {
				window = window.withLimit(pageable.getPageSize() + 1);
			}
			List<?> content = this.operations.find(window, this.domainType);
			boolean hasNext = content.size() > pageable.getPageSize();
			List<?> page = hasNext ? content.subList(0, pageable.getPageSize()) : content;
			return new SliceImpl<>(page, pageable, hasNext);
		}
		if (this.queryMethod.isStreamQuery()) {
			return this.operations.stream(window(query, pageable, maxResults), this.domainType);
		}
		if (this.queryMethod.isCollectionQuery()) {
			return this.operations.find(window(query, pageable, maxResults), this.domainType);
		}
		int probe = (maxResults >= 0) ? Math.min(maxResults, 2) : 2;
		List<?> results = this.operations.find(window(query, pageable, probe), this.domainType);
		if (results.size() > 1) {
			throw new IncorrectResultSizeDataAccessException("Query method " + describe()
					+ " expects at most one result but more than one record matched", 1, results.size());
		}
		return results.isEmpty() ? null : results.get(0);
	}

	/**
	 * The query restricted to the page and to {@code maxResults}; the pageable's sort is already
	 * part of the query (the creator reads it from the arguments).
	 */
	private static StorhQuery window(StorhQuery query, Pageable pageable, int maxResults) {
		long offset = pageable.isPaged() ? pageable.getOffset() : 0;
		long size = pageable.isPaged() ? pageable.getPageSize() : Long.MAX_VALUE;
		if (maxResults >= 0) {
			size = (offset >= maxResults) ? 0 : Math.min(size, maxResults - offset);
		}
		StorhQuery window = query.withOffset(offset);
		return (size == Long.MAX_VALUE) ? window : window.withLimit((int) Math.min(size, Integer.MAX_VALUE));
	}

	/**
	 * The cap from {@code Top}/{@code First} and a {@code Limit} argument, or {@code -1}.
	 */
	private int maxResults(Limit limit) {
		int max = this.tree.isLimiting() ? this.tree.getMaxResults() : -1;
		if (limit.isLimited()) {
			max = (max < 0) ? limit.max() : Math.min(max, limit.max());
		}
		return max;
	}

	private Object deleteResult(List<?> deleted) {
		if (this.queryMethod.isCollectionQuery()) {
			return deleted;
		}
		Class<?> returnType = ClassUtils.resolvePrimitiveIfNecessary(this.method.getReturnType());
		if (returnType == Void.class) {
			return null;
		}
		if (Number.class.isAssignableFrom(returnType)) {
			return (long) deleted.size();
		}
		if (deleted.size() > 1) {
			throw new IncorrectResultSizeDataAccessException("Query method " + describe()
					+ " returns one entity but deleted " + deleted.size() + " records", 1, deleted.size());
		}
		return deleted.isEmpty() ? null : deleted.get(0);
	}

	private void validate() {
		int required = 0;
		for (Part part : this.tree.getParts()) {
			String property = part.getProperty().toDotPath();
			if (!StorhQueryCreator.SUPPORTED_TYPES.contains(part.getType())) {
				throw fail("keyword " + part.getType() + " on property '"
						+ property + "' is not supported by storh; supported keywords: " + supportedKeywords());
			}
			if (part.shouldIgnoreCase() == Part.IgnoreCaseType.ALWAYS && !StorhQueryCreator.ignoresCase(part)) {
				throw fail("IgnoreCase on property '" + property + "' (" + part.getType()
						+ ") is not supported: storh ignores case only on String properties with "
						+ StorhQueryCreator.IGNORE_CASE_TYPES);
			}
			required += part.getNumberOfArguments();
		}
		int declared = this.queryMethod.getParameters().getBindableParameters().getNumberOfParameters();
		if (declared != required) {
			throw fail("the method name needs " + required + " argument(s) but the method declares " + declared
					+ " (not counting Pageable, Sort and Limit)");
		}
		if (this.queryMethod.isScrollQuery() || this.queryMethod.isSearchQuery()) {
			throw fail("Window and search results are not supported by storh; return a List, Page, Slice, Stream, "
					+ "Optional or the entity");
		}
		if (this.tree.isDelete() && (this.queryMethod.isPageQuery() || this.queryMethod.isSliceQuery()
				|| this.queryMethod.isStreamQuery())) {
			throw fail("a delete query returns void, a number or the deleted entities as a List, not "
					+ this.method.getReturnType().getSimpleName());
		}
	}

	private QueryCreationException fail(String reason) {
		return QueryCreationException.create(this.queryMethod, "query method " + describe() + ": " + reason);
	}

	private String describe() {
		return this.method.getDeclaringClass().getName() + "." + this.method.getName() + "("
				+ Arrays.stream(this.method.getParameterTypes()).map(Class::getSimpleName).collect(Collectors.joining(", "))
				+ ")";
	}

	private static String supportedKeywords() {
		return StorhQueryCreator.SUPPORTED_TYPES.stream()
			.map(Part.Type::toString)
			.collect(Collectors.joining(", "));
	}

}
