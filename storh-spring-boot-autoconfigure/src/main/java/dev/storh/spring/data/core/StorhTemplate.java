package dev.storh.spring.data.core;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;
import java.util.stream.Stream;

import dev.storh.StorageRecord;
import dev.storh.doc.DocStore;
import dev.storh.doc.index.IndexManager;
import dev.storh.id.UuidV7;
import dev.storh.query.Direction;
import dev.storh.query.FieldPath;
import dev.storh.query.QueryBuilder;
import dev.storh.query.QueryPlan;
import dev.storh.query.Values;
import dev.storh.spring.data.core.event.AfterConvertEvent;
import dev.storh.spring.data.core.event.AfterDeleteEvent;
import dev.storh.spring.data.core.event.AfterSaveEvent;
import dev.storh.spring.data.core.event.BeforeConvertCallback;
import dev.storh.spring.data.core.event.BeforeConvertEvent;
import dev.storh.spring.data.core.event.BeforeDeleteEvent;
import dev.storh.spring.data.core.event.BeforeSaveEvent;
import dev.storh.spring.data.core.query.PropertyPaths;
import dev.storh.spring.data.core.query.StorhQuery;
import dev.storh.spring.data.mapping.StorhMappingContext;
import dev.storh.spring.data.mapping.StorhPersistentEntity;
import dev.storh.spring.data.mapping.StorhPersistentProperty;
import dev.storh.spring.transaction.CollectionAccess;

import org.springframework.beans.BeansException;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.context.ApplicationContext;
import org.springframework.context.ApplicationContextAware;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.dao.InvalidDataAccessApiUsageException;
import org.springframework.dao.OptimisticLockingFailureException;
import org.springframework.data.core.PropertyPath;
import org.springframework.data.domain.Page;
import org.springframework.data.domain.PageImpl;
import org.springframework.data.domain.Pageable;
import org.springframework.data.domain.Sort;
import org.springframework.data.mapping.callback.EntityCallbacks;
import org.springframework.data.support.PageableExecutionUtils;
import org.springframework.util.Assert;
import org.springframework.util.StringUtils;

