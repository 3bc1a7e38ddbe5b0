package dev.storh.spring.data.core;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Spliterator;
import java.util.Spliterators;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import java.util.stream.Stream;
import java.util.stream.StreamSupport;

import dev.storh.StorageRecord;
import dev.storh.doc.DocStore;
import dev.storh.id.UuidV7;
import dev.storh.spring.data.core.query.StorhDocument;
import dev.storh.spring.data.core.query.StorhQuery;
import dev.storh.spring.data.mapping.StorhMappingContext;
import dev.storh.spring.data.mapping.StorhPersistentEntity;

import org.springframework.beans.factory.DisposableBean;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.dao.InvalidDataAccessApiUsageException;
import org.springframework.data.core.PropertyPath;
import org.springframework.data.domain.Page;
import org.springframework.data.domain.PageImpl;
import org.springframework.data.domain.Pageable;
import org.springframework.data.domain.Sort;
import org.springframework.data.support.PageableExecutionUtils;
import org.springframework.util.Assert;
import org.springframework.util.StringUtils;

/**
 * The default {@link StorhOperations}: entities stored in {@link DocStore} collections below one
 * collections folder, {@code <collections folder>/<collection>/data/<bucket>/<id>.jsonc}
 * (spec/docstore.md §4).
 * <p>
 * One {@code DocStore} per collection is opened on first use and shared by all callers; every
 * store is closed by {@link #close()} (called by Spring on shutdown through
 * {@link #destroy()}), which also removes this process's writer markers (spec/docstore.md §7).
 * Entities are converted by a {@link StorhEntityConverter}. Queries scan the collection through
 * {@code DocStore.stream()} and sort in memory; unsorted paging reads only the page's records.
 * <p>
 * Thread-safe: {@code DocStore} serialises writers with in-process and file locks, so request
 * threads may share one template. Streams returned by {@link #findAll(Class)} and
 * {@link #stream(StorhQuery, Class)} hold files open until closed.
 */
public class StorhTemplate implements StorhOperations, DisposableBean, AutoCloseable {

	private static final int INSERT_LOCK_STRIPES = 64;

	private final Path collectionsFolder;

	private final StorhEntityConverter converter;

	private final StorhExceptionTranslator exceptionTranslator = new StorhExceptionTranslator();

	private final ConcurrentHashMap<String, DocStore> stores = new ConcurrentHashMap<>();

	private final Object[] insertLocks = new Object[INSERT_LOCK_STRIPES];

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
	 * @param converter the entity converter (and through it the mapping context)
	 */
	public StorhTemplate(Path collectionsFolder, StorhEntityConverter converter) {
		Assert.notNull(collectionsFolder, "'collectionsFolder' must not be null");
		Assert.notNull(converter, "'converter' must not be null");
		this.collectionsFolder = collectionsFolder.toAbsolutePath().normalize();
		this.converter = converter;
		for (int i = 0; i < INSERT_LOCK_STRIPES; i++) {
			this.insertLocks[i] = new Object();
		}
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
		Assert.notNull(entity, "'entity' must not be null");
		String collection = getCollection(entity.getClass());
		String id = this.converter.getId(entity);
		Map<String, Object> data = this.converter.toData(entity);
		DocStore store = docStore(collection);
		StorageRecord stored;
		try {
			stored = StringUtils.hasLength(id) ? store.put(data, checkId(id, collection)) : store.put(data);
		}
		catch (RuntimeException ex) {
			throw this.exceptionTranslator.translate(ex);
		}
		return this.converter.withStoredId(entity, stored);
	}

	@Override
	public <T> T insert(T entity) {
		Assert.notNull(entity, "'entity' must not be null");
		String id = this.converter.getId(entity);
		if (!StringUtils.hasLength(id)) {
			return save(entity);
		}
		String collection = getCollection(entity.getClass());
		checkId(id, collection);
		synchronized (this.insertLocks[Math.floorMod((collection + '/' + id).hashCode(), INSERT_LOCK_STRIPES)]) {
			if (exists(id, entity.getClass())) {
				throw new DuplicateKeyException(
						"Record " + id + " already exists in collection '" + collection + "' (" + this.collectionsFolder
								.resolve(collection) + "); use save to replace it");
			}
			return save(entity);
		}
	}

