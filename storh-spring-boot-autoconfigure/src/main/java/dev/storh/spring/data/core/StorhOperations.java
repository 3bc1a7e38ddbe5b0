package dev.storh.spring.data.core;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

import dev.storh.doc.DocStore;
import dev.storh.query.QueryPlan;
import dev.storh.spring.data.core.query.StorhQuery;
import dev.storh.spring.data.mapping.StorhMappingContext;

import org.springframework.data.domain.Page;
import org.springframework.data.domain.Pageable;
import org.springframework.data.domain.ScrollPosition;
import org.springframework.data.domain.Sort;
import org.springframework.data.domain.Window;

/**
 * Entity operations on storh {@code DocStore} collections: one collection per entity type
 * ({@code @Document(collection)}), one JSONC file per entity, the entity id as the record id
 * (a UUIDv7).
 * <p>
 * Implementations are thread-safe. Storage failures surface as Spring
 * {@link org.springframework.dao.DataAccessException}s ({@link StorhExceptionTranslator}); an id
 * that is not a valid UUIDv7 gives an
 * {@link org.springframework.dao.InvalidDataAccessApiUsageException} naming the id and the
 * collection; a {@code null} argument gives an {@link IllegalArgumentException} naming it.
 * Results without a sort come in ascending id order, which is creation order for generated ids.
 */
public interface StorhOperations {

    /**
     * The folder holding one sub-folder per collection.
     * @return the folder, absolute and normalised
     */
    Path collectionsFolder();

    /**
     * The store of one collection, opened on first use and kept open until the operations are
     * closed.
     * @param collection the collection name (a folder name)
     * @return the shared store
     * @throws IllegalStateException when the operations are closed
     */
    DocStore docStore(String collection);

    /**
     * The store of an entity type's collection, with the type's {@code @Indexed} properties
     * declared on its {@code IndexManager} and synced (built from the stored records when the
     * definitions changed) the first time this is called for the type. Every entity operation
     * goes through it, so derived queries find their indexes.
     * @param type the entity type
     * @return the shared store
     * @throws IllegalStateException when the operations are closed
     * @throws org.springframework.dao.DataAccessException when the index cannot be built, e.g. a
     * {@code DuplicateKeyException} when stored records break a unique index
     */
    DocStore docStore(Class<?> type);

    /**
     * @param type an entity type
     * @return the collection the type is stored in
     */
    String getCollection(Class<?> type);

    /**
     * @return the mapping context
     */
    StorhMappingContext getMappingContext();

    /**
     * @return the converter between entities and stored JSON objects
     */
    StorhEntityConverter getConverter();

    /**
     * Store an entity, replacing any record with the same id (upsert). A
     * {@code null} or empty id is generated as a UUIDv7.
     * <p>
     * With a {@code @Version} property: an entity whose version is {@code null} (or
     * {@code 0} for a primitive {@code long}) is new and is stored with version {@code 0} (a
     * primitive: {@code 1}); otherwise the stored version must equal the entity's and the record is
     * stored with the version plus one. The check and the write happen under the collection write
     * lock, which other processes honour too.
     * @param <T> the entity type
     * @param entity the entity
     * @return the saved entity carrying its id and version: the same instance when those
     * properties are mutable, otherwise a new instance
     * @throws org.springframework.dao.OptimisticLockingFailureException when the stored version
     * differs, the record was deleted, or a new entity's id was stored meanwhile; nothing is
     * written
     * @throws org.springframework.dao.DuplicateKeyException when a unique index already holds a
     * value of the entity
     * @throws org.springframework.dao.InvalidDataAccessApiUsageException when the id is not a
     * UUIDv7
     */
    <T> T save(T entity);

    /**
     * Store a batch of entities of one collection, all or nothing: every entity is converted and
     * checked before the first record is written, under one hold of the collection write lock
     * (its {@code @Version} as {@link #save(Object)} checks it, its {@code @Indexed(unique = true)}
     * values against the other entities of the batch and against the stored records, the
     * collection's schema), and the records are then written with one
     * {@code DocStore.putMany}. A batch that fails a check writes nothing. An I/O failure while
     * writing (a full disk) can leave the records written before it.
     * @param <T> the entity type
     * @param entities the entities, in order; a {@code @Version}ed id may appear once
     * @return the saved entities in the same order, as {@link #save(Object)} returns them
     * @throws org.springframework.dao.OptimisticLockingFailureException when a version check fails
     * @throws org.springframework.dao.DuplicateKeyException naming the field and value when two
     * entities of the batch, or an entity and a stored record, hold the same unique value
     * @throws org.springframework.dao.InvalidDataAccessApiUsageException when the entities go to
     * more than one collection or an id is not a UUIDv7
     */
    <T> List<T> saveAll(Iterable<T> entities);

    /**
     * Store a new entity; fails when a record with its id already exists. The check and the write
     * happen under the collection write lock, so two concurrent inserts of one id, in this or
     * another process, cannot both succeed.
     * @param <T> the entity type
     * @param entity the entity
     * @return the saved entity, as {@link #save(Object)}
     * @throws org.springframework.dao.DuplicateKeyException naming the id and collection when the
     * id exists
     */
    <T> T insert(T entity);