/**
 * The default {@link StorhOperations}: entities stored in {@link DocStore} collections below one
 * collections folder, {@code <collections folder>/<collection>/data/<bucket>/<id>.jsonc}.
 * <p>
 * One {@code DocStore} per collection is opened on first use and shared by all callers; every
 * store is closed by {@link #close()} (called by Spring on shutdown through {@link #destroy()}),
 * which also removes this process's writer markers. The first entity
 * operation on a type declares the type's {@code @Indexed} properties on the collection's
 * {@link IndexManager} and syncs it ({@link #docStore(Class)}). Queries run as core
 * {@link QueryBuilder}s, so indexes answer them where the planner can;
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

	private final Path collectionsFolder;

	private final StorhEntityConverter converter;

	private final StorhExceptionTranslator exceptionTranslator = new StorhExceptionTranslator();

	private final ConcurrentHashMap<String, DocStore> stores = new ConcurrentHashMap<>();

	private final ConcurrentHashMap<Class<?>, DocStore> indexedStores = new ConcurrentHashMap<>();

	private volatile ApplicationEventPublisher eventPublisher;

	private volatile EntityCallbacks entityCallbacks;

	private volatile boolean closed;

	/**
	 * Create a template with a new {@link StorhMappingContext} and the default Jackson mapper.
	 * @param collectionsFolder the folder holding one sub-folder per collection; created on the
	 * first write; a relative path is resolved against the working directory now
	 */
	public StorhTemplate(Path collectionsFolder) {
		this(collectionsFolder, new StorhMappingContext());
	}

	/**
	 * Create a template with the default Jackson mapper.
	 * @param collectionsFolder the folder holding one sub-folder per collection
	 * @param mappingContext the mapping context shared with the repositories
	 */
	public StorhTemplate(Path collectionsFolder, StorhMappingContext mappingContext) {
		this(collectionsFolder, new StorhEntityConverter(mappingContext));
	}

	/**
	 * Create a template.
	 * @param collectionsFolder the folder holding one sub-folder per collection
	 * @param converter the entity converter (and through it the mapping context and the
	 * application's Jackson mapper)
	 */
	public StorhTemplate(Path collectionsFolder, StorhEntityConverter converter) {
		Assert.notNull(collectionsFolder, "'collectionsFolder' must not be null");
		Assert.notNull(converter, "'converter' must not be null");
		this.collectionsFolder = collectionsFolder.toAbsolutePath().normalize();
		this.converter = converter;
	}

	/**
	 * Use the context to publish events and to find {@code EntityCallback} beans; called by
	 * Spring for a template bean.
	 * @param applicationContext the context
	 */
	@Override
	public void setApplicationContext(ApplicationContext applicationContext) throws BeansException {
		this.eventPublisher = applicationContext;
		if (this.entityCallbacks == null) {
			this.entityCallbacks = EntityCallbacks.create(applicationContext);
		}
	}

	/**
	 * @param eventPublisher where lifecycle events go; {@code null} publishes none
	 */
	public void setApplicationEventPublisher(ApplicationEventPublisher eventPublisher) {
		this.eventPublisher = eventPublisher;
	}

	/**
	 * @param entityCallbacks the callbacks to run before conversion; {@code null} runs none
	 */
	public void setEntityCallbacks(EntityCallbacks entityCallbacks) {
		this.entityCallbacks = entityCallbacks;
	}

	@Override
	public Path collectionsFolder() {
		return this.collectionsFolder;
	}

	@Override
	public DocStore docStore(String collection) {
		Assert.hasText(collection, "'collection' must not be empty");
		checkOpen();
		DocStore store = this.stores.computeIfAbsent(collection, this::open);
		if (this.closed) {
			// close() ran while this store was being opened: do not leak it
			closeStore(this.stores.remove(collection));
			checkOpen();
		}
		return store;
	}

	@Override
	public DocStore docStore(Class<?> type) {
		Assert.notNull(type, "'type' must not be null");
		DocStore store = this.indexedStores.get(type);
		if (store != null) {
			checkOpen();
			return store;
		}
		return this.indexedStores.computeIfAbsent(type, this::openIndexed);
	}

	/** The type's collection as the calling thread sees it: through its storh transaction, if any. */
	private CollectionAccess access(Class<?> type) {
		return CollectionAccess.of(docStore(type), this.collectionsFolder);
	}

	private DocStore openIndexed(Class<?> type) {
		StorhPersistentEntity<?> entity = this.converter.getRequiredEntity(type);
		DocStore store = docStore(entity.getCollection());
		boolean declared = false;
		for (StorhPersistentProperty property : entity) {
			if (property.isIndexed() && !property.isIdProperty()) {
				store.indexes().defineField(property.getName(), property.isUniqueIndex(), property.isRangeIndex());
				declared = true;
			}
		}
		if (declared) {
			translated(() -> store.indexes().sync());
		}
		return store;
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
		return write(entity, false);
	}

	@Override
	public <T> T insert(T entity) {
		return write(entity, true);
	}

	@SuppressWarnings("unchecked")
	private <T> T write(T original, boolean insert) {
		Assert.notNull(original, "'entity' must not be null");
		Class<T> type = (Class<T>) original.getClass();
		StorhPersistentEntity<?> persistentEntity = this.converter.getRequiredEntity(type);
		String collection = persistentEntity.getCollection();
		T entity = beforeConvert(original, collection);
		publish(new BeforeConvertEvent<>(entity, type, collection, null));
		String id = this.converter.getId(entity);
		if (StringUtils.hasLength(id)) {
			checkId(id, collection);
		}
		else {
			id = null;
		}
		Map<String, Object> data = this.converter.toData(entity);
		StorhPersistentProperty versionProperty = persistentEntity.getDocumentVersionProperty();
		Long expected = null;
		boolean isNew = true;
		if (versionProperty != null) {
			expected = this.converter.getVersion(entity);
			boolean primitive = versionProperty.getType().isPrimitive();
			isNew = (expected == null) || (primitive && expected == 0);
			long next = isNew ? (primitive ? 1 : 0) : expected + 1;
			data.put(versionProperty.getName(), next);
			if (!isNew && id == null) {
				throw new OptimisticLockingFailureException("Cannot save " + type.getName() + " with version "
						+ expected + " but no id to collection '" + collection + "'");
			}
		}
		publish(new BeforeSaveEvent<>(entity, type, collection, data));
		CollectionAccess store = access(type);
		String recordId = id;
		boolean checked = insert || versionProperty != null;
		Long expectedVersion = expected;
		boolean expectNew = isNew;
		StorageRecord stored = translated(() -> {
			if (!checked || recordId == null) {
				return (recordId != null) ? store.put(data, recordId) : store.put(data);
			}
			// read-compare-write under the collection write lock (re-entrant for put)
			return store.withWriteLock(() -> {
				Optional<StorageRecord> current = store.get(recordId);
				if (insert && current.isPresent()) {
					throw new DuplicateKeyException("Record " + recordId + " already exists in collection '" + collection
							+ "' (" + store.collectionRoot() + "); use save to replace it");
				}
				if (versionProperty != null) {
					checkVersion(type, collection, recordId, current, expectNew, expectedVersion);
				}
				return store.put(data, recordId);
			});
		});
		T saved = this.converter.withStoredId(entity, stored);
		publish(new AfterSaveEvent<>(saved, type, collection, stored.data()));
		return saved;
	}

	private void checkVersion(Class<?> type, String collection, String id, Optional<StorageRecord> current,
			boolean expectNew, Long expected) {
		if (expectNew) {
			if (current.isPresent()) {
				throw new OptimisticLockingFailureException("Cannot save new " + type.getName() + " " + id
						+ " to collection '" + collection + "': a record with this id was stored meanwhile (version "
						+ this.converter.getStoredVersion(type, current.get().data()) + ")");
			}
			return;
		}
		if (current.isEmpty()) {
			throw new OptimisticLockingFailureException("Cannot save " + type.getName() + " " + id + " with version "
					+ expected + " to collection '" + collection + "': the record was deleted meanwhile");
		}
		Long stored = this.converter.getStoredVersion(type, current.get().data());
		if (!Objects.equals(stored, expected)) {
			throw new OptimisticLockingFailureException("Cannot save " + type.getName() + " " + id + " with version "
					+ expected + " to collection '" + collection + "': the stored version is " + stored
					+ "; it was modified meanwhile, reload it and retry");
		}
	}

	@Override
	public <T> Optional<T> findById(String id, Class<T> type) {
		Assert.notNull(id, "'id' must not be null");
		String collection = getCollection(type);
		if (!UuidV7.isValid(id)) {
			return Optional.empty();
		}
		CollectionAccess store = access(type);
		return translated(() -> store.get(id)).map((r) -> read(type, collection, r));
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
				store.get(id).ifPresent((record) -> content.add(read(type, collection, record)));
			}
			return PageableExecutionUtils.getPage(content, pageable, store::count);
		});
	}

	@Override
	public <T> List<T> find(StorhQuery query, Class<T> type) {
		String collection = getCollection(type);
		List<StorageRecord> records = records(query, type);
		List<T> result = new ArrayList<>(records.size());
		for (StorageRecord record : records) {
			result.add(read(type, collection, record));
		}
		return result;
	}

	@Override
	public <T> Stream<T> stream(StorhQuery query, Class<T> type) {
		Assert.notNull(query, "'query' must not be null");
		String collection = getCollection(type);
		if (query.getSort().isUnsorted() && query.getOffset() == 0 && query.getLimit() != 0) {
			QueryBuilder core = coreQuery(query, type);
			QueryBuilder limited = query.isLimited() ? core.limit(query.getLimit()) : core;
			Stream<StorageRecord> records = translated(limited::stream);
			return translating(records).map((record) -> read(type, collection, record));
		}
		return find(query, type).stream();
	}

	@Override
	public long count(Class<?> type) {
		CollectionAccess store = access(type);
		return translated(store::count);
	}

	@Override
	public long count(StorhQuery query, Class<?> type) {
		Assert.notNull(query, "'query' must not be null");
		if (query.getCriteria().isAll() && query.getCursor() == null) {
			return count(type);
		}
		QueryBuilder core = coreQuery(query, type);
		return translated(core::count);
	}

	@Override
	public boolean exists(StorhQuery query, Class<?> type) {
		Assert.notNull(query, "'query' must not be null");
		QueryBuilder core = coreQuery(query, type).limit(1);
		return translated(core::count) > 0;
	}

	@Override
	public QueryPlan explain(StorhQuery query, Class<?> type) {
		Assert.notNull(query, "'query' must not be null");
		QueryBuilder core = coreQuery(query, type);
		List<SortKey> orders = resolveSort(query.getSort(), type);
		if (orders.size() == 1) {
			core = core.orderBy(orders.get(0).path(), orders.get(0).direction());
		}
		if (query.isLimited() && query.getLimit() > 0) {
			core = core.limit(query.getOffset() + query.getLimit());
		}
		return translated(core::explain);
	}

	@Override
	public boolean delete(Object entity) {
		Assert.notNull(entity, "'entity' must not be null");
		String id = this.converter.getId(entity);
		if (!StringUtils.hasLength(id)) {
			return false;
		}
		Class<?> type = entity.getClass();
		StorhPersistentEntity<?> persistentEntity = this.converter.getRequiredEntity(type);
		if (persistentEntity.getDocumentVersionProperty() == null) {
			return deleteById(id, type);
		}
		String collection = persistentEntity.getCollection();
		if (!UuidV7.isValid(id)) {
			return false;
		}
		Long expected = this.converter.getVersion(entity);
		CollectionAccess store = access(type);
		publish(new BeforeDeleteEvent<>(id, type, collection));
		boolean deleted = translated(() -> store.withWriteLock(() -> {
			Optional<StorageRecord> current = store.get(id);
			if (current.isEmpty()) {
				return false;
			}
			Long stored = this.converter.getStoredVersion(type, current.get().data());
			if (!Objects.equals(stored, expected)) {
				throw new OptimisticLockingFailureException("Cannot delete " + type.getName() + " " + id
						+ " with version " + expected + " from collection '" + collection + "': the stored version is "
						+ stored + "; it was modified meanwhile");
			}
			return store.delete(id);
		}));
		if (deleted) {
			publish(new AfterDeleteEvent<>(id, type, collection));
		}
		return deleted;
	}

	@Override
	public boolean deleteById(String id, Class<?> type) {
		Assert.notNull(id, "'id' must not be null");
		String collection = getCollection(type);
		if (!UuidV7.isValid(id)) {
			return false;
		}
		CollectionAccess store = access(type);
		publish(new BeforeDeleteEvent<>(id, type, collection));
		boolean deleted = translated(() -> store.delete(id));
		if (deleted) {
			publish(new AfterDeleteEvent<>(id, type, collection));
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
		List<StorageRecord> matches = records(query, type);
		List<T> deleted = new ArrayList<>(matches.size());
		for (StorageRecord record : matches) {
			T entity = read(type, collection, record);
			if (deleteById(record.id(), type)) {
				deleted.add(entity);
			}
		}
		return deleted;
	}

	/**
	 * Close every opened store; further calls fail with {@link IllegalStateException}. Idempotent.
	 */
	@Override
	public void close() {
		this.closed = true;
		List<RuntimeException> failures = new ArrayList<>();
		for (String collection : List.copyOf(this.stores.keySet())) {
			try {
				closeStore(this.stores.remove(collection));
			}
			catch (RuntimeException ex) {
				failures.add(ex);
			}
		}
		this.indexedStores.clear();
		if (!failures.isEmpty()) {
			RuntimeException first = this.exceptionTranslator.translate(failures.get(0));
			failures.stream().skip(1).forEach(first::addSuppressed);
			throw first;
		}
	}

	/**
	 * Same as {@link #close()}; called by Spring when the bean is destroyed.
	 */
	@Override
	public void destroy() {
		close();
	}

	/**
	 * The matching records after sort, offset and limit. A one-property sort is core's
	 * {@code orderBy} with a limit of offset + limit (index-ordered where possible); a longer
	 * sort is applied here to all matches.
	 */
	private List<StorageRecord> records(StorhQuery query, Class<?> type) {
		Assert.notNull(query, "'query' must not be null");
		if (query.getLimit() == 0) {
			return List.of();
		}
		QueryBuilder core = coreQuery(query, type);
		List<SortKey> orders = resolveSort(query.getSort(), type);
		long offset = query.getOffset();
		List<StorageRecord> records;
		if (orders.size() <= 1) {
			if (orders.size() == 1) {
				core = core.orderBy(orders.get(0).path(), orders.get(0).direction());
			}
			if (query.isLimited()) {
				core = core.limit(offset + query.getLimit());
			}
			QueryBuilder run = core;
			records = translated(run::get);
		}
		else {
			QueryBuilder run = core;
			records = new ArrayList<>(translated(run::get));
			records.sort(comparator(orders));
		}
		if (offset >= records.size()) {
			return List.of();
		}
		long end = query.isLimited() ? Math.min(records.size(), offset + query.getLimit()) : records.size();
		return (offset == 0 && end == records.size()) ? records : records.subList((int) offset, (int) end);
	}

	/**
	 * The core query of a {@link StorhQuery}'s criteria (operands converted to the JSON model)
	 * and cursor, on the type's indexed store; no order, no limit.
	 */
	private QueryBuilder coreQuery(StorhQuery query, Class<?> type) {
		CollectionAccess store = access(type);
		QueryBuilder core = query.getCriteria().mapValues(this.converter::toJsonValue).applyTo(store.query());
		if (query.getCursor() != null) {
			String collection = getCollection(type);
			core = core.cursor(checkId(query.getCursor(), collection));
		}
		return core;
	}

	/** One sort key: a core field path and its direction. */
	private record SortKey(FieldPath path, Direction direction) {
	}

	/**
	 * Sort orders as core paths: the top-level id property becomes {@code id}, other properties
	 * their names from the entity down ({@code publisher.name}); no ignore-case, no explicit null
	 * handling.
	 */
	private List<SortKey> resolveSort(Sort sort, Class<?> type) {
		if (sort.isUnsorted()) {
			return List.of();
		}
		StorhPersistentEntity<?> entity = this.converter.getRequiredEntity(type);
		List<SortKey> orders = new ArrayList<>();
		for (Sort.Order order : sort) {
			PropertyPath path = PropertyPath.from(order.getProperty(), type);
			if (order.isIgnoreCase() || order.getNullHandling() != Sort.NullHandling.NATIVE) {
				throw new InvalidDataAccessApiUsageException("Cannot sort " + type.getName() + " by " + order
						+ ": storh sorts by core's value order (null after strings and numbers), without "
						+ "ignore-case or null handling");
			}
			entity.getRequiredPersistentProperty(path.getSegment());
			String idProperty = entity.getRequiredDocumentIdProperty().getName();
			orders.add(new SortKey(PropertyPaths.toFieldPath(path, idProperty),
					order.isAscending() ? Direction.ASC : Direction.DESC));
		}
		return orders;
	}

	private static Comparator<StorageRecord> comparator(List<SortKey> orders) {
		Comparator<StorageRecord> result = null;
		for (SortKey order : orders) {
			FieldPath field = order.path();
			Comparator<StorageRecord> next = (a, b) -> Values.compare(valueOf(a, field), valueOf(b, field));
			if (order.direction() == Direction.DESC) {
				next = next.reversed();
			}
			result = (result == null) ? next : result.thenComparing(next);
		}
		return Objects.requireNonNull(result).thenComparing(StorageRecord::id);
	}

	private static Object valueOf(StorageRecord record, FieldPath field) {
		if (field.isId()) {
			return record.id();
		}
		List<Object> reached = field.resolve(record.data());
		return reached.isEmpty() ? null : reached.get(0);
	}

	@SuppressWarnings("unchecked")
	private <T> T beforeConvert(T entity, String collection) {
		EntityCallbacks callbacks = this.entityCallbacks;
		if (callbacks == null) {
			return entity;
		}
		return (T) callbacks.callback(BeforeConvertCallback.class, entity, collection);
	}

	private <T> T read(Class<T> type, String collection, StorageRecord record) {
		T entity = this.converter.read(type, record);
		publish(new AfterConvertEvent<>(entity, type, collection, record.data()));
		return entity;
	}

	private void publish(Object event) {
		ApplicationEventPublisher publisher = this.eventPublisher;
		if (publisher != null) {
			publisher.publishEvent(event);
		}
	}

	private <R> R translated(Supplier<R> action) {
		try {
			return action.get();
		}
		catch (RuntimeException ex) {
			throw this.exceptionTranslator.translate(ex);
		}
	}

	private <T> Stream<T> translating(Stream<T> source) {
		java.util.Iterator<T> iterator = source.iterator();
		java.util.Iterator<T> translating = new java.util.Iterator<>() {

			@Override
			public boolean hasNext() {
				return translated(iterator::hasNext);
			}

			@Override
			public T next() {
				return translated(iterator::next);
			}

		};
		return java.util.stream.StreamSupport
			.stream(java.util.Spliterators.spliteratorUnknownSize(translating,
					java.util.Spliterator.ORDERED | java.util.Spliterator.NONNULL), false)
			.onClose(source::close);
	}

	private String checkId(String id, String collection) {
		if (!UuidV7.isValid(id)) {
			throw new InvalidDataAccessApiUsageException("Id '" + id + "' for collection '" + collection
					+ "' is not a valid UUIDv7 (36 characters like 018bcfe5-6800-7286-af1e-f6f686dbda0b, version 7); "
					+ "leave the id null to have one generated");
		}
		return id;
	}

	private DocStore open(String collection) {
		return translated(() -> DocStore.open(this.collectionsFolder, collection));
	}

	private void checkOpen() {
		if (this.closed) {
			throw new IllegalStateException("StorhTemplate for " + this.collectionsFolder + " is closed");
		}
	}

	private static void closeStore(DocStore store) {
		if (store != null) {
			store.close();
		}
	}

}
