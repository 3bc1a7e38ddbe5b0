package dev.storh.spring.data.repository.query;

import java.lang.reflect.Method;
import java.util.List;

import dev.storh.query.QueryPlan;
import dev.storh.spring.data.core.StorhOperations;
import dev.storh.spring.data.core.query.FieldProjection;
import dev.storh.spring.data.core.query.StorhQuery;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.dao.IncorrectResultSizeDataAccessException;
import org.springframework.dao.InvalidDataAccessApiUsageException;
import org.springframework.data.core.PropertyPath;
import org.springframework.data.domain.Pageable;
import org.springframework.data.domain.Sort;
import org.springframework.data.repository.query.Parameter;
import org.springframework.data.repository.query.Parameters;
import org.springframework.data.repository.query.ParametersParameterAccessor;
import org.springframework.data.repository.query.QueryCreationException;
import org.springframework.data.repository.query.QueryMethod;
import org.springframework.data.repository.query.RepositoryQuery;
import org.springframework.data.support.PageableExecutionUtils;
import org.springframework.util.Assert;

/**
 * A repository query declared with {@link Query}: a MongoDB-style JSON filter checked when the
 * repository is created and run as a core query, planned on indexes like a derived query.
 * Results: {@code count = true} → {@code long}; {@code exists = true} → {@code boolean};
 * otherwise a {@code List}, {@code Page} (with a {@code Pageable} argument), {@code Stream}
 * (close it), {@code Optional} or the entity ({@code null} when none matches, more than one
 * match gives an {@link IncorrectResultSizeDataAccessException}). A {@code Sort} or
 * {@code Pageable} argument sorts after the annotation's {@code sort}; {@code fields} limits the
 * stored fields read. Interface and DTO projections as for derived queries ({@link StorhProjections}). Debug logging of
 * {@value StorhPartTreeQuery#PLAN_LOGGER} logs each call's plan. Thread-safe.
 */
public class StorhJsonQuery implements RepositoryQuery {

    private static final Log planLogger = LogFactory.getLog(StorhPartTreeQuery.PLAN_LOGGER);

    private final Method method;

    private final QueryMethod queryMethod;

    private final StorhOperations operations;

    private final Class<?> domainType;

    private final JsonFilter filter;

    private final Sort sort;

    private final FieldProjection fields;

    private final Query annotation;

    /**
     * Parse and check the declared query.
     * @param method the repository method, annotated with {@link Query}
     * @param queryMethod Spring Data's view of the method
     * @param operations the operations that run the query
     * @throws QueryCreationException naming the method when the filter or sort is invalid
     */
    public StorhJsonQuery(Method method, QueryMethod queryMethod, StorhOperations operations) {
        Assert.notNull(method, "'method' must not be null");
        this.method = method;
        this.queryMethod = queryMethod;
        this.operations = operations;
        this.domainType = queryMethod.getEntityInformation().getJavaType();
        this.annotation = method.getAnnotation(Query.class);
        Assert.notNull(this.annotation, "'method' must be annotated with @Query");
        String idProperty = operations.getConverter()
            .getRequiredEntity(this.domainType)
            .getRequiredDocumentIdProperty()
            .getName();
        try {
            this.filter = JsonFilter.parse(this.annotation.value(), idProperty, this::isListField, this::position);
            this.sort = JsonFilter.parseSort(this.annotation.sort());
            for (Sort.Order order : this.sort) {
                PropertyPath.from(order.getProperty(), this.domainType);
            }
            this.fields = JsonFilter.parseFields(this.annotation.fields(), idProperty);
            if (this.fields != null) {
                for (String field : this.fields.getFields()) {
                    PropertyPath.from(field, this.domainType);
                }
            }
        }
        catch (RuntimeException ex) {
            throw QueryCreationException.create(queryMethod, "query method " + this.method.getDeclaringClass().getName()
                    + "." + this.method.getName() + ": @Query " + this.annotation.value() + ": " + ex.getMessage(), ex);
        }
    }

