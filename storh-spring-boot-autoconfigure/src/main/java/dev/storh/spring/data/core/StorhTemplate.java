package dev.storh.spring.data.core;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;

import dev.storh.StorageRecord;
import dev.storh.doc.DocStore;
import dev.storh.doc.index.IndexManager;
import dev.storh.id.UuidV7;
import dev.storh.query.QueryBuilder;
import dev.storh.query.QueryPlan;
import dev.storh.spring.boot.stores.StorhStoreOptions;
import dev.storh.spring.boot.stores.StorhStores;
import dev.storh.spring.data.core.event.AfterConvertEvent;
import dev.storh.spring.data.core.event.AfterDeleteEvent;
import dev.storh.spring.data.core.event.AfterSaveEvent;
import dev.storh.spring.data.core.event.BeforeConvertCallback;
import dev.storh.spring.data.core.event.BeforeConvertEvent;
import dev.storh.spring.data.core.event.BeforeDeleteEvent;
import dev.storh.spring.data.core.event.BeforeSaveEvent;
import dev.storh.spring.data.core.query.StorhQuery;
import dev.storh.spring.data.mapping.StorhMappingContext;
import dev.storh.spring.data.mapping.StorhPersistentEntity;
import dev.storh.spring.transaction.CollectionAccess;

import org.springframework.beans.BeansException;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.context.ApplicationContext;
import org.springframework.context.ApplicationContextAware;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.dao.OptimisticLockingFailureException;
import org.springframework.data.domain.Page;
import org.springframework.data.domain.PageImpl;
import org.springframework.data.domain.Pageable;
import org.springframework.data.domain.ScrollPosition;
import org.springframework.data.domain.Sort;
import org.springframework.data.domain.Window;
import org.springframework.data.mapping.callback.EntityCallbacks;
import org.springframework.data.support.PageableExecutionUtils;
import org.springframework.util.Assert;
import org.springframework.util.StringUtils;

/**
 * The default {@link StorhOperations}: entities stored in {@link DocStore} collections below one
 * collections folder, {@code <collections folder>/<collection>/data/<bucket>/<id>.jsonc}.
 * <p>
 * <b>Stores</b>: the template keeps no store of its own. Every collection comes from a
 * {@link StorhStores} registry (the adapter under the template, as Spring Data KeyValue's
 * template sits over its adapter), which opens each collection once with its configured options
 * and refuses to open a folder another registry of this JVM holds. In a Spring Boot application
 * the template uses the application's {@code StorhStores} bean; a template made from a folder
 * ({@link #StorhTemplate(Path)}) makes a registry with the engines' defaults and closes it in
 * {@link #close()}. The first entity operation on a type declares the type's {@code @Indexed}
 * properties on the collection's {@link IndexManager} and syncs it ({@link #docStore(Class)}).
 * Queries run as core {@link QueryBuilder}s, so indexes answer them where the planner can;
 * {@link #explain(StorhQuery, Class)} shows the plan.
 * <p>
 * <b>Optimistic locking</b>: for an entity with a {@code @Version} property, save reads
 * the stored version, compares it and writes the record while holding the collection write lock
 * ({@link DocStore#withWriteLock}, an in-process lock plus {@code flock(2)}), so of two saves of
 * one version, in this or another process, exactly one is stored and the other fails with
 * {@link OptimisticLockingFailureException} having written nothing.
 * <p>
 * <b>Events and callbacks</b>: when created as a Spring bean (or given
 * {@link #setApplicationEventPublisher} and {@link #setEntityCallbacks}), the template runs
 * {@link BeforeConvertCallback}s (auditing) and publishes {@link BeforeConvertEvent},
 * {@link BeforeSaveEvent}, {@link AfterSaveEvent}, {@link AfterConvertEvent},
 * {@link BeforeDeleteEvent} and {@link AfterDeleteEvent} on the calling thread.
 * <p>
 * Thread-safe: request threads may share one template. Streams returned by
 * {@link #findAll(Class)} and {@link #stream(StorhQuery, Class)} hold files open until closed.
 */
public class StorhTemplate implements StorhOperations, ApplicationContextAware, DisposableBean, AutoCloseable {