	@Override
	public <T> Optional<T> findById(String id, Class<T> type) {
		Assert.notNull(id, "'id' must not be null");
		String collection = getCollection(type);
		Optional<StorageRecord> record;
		try {
			record = docStore(collection).get(checkId(id, collection));
		}
		catch (RuntimeException ex) {
			throw this.exceptionTranslator.translate(ex);
		}
		return record.map((r) -> this.converter.read(type, r));
	}

	@Override
	public boolean exists(String id, Class<?> type) {
		Assert.notNull(id, "'id' must not be null");
		String collection = getCollection(type);
		try {
			return docStore(collection).exists(checkId(id, collection));
		}
		catch (RuntimeException ex) {
			throw this.exceptionTranslator.translate(ex);
		}
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
		DocStore store = docStore(getCollection(type));
		try {
			List<String> pageIds;
			try (Stream<String> ids = store.ids()) {
				pageIds = ids.skip(pageable.getOffset()).limit(pageable.getPageSize()).toList();
			}
			List<T> content = new ArrayList<>(pageIds.size());
			for (String id : pageIds) {
				// a record deleted since the listing is left out of the page
				store.get(id).ifPresent((record) -> content.add(this.converter.read(type, record)));
			}
			return PageableExecutionUtils.getPage(content, pageable, store::count);
		}
		catch (RuntimeException ex) {
			throw this.exceptionTranslator.translate(ex);
		}
	}

	@Override
	public <T> List<T> find(StorhQuery query, Class<T> type) {
		try (Stream<T> results = stream(query, type)) {
			return results.toList();
		}
	}

	@Override
	public <T> Stream<T> stream(StorhQuery query, Class<T> type) {
		Assert.notNull(query, "'query' must not be null");
		return documents(query, type).map((document) -> read(type, document));
	}

	@Override
	public long count(Class<?> type) {
		try {
			return docStore(getCollection(type)).count();
		}
		catch (RuntimeException ex) {
			throw this.exceptionTranslator.translate(ex);
		}
	}

	@Override
	public long count(StorhQuery query, Class<?> type) {
		Assert.notNull(query, "'query' must not be null");
		if (query.getCriteria() == null) {
			return count(type);
		}
		try (Stream<StorhDocument> matches = matching(query, type)) {
			return matches.count();
		}
	}

	@Override
	public boolean exists(StorhQuery query, Class<?> type) {
		Assert.notNull(query, "'query' must not be null");
		try (Stream<StorhDocument> matches = matching(query, type)) {
			return matches.findAny().isPresent();
		}
	}

	@Override
	public boolean delete(Object entity) {
		Assert.notNull(entity, "'entity' must not be null");
		String id = this.converter.getId(entity);
		return StringUtils.hasLength(id) && deleteById(id, entity.getClass());
	}

	@Override
	public boolean deleteById(String id, Class<?> type) {
		Assert.notNull(id, "'id' must not be null");
		String collection = getCollection(type);
		try {
			return docStore(collection).delete(checkId(id, collection));
		}
		catch (RuntimeException ex) {
			throw this.exceptionTranslator.translate(ex);
		}
	}

	@Override
	public long deleteAll(Class<?> type) {
		DocStore store = docStore(getCollection(type));
		try {
			List<String> ids;
			try (Stream<String> listing = store.ids()) {
				ids = listing.toList();
			}
			long deleted = 0;
			for (String id : ids) {
				if (store.delete(id)) {
					deleted++;
				}
			}
			return deleted;
		}
		catch (RuntimeException ex) {
			throw this.exceptionTranslator.translate(ex);
		}
	}