    /**
     * @param <T> the entity type
     * @param id the id; text that is not a valid UUIDv7 names no record
     * @param type the entity type
     * @return the entity, or empty when no record has this id (always empty for a malformed id)
     */
    <T> Optional<T> findById(String id, Class<T> type);

    /**
     * @param id the id; text that is not a valid UUIDv7 names no record
     * @param type the entity type
     * @return whether a record file with this id exists (the file is not read); {@code false}
     * for a malformed id
     */
    boolean exists(String id, Class<?> type);

    /**
     * Every entity of a type, read lazily in ascending id order. The stream holds files open:
     * close it (try-with-resources).
     * @param <T> the entity type
     * @param type the entity type
     * @return a stream that must be closed
     */
    <T> Stream<T> findAll(Class<T> type);

    /**
     * Every entity of a type, sorted by property values in core's order (a missing or null
     * value after strings and numbers), then by ascending id.
     * @param <T> the entity type
     * @param sort the order; unsorted means id order
     * @param type the entity type
     * @return the entities
     * @throws org.springframework.data.core.PropertyReferenceException when a sort property does
     * not exist on the type
     */
    <T> List<T> findAll(Sort sort, Class<T> type);

    /**
     * One page of entities. Without a sort, the page is cut from the id listing
     * ({@code DocStore.ids()}) and only the page's records are read; with a sort, all records are
     * read and sorted as {@link #findAll(Sort, Class)}.
     * @param <T> the entity type
     * @param pageable the page
     * @param type the entity type
     * @return the page, with the total number of records
     */
    <T> Page<T> findAll(Pageable pageable, Class<T> type);

    /**
     * Entities matching a query, run as a core {@code QueryBuilder} (indexes where the planner
     * can use them).
     * @param <T> the entity type
     * @param query the query
     * @param type the entity type
     * @return the matching entities in query order, after offset and limit
     */
    <T> List<T> find(StorhQuery query, Class<T> type);

    /**
     * Entities matching a query, lazily when the query has no sort. The stream holds files open:
     * close it.
     * @param <T> the entity type
     * @param query the query
     * @param type the entity type
     * @return a stream that must be closed
     */
    <T> Stream<T> stream(StorhQuery query, Class<T> type);

    /**
     * One window of the entities matching a query. An {@code OffsetScrollPosition} skips matches;
     * a {@code KeysetScrollPosition} continues after (forward) or before (backward) the entity it
     * was taken from, by the values of the query's sort properties then its id (ties are broken by
     * ascending id, so every entity appears once however many share a sort value). A window's
     * items are always in the query's order; {@code hasNext()} tells whether more follow in the
     * scrolling direction, and {@code positionAt(i)} keeps that direction. Keys are the sort
     * properties' names ({@code publisher.name}) with their stored JSON values, and the id
     * property's name with the id. Scrolling forward in id order reads only the window (core's id
     * cursor); other keyset scrolls read every match.
     * @param <T> the entity type
     * @param query criteria and sort; its limit is the window size (none: every remaining match);
     * offset and cursor are ignored
     * @param position where the window starts; {@code ScrollPosition.keyset()} or
     * {@code ScrollPosition.offset()} for the first window, {@code ScrollPosition.backward(...)}
     * to scroll towards the start
     * @param type the entity type
     * @return the window
     * @throws org.springframework.dao.InvalidDataAccessApiUsageException when a keyset position
     * lacks a sort property or the id
     */
    <T> Window<T> scroll(StorhQuery query, ScrollPosition position, Class<T> type);

    /**
     * @param type the entity type
     * @return the number of records of the type's collection (files are counted, not read)
     */
    long count(Class<?> type);

    /**
     * @param query the query; its sort, offset and limit are ignored
     * @param type the entity type
     * @return the number of matching records
     */
    long count(StorhQuery query, Class<?> type);

    /**
     * @param query the query; its sort, offset and limit are ignored
     * @param type the entity type
     * @return whether at least one record matches
     */
    boolean exists(StorhQuery query, Class<?> type);

    /**
     * How core would run a query on the type's collection: {@code index_scan} when indexes
     * answer every OR group, else {@code full_scan}. A one-property sort and the limit are part of
     * the plan, as {@link #find} runs them.
     * @param query the query
     * @param type the entity type
     * @return the plan
     */
    QueryPlan explain(StorhQuery query, Class<?> type);

    /**
     * Delete the record of an entity. An entity without id, with a malformed id or without record
     * is ignored. For a
     * {@code @Version}ed entity the stored version must equal the entity's (checked under the
     * collection write lock).
     * @param entity the entity
     * @return whether a record was deleted
     * @throws org.springframework.dao.OptimisticLockingFailureException when the stored version
     * differs; nothing is deleted
     */
    boolean delete(Object entity);

    /**
     * @param id the id; text that is not a valid UUIDv7 names no record
     * @param type the entity type
     * @return whether a record was deleted ({@code false} when absent or malformed: nothing is
     * deleted and no event is published)
     */
    boolean deleteById(String id, Class<?> type);

    /**
     * Delete every record of a type's collection.
     * @param type the entity type
     * @return the number of records deleted
     */
    long deleteAll(Class<?> type);

    /**
     * Delete the records matching a query (after its sort, offset and limit).
     * @param <T> the entity type
     * @param query the query
     * @param type the entity type
     * @return the deleted entities, as they were before deletion
     */
    <T> List<T> delete(StorhQuery query, Class<T> type);

}
