package dev.storh.spring.data.repository.query;

import java.lang.reflect.Method;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

import dev.storh.query.QueryPlan;
import dev.storh.spring.data.core.StorhOperations;
import dev.storh.spring.data.core.query.StorhQuery;
import dev.storh.spring.data.mapping.IndexableTypes;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.dao.IncorrectResultSizeDataAccessException;
import org.springframework.data.domain.Limit;
import org.springframework.data.domain.Pageable;
import org.springframework.data.domain.ScrollPosition;
import org.springframework.data.domain.SliceImpl;
import org.springframework.data.domain.Sort;
import org.springframework.data.domain.Window;
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
 * {@code Page<City> findByCountry(String country, Pageable pageable)}, run as a core
 * {@code QueryBuilder} so indexes answer it where the planner can
 * ({@link StorhOperations#find(StorhQuery, Class)}, {@link #explain(Object[])}).
 * <p>
 * The method name is parsed and checked in the constructor, so a bad method fails when the
 * repository is created, at application startup, with a {@link QueryCreationException} naming the
 * repository, the method and the reason: an unknown property, a keyword outside
 * {@link StorhQueryCreator#SUPPORTED_TYPES}, {@code IgnoreCase} on a value-order keyword such as
 * {@code GreaterThan}, an {@code OrderBy} with {@code IgnoreCase}, a range keyword on a type whose
 * JSON form does not sort like its values, a non-id property named {@code id}
 * (core's {@code id} is the record id), an argument count that does not match the name, or an
 * unsupported return type.
 * <p>
 * Results: {@code countBy} → {@code long}; {@code existsBy} → {@code boolean}; {@code deleteBy}
 * / {@code removeBy} → the deleted entities as a {@code List}, their number, or nothing
 * ({@code void}); finders → {@code List}, {@code Page} (with the total), {@code Slice},
 * {@code Stream} (close it), {@code Window} (a {@code ScrollPosition} argument: keyset scrolling on
 * the method's sort with ties broken by id, forwards and backwards, keys the sort properties and
 * {@code <id property>}; or offset scrolling), {@code Optional}
 * or the entity ({@code null} when none matches; more than one match gives an
 * {@link IncorrectResultSizeDataAccessException}). {@code Top}/{@code First} and a {@code Limit}
 * argument cap the results before a {@code Pageable} splits them into pages, and size a window.
 * With the logger {@value #PLAN_LOGGER} at debug level, each call logs its conditions and plan
 * (computing the plan reads index metadata, so leave it off in production). Thread-safe.
 */
public class StorhPartTreeQuery implements RepositoryQuery {

    /**
     * The logger of query plans: at debug level, every call logs one line with the method, the
     * conditions and core's plan ({@code logging.level.dev.storh.query=debug}).
     */
    public static final String PLAN_LOGGER = "dev.storh.query";

    private static final Log planLogger = LogFactory.getLog(PLAN_LOGGER);

    private final Method method;

    private final QueryMethod queryMethod;

    private final StorhOperations operations;

    private static final Set<Part.Type> ORDERED = EnumSet.of(Part.Type.GREATER_THAN, Part.Type.GREATER_THAN_EQUAL,
            Part.Type.LESS_THAN, Part.Type.LESS_THAN_EQUAL, Part.Type.AFTER, Part.Type.BEFORE, Part.Type.BETWEEN);

    private final PartTree tree;

    private final Class<?> domainType;

    private final String idProperty;

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
        this.idProperty = operations.getConverter()
            .getRequiredEntity(this.domainType)
            .getRequiredDocumentIdProperty()
            .getName();
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

    /**
     * The query a call with these arguments runs, before paging and limits.
     * @param parameters the call's arguments, as the method declares them
     * @return the query
     */
    public StorhQuery createQuery(Object[] parameters) {
        ParametersParameterAccessor accessor = new ParametersParameterAccessor(this.queryMethod.getParameters(),
                parameters);
        return new StorhQueryCreator(this.tree, accessor, this.operations.getConverter(), this.idProperty)
            .createQuery();
    }

    /**
     * How core would run a call with these arguments (proof that a derived query is
     * served from indexes): {@code index_scan} when indexes answer every OR group. The plan
     * includes the method's {@code Top}/{@code First} limit and a one-property sort.
     * @param parameters the call's arguments, as the method declares them
     * @return the plan
     */
    public QueryPlan explain(Object[] parameters) {
        StorhQuery query = createQuery(parameters);
        if (this.tree.isLimiting()) {
            query = query.withLimit(this.tree.getMaxResults());
        }
        return this.operations.explain(query, this.domainType);
    }

    @Override
    public Object execute(Object[] parameters) {
        ParametersParameterAccessor accessor = new ParametersParameterAccessor(this.queryMethod.getParameters(),
                parameters);
        StorhQuery query = new StorhQueryCreator(this.tree, accessor, this.operations.getConverter(), this.idProperty)
            .createQuery();
        // getLimit() also reports a Pageable's size; only a Limit argument caps the results
        int maxResults = maxResults(this.queryMethod.getParameters().hasLimitParameter() ? accessor.getLimit()
                : Limit.unlimited());
        if (planLogger.isDebugEnabled()) {
            logPlan(query, accessor.getPageable(), maxResults);
        }
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
        Object result = find(query, accessor.getPageable(), maxResults, accessor.getScrollPosition());
        return StorhProjections.process(this.queryMethod, accessor, result, this.operations.getConverter());
    }

    private void logPlan(StorhQuery query, Pageable pageable, int maxResults) {
        StorhQuery planned = window(query, pageable, maxResults);
        QueryPlan plan = this.operations.explain(planned, this.domainType);
        planLogger.debug("Query method " + describe() + ": " + planned.criteria() + ", sort " + planned.sort()
                + " -> " + plan.toMap());
    }

    private Object find(StorhQuery query, Pageable pageable, int maxResults, ScrollPosition position) {
        if (this.queryMethod.isScrollQuery()) {
            return scroll(query, position, maxResults);
        }
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
     * One window ({@link StorhOperations#scroll}): keyset positions on the method's sort, ties
     * broken by id, forwards or backwards; offset positions skip.
     */
    private Window<?> scroll(StorhQuery query, ScrollPosition position, int maxResults) {
        StorhQuery window = (maxResults >= 0) ? query.withLimit(maxResults) : query;
        return this.operations.scroll(window, (position != null) ? position : ScrollPosition.keyset(),
                this.domainType);
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
            if (part.shouldIgnoreCase() == Part.IgnoreCaseType.ALWAYS && (!StorhQueryCreator.isText(part)
                    || StorhQueryCreator.operator(part) == null || !StorhQueryCreator.operator(part).foldsCase())) {
                throw fail("IgnoreCase on property '" + property + "' with keyword " + part.getType().name()
                        + " is not supported by storh: case folding applies to text properties with equality, In, "
                        + "string and element keywords, not to value-order comparisons");
            }
            Class<?> leafType = part.getProperty().getLeafProperty().getType();
            if (ORDERED.contains(part.getType()) && !IndexableTypes.sortsLikeValues(leafType)) {
                throw fail("keyword " + part.getType() + " on property '" + property + "' ("
                        + leafType.getName() + ") is refused: " + IndexableTypes.whyUnordered(leafType)
                        + "; query it by equality or In, or store a type whose JSON form sorts like its values");
            }
            if (!part.getProperty().hasNext() && part.getProperty().getSegment().equals("id")
                    && !this.idProperty.equals("id")) {
                throw fail("property 'id' is not the id property ('" + this.idProperty + "'); core's 'id' is the "
                        + "record id, so this property cannot be queried");
            }
            required += part.getNumberOfArguments();
        }
        int declared = this.queryMethod.getParameters().getBindableParameters().getNumberOfParameters();
        if (declared != required) {
            throw fail("the method name needs " + required + " argument(s) but the method declares " + declared
                    + " (not counting Pageable, Sort and Limit)");
        }
        for (Sort.Order order : this.tree.getSort()) {
            if (order.isIgnoreCase()) {
                throw fail("OrderBy " + order + " is not supported by storh: core sorts by value order, without "
                        + "IgnoreCase");
            }
        }
        if (this.queryMethod.isSearchQuery()) {
            throw fail("search results are not supported by storh; return a List, Page, Slice, Stream, Window, "
                    + "Optional or the entity");
        }
        if (this.tree.isDelete() && (this.queryMethod.isPageQuery() || this.queryMethod.isSliceQuery()
                || this.queryMethod.isStreamQuery() || this.queryMethod.isScrollQuery())) {
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