	@Override
	public <T> List<T> delete(StorhQuery query, Class<T> type) {
		Assert.notNull(query, "'query' must not be null");
		List<StorhDocument> matches;
		try (Stream<StorhDocument> documents = documents(query, type)) {
			matches = documents.toList();
		}
		DocStore store = docStore(getCollection(type));
		List<T> deleted = new ArrayList<>(matches.size());
		for (StorhDocument document : matches) {
			T entity = read(type, document);
			try {
				if (store.delete(document.id())) {
					deleted.add(entity);
				}
			}
			catch (RuntimeException ex) {
				throw this.exceptionTranslator.translate(ex);
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
	 * Matching documents after sort, offset and limit.
	 */
	private Stream<StorhDocument> documents(StorhQuery query, Class<?> type) {
		Sort sort = resolveSort(query.getSort(), type);
		Stream<StorhDocument> documents;
		if (sort.isSorted()) {
			List<StorhDocument> sorted;
			try (Stream<StorhDocument> matches = matching(query, type)) {
				sorted = new ArrayList<>(matches.toList());
			}
			sorted.sort(StorhDocument.comparator(sort));
			documents = sorted.stream();
		}
		else {
			documents = matching(query, type);
		}
		if (query.getOffset() > 0) {
			documents = documents.skip(query.getOffset());
		}
		if (query.isLimited()) {
			documents = documents.limit(query.getLimit());
		}
		return documents;
	}

	/**
	 * Documents matching the query's criteria, in id order, lazily; the stream must be closed.
	 */
	private Stream<StorhDocument> matching(StorhQuery query, Class<?> type) {
		StorhPersistentEntity<?> entity = this.converter.getRequiredEntity(type);
		String idProperty = entity.getRequiredDocumentIdProperty().getName();
		Stream<StorageRecord> records;
		try {
			records = docStore(entity.getCollection()).stream();
		}
		catch (RuntimeException ex) {
			throw this.exceptionTranslator.translate(ex);
		}
		return translating(records).map((record) -> new StorhDocument(record.id(), record.data(), idProperty))
			.filter(query::matches);
	}

	/**
	 * The sort with each property checked against the type and written as a dotted path.
	 */
	private Sort resolveSort(Sort sort, Class<?> type) {
		if (sort.isUnsorted()) {
			return sort;
		}
		List<Sort.Order> orders = new ArrayList<>();
		for (Sort.Order order : sort) {
			orders.add(order.withProperty(PropertyPath.from(order.getProperty(), type).toDotPath()));
		}
		return Sort.by(orders);
	}

	private <T> T read(Class<T> type, StorhDocument document) {
		return this.converter.read(type, new StorageRecord(document.id(), document.data()));
	}

	private <T> Stream<T> translating(Stream<T> source) {
		Spliterator<T> spliterator = source.spliterator();
		Spliterator<T> translating = new Spliterators.AbstractSpliterator<>(spliterator.estimateSize(),
				Spliterator.ORDERED | Spliterator.NONNULL) {

			@Override
			public boolean tryAdvance(Consumer<? super T> action) {
				try {
					return spliterator.tryAdvance(action);
				}
				catch (RuntimeException ex) {
					throw StorhTemplate.this.exceptionTranslator.translate(ex);
				}
			}

		};
		return StreamSupport.stream(translating, false).onClose(source::close);
	}

	private String checkId(String id, String collection) {
		if (!UuidV7.isValid(id)) {
			throw new InvalidDataAccessApiUsageException("Id '" + id + "' for collection '" + collection
					+ "' is not a valid UUIDv7 (36 characters like 018bcfe5-6800-7286-af1e-f6f686dbda0b); "
					+ "leave the id null to have one generated");
		}
		return id;
	}

	private DocStore open(String collection) {
		try {
			return DocStore.open(this.collectionsFolder, collection);
		}
		catch (RuntimeException ex) {
			throw this.exceptionTranslator.translate(ex);
		}
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