    @Override
    public QueryMethod getQueryMethod() {
        return this.queryMethod;
    }

    private boolean isListField(String key) {
        try {
            return PropertyPath.from(key, this.domainType).getLeafProperty().isCollection();
        }
        catch (RuntimeException notAProperty) {
            return false;
        }
    }

    private int position(Object marker) {
        Parameters<?, ?> parameters = this.queryMethod.getParameters().getBindableParameters();
        if (marker instanceof Number index) {
            if (index.intValue() < 0 || index.intValue() >= parameters.getNumberOfParameters()) {
                throw new IllegalArgumentException("parameter ?" + index + " but the method declares "
                        + parameters.getNumberOfParameters() + " bindable parameter(s)");
            }
            return index.intValue();
        }
        for (int i = 0; i < parameters.getNumberOfParameters(); i++) {
            Parameter parameter = parameters.getParameter(i);
            if (parameter.getName().filter(marker::equals).isPresent()) {
                return i;
            }
        }
        throw new IllegalArgumentException("parameter :" + marker + " is not a parameter name of the method "
                + "(use @Param or compile with -parameters)");
    }

    /**
     * @param parameters the call's arguments, as the method declares them
     * @return the query a call with these arguments runs, before paging
     */
    public StorhQuery createQuery(Object[] parameters) {
        ParametersParameterAccessor accessor = new ParametersParameterAccessor(this.queryMethod.getParameters(),
                parameters);
        try {
            StorhQuery query = StorhQuery.where(this.filter.criteria((marker) -> this.operations.getConverter()
                .toJsonValue(accessor.getBindableValue(position(marker)))));
            return query.withSort(this.sort.and(accessor.getSort())).withFields(this.fields);
        }
        catch (IllegalArgumentException | dev.storh.StorageException ex) {
            throw new InvalidDataAccessApiUsageException("Query method " + this.method.getDeclaringClass().getName()
                    + "." + this.method.getName() + ": " + ex.getMessage(), ex);
        }
    }

    /**
     * @param parameters the call's arguments
     * @return how core would run the call
     */
    public QueryPlan explain(Object[] parameters) {
        return this.operations.explain(createQuery(parameters), this.domainType);
    }

    @Override
    public Object execute(Object[] parameters) {
        ParametersParameterAccessor accessor = new ParametersParameterAccessor(this.queryMethod.getParameters(),
                parameters);
        StorhQuery query = createQuery(parameters);
        Pageable pageable = accessor.getPageable();
        StorhQuery window = pageable.isPaged()
                ? query.withOffset(pageable.getOffset()).withLimit(pageable.getPageSize()) : query;
        if (planLogger.isDebugEnabled()) {
            planLogger.debug("Query method " + this.method.getDeclaringClass().getName() + "." + this.method.getName()
                    + ": " + window.criteria() + ", sort " + window.sort() + " -> "
                    + this.operations.explain(window, this.domainType).toMap());
        }
        if (this.annotation.count()) {
            return this.operations.count(query, this.domainType);
        }
        if (this.annotation.exists()) {
            return this.operations.exists(query, this.domainType);
        }
        Object result;
        if (this.queryMethod.isPageQuery()) {
            List<?> content = this.operations.find(window, this.domainType);
            result = PageableExecutionUtils.getPage(content, pageable,
                    () -> this.operations.count(query, this.domainType));
        }
        else if (this.queryMethod.isStreamQuery()) {
            result = this.operations.stream(window, this.domainType);
        }
        else if (this.queryMethod.isCollectionQuery()) {
            result = this.operations.find(window, this.domainType);
        }
        else {
            List<?> results = this.operations.find(window.withLimit(2), this.domainType);
            if (results.size() > 1) {
                throw new IncorrectResultSizeDataAccessException("Query method " + this.method.getName()
                        + " expects at most one result but more than one record matched", 1, results.size());
            }
            result = results.isEmpty() ? null : results.get(0);
        }
        return StorhProjections.process(this.queryMethod, accessor, result, this.operations.getConverter());
    }

}