    private final StorhStores stores;

    private final boolean ownsStores;

    private final StorhEntityConverter converter;

    private final StorhExceptionTranslator exceptionTranslator = new StorhExceptionTranslator();

    private final ConcurrentHashMap<Class<?>, Boolean> indexedTypes = new ConcurrentHashMap<>();

    private final EntityEvents events;

    private final EntityWrites writes;

    private final RecordQueries queries;

    private final EntityScrolling scrolling;

    private volatile boolean closed;

    /**
     * Create a template over a registry of its own with the engines' default options, a new
     * {@link StorhMappingContext} and the default Jackson mapper.
     * @param collectionsFolder the folder holding one sub-folder per collection; created on the
     * first write; a relative path is resolved against the working directory now
     */
    public StorhTemplate(Path collectionsFolder) {
        this(collectionsFolder, new StorhMappingContext());
    }

    /**
     * Create a template over a registry of its own with the engines' default options and the
     * default Jackson mapper.
     * @param collectionsFolder the folder holding one sub-folder per collection
     * @param mappingContext the mapping context shared with the repositories
     */
    public StorhTemplate(Path collectionsFolder, StorhMappingContext mappingContext) {
        this(collectionsFolder, new StorhEntityConverter(mappingContext));
    }

    /**
     * Create a template over a registry of its own with the engines' default options, closed
     * with the template.
     * @param collectionsFolder the folder holding one sub-folder per collection
     * @param converter the entity converter (and through it the mapping context and the
     * application's Jackson mapper)
     */
    public StorhTemplate(Path collectionsFolder, StorhEntityConverter converter) {
        this(new StorhStores(requireFolder(collectionsFolder), new StorhStoreOptions() {
        }), converter, true);
    }

    /**
     * Create a template over a registry with a new {@link StorhMappingContext}.
     * @param stores the registry that opens, shares and closes the collections
     */
    public StorhTemplate(StorhStores stores) {
        this(stores, new StorhEntityConverter(new StorhMappingContext()));
    }

    /**
     * Create a template over a registry; closing the template leaves the registry open.
     * @param stores the registry that opens, shares and closes the collections
     * @param converter the entity converter
     */
    public StorhTemplate(StorhStores stores, StorhEntityConverter converter) {
        this(stores, converter, false);
    }

    private StorhTemplate(StorhStores stores, StorhEntityConverter converter, boolean ownsStores) {
        Assert.notNull(stores, "'stores' must not be null");
        Assert.notNull(converter, "'converter' must not be null");
        this.stores = stores;
        this.ownsStores = ownsStores;
        this.converter = converter;
        this.events = new EntityEvents(converter);
        this.writes = new EntityWrites(converter, this.events, this::access, this.exceptionTranslator);
        this.queries = new RecordQueries(converter, this::access, this.exceptionTranslator);
        this.scrolling = new EntityScrolling(converter, this.queries, this.events);
    }

    private static Path requireFolder(Path collectionsFolder) {
        Assert.notNull(collectionsFolder, "'collectionsFolder' must not be null");
        return collectionsFolder;
    }

    /**
     * @return the registry the collections come from
     */
    public StorhStores getStores() {
        return this.stores;
    }

    /**
     * Use the context to publish events and to find {@code EntityCallback} beans; called by
     * Spring for a template bean.
     * @param applicationContext the context
     */
    @Override
    public void setApplicationContext(ApplicationContext applicationContext) throws BeansException {
        this.events.setPublisher(applicationContext);
        if (!this.events.hasCallbacks()) {
            this.events.setCallbacks(EntityCallbacks.create(applicationContext));
        }
    }

    /**
     * @param eventPublisher where lifecycle events go; {@code null} publishes none
     */
    public void setApplicationEventPublisher(ApplicationEventPublisher eventPublisher) {
        this.events.setPublisher(eventPublisher);
    }

    /**
     * @param entityCallbacks the callbacks to run before conversion; {@code null} runs none
     */
    public void setEntityCallbacks(EntityCallbacks entityCallbacks) {
        this.events.setCallbacks(entityCallbacks);
    }

