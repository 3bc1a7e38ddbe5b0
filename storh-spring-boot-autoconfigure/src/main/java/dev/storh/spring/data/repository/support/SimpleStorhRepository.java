package dev.storh.spring.data.repository.support;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Stream;

import dev.storh.spring.data.core.StorhOperations;
import dev.storh.spring.data.core.query.StorhCriteria;
import dev.storh.spring.data.repository.StorhRepository;

import org.springframework.data.domain.Example;
import org.springframework.data.domain.Page;
import org.springframework.data.domain.Pageable;
import org.springframework.data.domain.Sort;
import org.springframework.data.repository.core.EntityInformation;
import org.springframework.data.repository.query.FluentQuery;
import org.springframework.util.Assert;

/**
 * The base implementation of every {@link StorhRepository}, delegating to
 * {@link StorhOperations}. Thread-safe.
 *
 * @param <T> the entity type
 * @param <ID> the id type, {@code String} or {@code java.util.UUID}
 */
public class SimpleStorhRepository<T, ID> implements StorhRepository<T, ID> {

    private final EntityInformation<T, ID> entityInformation;

    private final StorhOperations operations;

    /**
     * Create the repository; called by {@link StorhRepositoryFactory}.
     * @param entityInformation the entity's metadata
     * @param operations the operations to delegate to
     */
    public SimpleStorhRepository(EntityInformation<T, ID> entityInformation, StorhOperations operations) {
        Assert.notNull(entityInformation, "'entityInformation' must not be null");
        Assert.notNull(operations, "'operations' must not be null");
        this.entityInformation = entityInformation;
        this.operations = operations;
    }

    @Override
    public <S extends T> S save(S entity) {
        Assert.notNull(entity, "Entity must not be null");
        return this.operations.save(entity);
    }

    /**
     * Saves the entities all or nothing ({@link StorhOperations#saveAll}): every one is checked
     * (version, unique values within the batch and against the store, schema) before the first is
     * written, and a batch that fails a check writes nothing.
     */
    @Override
    public <S extends T> List<S> saveAll(Iterable<S> entities) {
        Assert.notNull(entities, "Entities must not be null");
        return this.operations.saveAll(entities);
    }

    @Override
    public Optional<T> findById(ID id) {
        return this.operations.findById(id(id), type());
    }

    @Override
    public boolean existsById(ID id) {
        return this.operations.exists(id(id), type());
    }

    /**
     * @return every entity in ascending id order
     */
    @Override
    public List<T> findAll() {
        try (Stream<T> all = this.operations.findAll(type())) {
            return all.toList();
        }
    }

    /**
     * @return the entities with the given ids that exist, in the order of {@code ids}
     */
    @Override
    public List<T> findAllById(Iterable<ID> ids) {
        Assert.notNull(ids, "The given Iterable of Id's must not be null");
        List<T> found = new ArrayList<>();
        for (ID id : ids) {
            findById(id).ifPresent(found::add);
        }
        return found;
    }

    @Override
    public long count() {
        return this.operations.count(type());
    }

    @Override
    public void deleteById(ID id) {
        this.operations.deleteById(id(id), type());
    }

    @Override
    public void delete(T entity) {
        Assert.notNull(entity, "Entity must not be null");
        this.operations.delete(entity);
    }

    @Override
    public void deleteAllById(Iterable<? extends ID> ids) {
        Assert.notNull(ids, "Ids must not be null");
        for (ID id : ids) {
            deleteById(id);
        }
    }

    @Override
    public void deleteAll(Iterable<? extends T> entities) {
        Assert.notNull(entities, "Entities must not be null");
        for (T entity : entities) {
            delete(entity);
        }
    }

    @Override
    public void deleteAll() {
        this.operations.deleteAll(type());
    }

    @Override
    public List<T> findAll(Sort sort) {
        Assert.notNull(sort, "Sort must not be null");
        return this.operations.findAll(sort, type());
    }

    @Override
    public Page<T> findAll(Pageable pageable) {
        Assert.notNull(pageable, "Pageable must not be null");
        return this.operations.findAll(pageable, type());
    }

    @Override
    public <S extends T> Optional<S> findOne(Example<S> example) {
        return Optional.ofNullable(findBy(example, FluentQuery.FetchableFluentQuery::oneValue));
    }

    @Override
    public <S extends T> List<S> findAll(Example<S> example) {
        return findBy(example, FluentQuery.FetchableFluentQuery::all);
    }

    @Override
    public <S extends T> List<S> findAll(Example<S> example, Sort sort) {
        Assert.notNull(sort, "Sort must not be null");
        return findBy(example, (query) -> query.sortBy(sort).all());
    }

    @Override
    public <S extends T> Page<S> findAll(Example<S> example, Pageable pageable) {
        Assert.notNull(pageable, "Pageable must not be null");
        return findBy(example, (query) -> query.page(pageable));
    }

    @Override
    public <S extends T> long count(Example<S> example) {
        return findBy(example, FluentQuery.FetchableFluentQuery::count);
    }

    @Override
    public <S extends T> boolean exists(Example<S> example) {
        return findBy(example, FluentQuery.FetchableFluentQuery::exists);
    }

    @Override
    public <S extends T, R> R findBy(Example<S> example,
            Function<FluentQuery.FetchableFluentQuery<S>, R> queryFunction) {
        Assert.notNull(example, "Example must not be null");
        Assert.notNull(queryFunction, "Query function must not be null");
        StorhCriteria criteria = StorhExampleCriteria.of(example, this.operations.getConverter());
        return queryFunction.apply(
                new StorhFluentQuery<>(criteria, example.getProbeType(), this.operations, Sort.unsorted(), 0));
    }

    private Class<T> type() {
        return this.entityInformation.getJavaType();
    }

    private static String id(Object id) {
        Assert.notNull(id, "The given id must not be null");
        if (id instanceof String text) {
            return text;
        }
        if (id instanceof java.util.UUID uuid) {
            return uuid.toString();
        }
        throw new IllegalArgumentException("Storh ids are UUIDv7 strings or UUIDs, got " + id.getClass().getName());
    }

}
