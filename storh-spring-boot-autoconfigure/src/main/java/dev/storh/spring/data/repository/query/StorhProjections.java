package dev.storh.spring.data.repository.query;

import java.util.Collection;
import java.util.function.Function;
import java.util.stream.Stream;

import dev.storh.spring.data.core.StorhEntityConverter;

import tools.jackson.core.JacksonException;

import org.springframework.dao.InvalidDataAccessApiUsageException;
import org.springframework.data.domain.Slice;
import org.springframework.data.domain.Window;
import org.springframework.data.repository.query.ParameterAccessor;
import org.springframework.data.repository.query.QueryMethod;
import org.springframework.data.repository.query.ResultProcessor;
import org.springframework.data.repository.query.ReturnedType;

/**
 * The projections of repository queries, Spring Data's standard ones: a method returning an
 * interface ({@code List<TitleOnly> findByAuthor(...)}) gets proxies backed by the entities (Spring
 * Data's projection factory, with {@code @Value} expressions); one returning a class that is not
 * the entity (a DTO, often a record) gets instances built by the application's Jackson mapper
 * from the entity's JSON form, properties matched by name and the others ignored; a
 * {@code Class<T>} parameter picks either at call time. Works on single results, lists, pages,
 * slices, windows and streams.
 */
final class StorhProjections {

    private StorhProjections() {
    }

    /**
     * @param method the query method
     * @param accessor the call's arguments (for a dynamic projection)
     * @param result what the query returned, as entities
     * @param converter the entity converter, whose mapper builds DTOs
     * @return the result in the method's return type
     */
    static Object process(QueryMethod method, ParameterAccessor accessor, Object result, StorhEntityConverter converter) {
        ResultProcessor processor = method.getResultProcessor().withDynamicProjection(accessor);
        ReturnedType returned = processor.getReturnedType();
        Class<?> target = returned.getReturnedType();
        if (returned.isProjecting() && !target.isInterface() && !target.isAssignableFrom(returned.getDomainType())) {
            result = map(result, (entity) -> toDto(entity, target, converter, method));
        }
        return processor.processResult(result);
    }

    private static Object map(Object result, Function<Object, Object> mapping) {
        if (result == null) {
            return null;
        }
        if (result instanceof Slice<?> slice) {
            return slice.map(mapping);
        }
        if (result instanceof Window<?> window) {
            return window.map(mapping);
        }
        if (result instanceof Stream<?> stream) {
            return stream.map(mapping);
        }
        if (result instanceof Collection<?> collection) {
            return collection.stream().map(mapping).toList();
        }
        return mapping.apply(result);
    }

    private static Object toDto(Object entity, Class<?> target, StorhEntityConverter converter, QueryMethod method) {
        if (entity == null || target.isInstance(entity)) {
            return entity;
        }
        try {
            return converter.getJsonMapper().convertValue(entity, target);
        }
        catch (JacksonException | IllegalArgumentException ex) {
            throw new InvalidDataAccessApiUsageException("Query method " + method.getName() + ": cannot build "
                    + target.getName() + " from " + entity.getClass().getName() + ": " + ex.getMessage(), ex);
        }
    }

}