    @Override
    public Path collectionsFolder() {
        return this.stores.collectionsFolder();
    }

    /**
     * @param collection the collection name
     * @return the registry's DocStore of the collection
     * @throws IllegalStateException when this template or the registry is closed
     */
    @Override
    public DocStore docStore(String collection) {
        Assert.hasText(collection, "'collection' must not be empty");
        checkOpen();
        return this.exceptionTranslator.translated(() -> this.stores.docStore(collection));
    }

    @Override
    public DocStore docStore(Class<?> type) {
        Assert.notNull(type, "'type' must not be null");
        StorhPersistentEntity<?> entity = this.converter.getRequiredEntity(type);
        DocStore store = docStore(entity.getCollection());
        if (!this.indexedTypes.containsKey(type)) {
            this.indexedTypes.computeIfAbsent(type, (key) -> declareIndexes(entity, store));
        }
        return store;
    }

    /** The type's collection as the calling thread sees it: through its storh transaction, if any. */
    private CollectionAccess access(Class<?> type) {
        return CollectionAccess.of(docStore(type), collectionsFolder());
    }

    private Boolean declareIndexes(StorhPersistentEntity<?> entity, DocStore store) {
        if (IndexDeclarations.declare(entity, this.converter.getMappingContext(), store.indexes())) {
            this.exceptionTranslator.translated(() -> store.indexes().sync());
        }
        return Boolean.TRUE;
    }

    @Override
    public String getCollection(Class<?> type) {
        return this.converter.getRequiredEntity(type).getCollection();
    }

    @Override
    public StorhMappingContext getMappingContext() {
        return this.converter.getMappingContext();
    }

    @Override
    public StorhEntityConverter getConverter() {
        return this.converter;
    }

    @Override
    public <T> T save(T entity) {
        return this.writes.save(entity, false);
    }

    @Override
    public <T> List<T> saveAll(Iterable<T> entities) {
        return this.writes.saveAll(entities);
    }

    @Override
    public <T> T insert(T entity) {
        return this.writes.save(entity, true);
    }

    @Override
    public <T> Optional<T> findById(String id, Class<T> type) {
        Assert.notNull(id, "'id' must not be null");
        String collection = getCollection(type);
        if (!UuidV7.isValid(id)) {
            return Optional.empty();
        }
        CollectionAccess store = access(type);
        return translated(() -> store.get(id)).map((r) -> this.events.read(type, collection, r));
    }

    @Override
    public boolean exists(String id, Class<?> type) {
        Assert.notNull(id, "'id' must not be null");
        getCollection(type);
        if (!UuidV7.isValid(id)) {
            return false;
        }
        CollectionAccess store = access(type);
        return translated(() -> store.exists(id));
    }

    @Override
    public <T> Stream<T> findAll(Class<T> type) {
        return stream(StorhQuery.all(), type);
    }

    @Override
    public <T> List<T> findAll(Sort sort, Class<T> type) {
        Assert.notNull(sort, "'sort' must not be null");
        return find(StorhQuery.all().withSort(sort), type);
    }

    @Override
    public <T> Page<T> findAll(Pageable pageable, Class<T> type) {
        Assert.notNull(pageable, "'pageable' must not be null");
        if (pageable.isUnpaged()) {
            List<T> all = findAll(pageable.getSort(), type);
            return new PageImpl<>(all, pageable, all.size());
        }
        if (pageable.getSort().isSorted()) {
            List<T> content = find(StorhQuery.all().with(pageable), type);
            return PageableExecutionUtils.getPage(content, pageable, () -> count(type));
        }
        CollectionAccess store = access(type);
        String collection = getCollection(type);
        return translated(() -> {
            List<String> pageIds;
            try (Stream<String> ids = store.ids()) {
                pageIds = ids.skip(pageable.getOffset()).limit(pageable.getPageSize()).toList();
            }
            List<T> content = new ArrayList<>(pageIds.size());
            for (String id : pageIds) {
                // a record deleted since the listing is left out of the page
                store.get(id).ifPresent((record) -> content.add(this.events.read(type, collection, record)));
            }
            return PageableExecutionUtils.getPage(content, pageable, store::count);
        });
    }

    @Override
    public <T> List<T> find(StorhQuery query, Class<T> type) {
        String collection = getCollection(type);
        List<StorageRecord> records = this.queries.records(query, type);
        List<T> result = new ArrayList<>(records.size());
        for (StorageRecord record : records) {
            result.add(this.events.read(type, collection, record));
        }
        return result;
    }

    @Override
    public <T> Stream<T> stream(StorhQuery query, Class<T> type) {
        String collection = getCollection(type);
        Stream<StorageRecord> records = this.queries.lazily(query, type);
        if (records == null) {
            return find(query, type).stream();
        }
        return records.map((record) -> this.events.read(type, collection, record));
    }

    @Override
    public <T> Window<T> scroll(StorhQuery query, ScrollPosition position, Class<T> type) {
        return this.scrolling.scroll(query, position, type);
    }

    @Override
    public long count(Class<?> type) {
        CollectionAccess store = access(type);
        return translated(store::count);
    }

    @Override
    public long count(StorhQuery query, Class<?> type) {
        Assert.notNull(query, "'query' must not be null");
        if (query.criteria().isAll() && query.cursor() == null) {
            return count(type);
        }
        return this.queries.count(query, type);
    }

    @Override
    public boolean exists(StorhQuery query, Class<?> type) {
        return this.queries.exists(query, type);
    }

    @Override
    public QueryPlan explain(StorhQuery query, Class<?> type) {
        return this.queries.explain(query, type);
    }

    @Override
    public boolean delete(Object entity) {
        Assert.notNull(entity, "'entity' must not be null");
        String id = this.converter.getId(entity);
        if (!StringUtils.hasLength(id)) {
            return false;
        }
        Class<?> type = entity.getClass();
        if (this.converter.getRequiredEntity(type).getDocumentVersionProperty() == null) {
            return deleteById(id, type);
        }
        return UuidV7.isValid(id) && this.writes.deleteVersioned(entity, id);
    }

    @Override
    public boolean deleteById(String id, Class<?> type) {
        Assert.notNull(id, "'id' must not be null");
        String collection = getCollection(type);
        if (!UuidV7.isValid(id)) {
            return false;
        }
        CollectionAccess store = access(type);
        this.events.publish(new BeforeDeleteEvent<>(id, type, collection));
        boolean deleted = translated(() -> store.delete(id));
        if (deleted) {
            this.events.publish(new AfterDeleteEvent<>(id, type, collection));
        }
        return deleted;
    }

    @Override
    public long deleteAll(Class<?> type) {
        CollectionAccess store = access(type);
        List<String> ids = translated(() -> {
            try (Stream<String> listing = store.ids()) {
                return listing.toList();
            }
        });
        long deleted = 0;
        for (String id : ids) {
            if (deleteById(id, type)) {
                deleted++;
            }
        }
        return deleted;
    }

    @Override
    public <T> List<T> delete(StorhQuery query, Class<T> type) {
        Assert.notNull(query, "'query' must not be null");
        String collection = getCollection(type);
        List<StorageRecord> matches = this.queries.records(query, type);
        List<T> deleted = new ArrayList<>(matches.size());
        for (StorageRecord record : matches) {
            T entity = this.events.read(type, collection, record);
            if (deleteById(record.id(), type)) {
                deleted.add(entity);
            }
        }
        return deleted;
    }

    /**
     * Marks the template closed, so further calls fail with {@link IllegalStateException}; a
     * template made from a folder also closes its registry and with it every collection it opened.
     * Idempotent.
     */
    @Override
    public void close() {
        this.closed = true;
        this.indexedTypes.clear();
        if (this.ownsStores) {
            translated(() -> {
                this.stores.close();
                return null;
            });
        }
    }

    /**
     * Same as {@link #close()}; called by Spring when the bean is destroyed.
     */
    @Override
    public void destroy() {
        close();
    }

    private <R> R translated(java.util.function.Supplier<R> action) {
        return this.exceptionTranslator.translated(action);
    }

    private void checkOpen() {
        if (this.closed) {
            throw new IllegalStateException("StorhTemplate for " + collectionsFolder() + " is closed");
        }
    }

}
