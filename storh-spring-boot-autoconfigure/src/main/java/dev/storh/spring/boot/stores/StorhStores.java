package dev.storh.spring.boot.stores;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Supplier;

import dev.storh.doc.DocStore;
import dev.storh.log.LogPartition;
import dev.storh.log.SegmentedLog;
import dev.storh.log.SegmentedLogOptions;
import dev.storh.queue.Queue;
import dev.storh.store.Store;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.util.Assert;

/**
 * Every storh store of an application, by type and name: the DocStore collections (configured
 * ones and those the {@code StorhTemplate} and repositories use, opened on first use), the
 * segmented logs and the job queues. It is the one owner of the engine instances: the template,
 * health, metrics, the {@code storh} endpoint and the scheduled verify all reach stores through
 * it, and no two registries of one JVM open the same store folder (the second one fails with an
 * {@link IllegalStateException} naming the folder), so a collection is never open twice with
 * different options.
 * <p>
 * Stores live in one collections folder: collection {@code c} in {@code <folder>/c}, log
 * {@code l} in {@code <folder>/l} and queue {@code q} in {@code <folder>/q}; a name may be used by
 * one store only. Stores the registry opens itself ({@link #docStore}, {@link #openLog},
 * {@link #openQueue}) are closed by {@link #close()}, which removes their writer markers; stores
 * {@linkplain #register(String, SegmentedLog) registered} from elsewhere stay their owner's to
 * close.
 * <p>
 * Thread-safe: each store is opened at most once, under a per-registry lock held only while
 * opening.
 */
public class StorhStores implements AutoCloseable {

    private static final Log logger = LogFactory.getLog(StorhStores.class);

    private final Path collectionsFolder;

    private final StorhStoreOptions options;

    private final Map<String, StorhStore> stores = new ConcurrentHashMap<>();

    private final List<StorhStoresListener> listeners = new CopyOnWriteArrayList<>();

    private final Object openLock = new Object();

    private volatile Function<String, DocStore> docStoreOpener;

    private volatile boolean closed;

    /**
     * @param collectionsFolder the folder holding one sub-folder per store; a relative path is
     * resolved against the working directory now
     * @param options how each store is opened
     */
    public StorhStores(Path collectionsFolder, StorhStoreOptions options) {
        Assert.notNull(collectionsFolder, "'collectionsFolder' must not be null");
        Assert.notNull(options, "'options' must not be null");
        this.collectionsFolder = collectionsFolder.toAbsolutePath().normalize();
        this.options = options;
    }

    /**
     * @return the folder holding one sub-folder per store, absolute
     */
    public Path collectionsFolder() {
        return this.collectionsFolder;
    }

    /**
     * Makes {@link #docStore(String)} take collections from elsewhere (an application's own
     * {@code StorhOperations} over another registry) instead of opening them, so that one process
     * keeps one instance per collection. Such collections are not closed by this registry.
     * @param opener returns the open DocStore of a collection name
     */
    public void useDocStoreOpener(Function<String, DocStore> opener) {
        Assert.notNull(opener, "'opener' must not be null");
        this.docStoreOpener = opener;
    }

    /**
     * The collection's DocStore, opened on first call with the options' settings for it (and
     * {@linkplain StorhStoreOptions#prepare prepared}, e.g. its indexes synchronised).
     * @param collection the collection name
     * @return the open store, the same instance on every call
     * @throws IllegalStateException when the registry is closed, or the name is used by a log or
     * queue
     * @throws dev.storh.StorageException when the collection cannot be opened
     */
    public DocStore docStore(String collection) {
        Assert.hasText(collection, "'collection' must not be empty");
        return obtain(collection, StoreType.COLLECTION, CollectionStore.class, () -> openCollection(collection))
            .docStore();
    }

    /**
     * Opens a collection, or borrows it from the {@linkplain #useDocStoreOpener opener}, and
     * registers it; under the open lock.
     */
    private void openCollection(String collection) {
        Function<String, DocStore> opener = this.docStoreOpener;
        if (opener != null) {
            DocStore borrowed = opener.apply(collection);
            this.options.prepare(collection, borrowed);
            add(new CollectionStore(collection, borrowed, false));
            return;
        }
        openOwned(StoreType.COLLECTION, collection,
                () -> DocStore.open(this.collectionsFolder, collection, this.options.collection(collection)),
                (store) -> this.options.prepare(collection, store), (store) -> new CollectionStore(collection, store, true));
    }

    /**
     * Opens a log with the options' settings for it; the registry closes it.
     * @param name the log name
     * @return the open log
     * @throws IllegalStateException when the registry is closed or the name is taken
     * @throws dev.storh.StorageException when the log cannot be opened
     */
    public SegmentedLog openLog(String name) {
        Assert.hasText(name, "'name' must not be empty");
        synchronized (this.openLock) {
            checkOpen();
            requireFree(name, StoreType.LOG);
            SegmentedLogOptions logOptions = this.options.log(name);
            Supplier<SegmentedLog> opener = () -> SegmentedLog.open(this.collectionsFolder, name, this.options.log(name));
            return openOwned(StoreType.LOG, name, () -> SegmentedLog.open(this.collectionsFolder, name, logOptions),
                    (log) -> { },
                    (log) -> new LogStore(name, log, this.options.logRetentionDays(name), true, logOptions.partition(),
                            logOptions.clock(), opener));
        }
    }

    /**
     * The partitioned log of a name, opening it with {@link #openLog(String)} when the registry
     * has not yet.
     * @param name the log name; its options must partition it by date
     * @return a view that writes to the partition of the current date
     * @throws IllegalStateException when the name is not a partitioned log the registry opened
     */
    public PartitionedLog partitionedLog(String name) {
        Assert.hasText(name, "'name' must not be empty");
        synchronized (this.openLock) {
            LogStore store = known(name, LogStore.class);
            if (store == null) {
                openLog(name);
                store = known(name, LogStore.class);
            }
            if (store.partition() == LogPartition.NONE || !store.owned()) {
                throw new IllegalStateException("storh log '" + name + "' is not a partitioned log opened by the registry");
            }
            return new PartitionedLog(store);
        }
    }

    /**
     * Opens a queue with the options' settings for it; the registry closes it.
     * @param name the queue name
     * @return the open queue
     * @throws IllegalStateException when the registry is closed or the name is taken
     * @throws dev.storh.StorageException when the queue cannot be opened
     */
    public Queue openQueue(String name) {
        Assert.hasText(name, "'name' must not be empty");
        synchronized (this.openLock) {
            checkOpen();
            requireFree(name, StoreType.QUEUE);
            return openOwned(StoreType.QUEUE, name,
                    () -> Queue.open(this.collectionsFolder, name, this.options.queue(name)), (queue) -> { },
                    (queue) -> new QueueStore(name, queue, this.options.queueProcessingTimeout(name), true));
        }
    }

    /**
     * The queue of that name: the one already registered (opened here or
     * {@linkplain #register(String, Queue) registered}), else opened now like
     * {@link #openQueue(String)}.
     * @param name the queue name
     * @return the open queue, the same instance on every call
     * @throws IllegalStateException when the registry is closed, or the name is used by a
     * collection or log
     * @throws dev.storh.StorageException when the queue cannot be opened
     */
    public Queue queue(String name) {
        Assert.hasText(name, "'name' must not be empty");
        return obtain(name, StoreType.QUEUE, QueueStore.class, () -> openQueue(name)).queue();
    }

    /**
     * Adds a log opened elsewhere (e.g. an application's own bean); the registry does not close
     * it. Does nothing when the same instance is already registered.
     * @param name the name to show it under
     * @param log the log
     * @throws IllegalStateException when the name is taken by another store
     */
    public void register(String name, SegmentedLog log) {
        Assert.notNull(log, "'log' must not be null");
        registerExternal(name, log, StoreType.LOG, () -> new LogStore(name, log, this.options.logRetentionDays(name), false));
    }

    /**
     * Adds a queue opened elsewhere (e.g. an application's own bean); the registry does not close
     * it. Does nothing when the same instance is already registered.
     * @param name the name to show it under
     * @param queue the queue
     * @throws IllegalStateException when the name is taken by another store
     */
    public void register(String name, Queue queue) {
        Assert.notNull(queue, "'queue' must not be null");
        registerExternal(name, queue, StoreType.QUEUE,
                () -> new QueueStore(name, queue, this.options.queueProcessingTimeout(name), false));
    }

    /**
     * @return every store, ordered by type (collections, logs, queues) then name
     */
    public List<StorhStore> stores() {
        List<StorhStore> all = new ArrayList<>(this.stores.values());
        all.sort(Comparator.comparing(StorhStore::type).thenComparing(StorhStore::name));
        return all;
    }

    /**
     * @param type the kind of store
     * @return the stores of that kind, by name
     */
    public List<StorhStore> stores(StoreType type) {
        return stores().stream().filter((store) -> store.type() == type).toList();
    }

    /**
     * @param <S> the kind of store
     * @param kind {@code CollectionStore}, {@code LogStore} or {@code QueueStore}
     * @return the stores of that kind, by name
     */
    public <S extends StorhStore> List<S> stores(Class<S> kind) {
        return stores().stream().filter(kind::isInstance).map(kind::cast).toList();
    }

    /**
     * @param <S> the kind of store
     * @param kind {@code CollectionStore}, {@code LogStore} or {@code QueueStore}
     * @param name the store's name
     * @return the store, if one of that kind is registered under the name
     */
    public <S extends StorhStore> Optional<S> find(Class<S> kind, String name) {
        return Optional.ofNullable(known(name, kind));
    }

    /**
     * @param type the kind of store
     * @param name the store's name
     * @return the store, if registered
     */
    public Optional<StorhStore> find(StoreType type, String name) {
        StorhStore store = this.stores.get(name);
        return (store != null && store.type() == type) ? Optional.of(store) : Optional.empty();
    }

    /**
     * Adds a listener and tells it about every store already registered.
     * @param listener the listener
     */
    public void addListener(StorhStoresListener listener) {
        Assert.notNull(listener, "'listener' must not be null");
        synchronized (this.openLock) {
            this.listeners.add(listener);
            stores().forEach(listener::storeAdded);
        }
    }

    /**
     * Closes every store this registry opened (removing their writer markers) and forgets all
     * stores; later opens fail. Idempotent. A failure to close one store is logged and the others
     * are still closed.
     */
    @Override
    public void close() {
        Collection<StorhStore> all;
        synchronized (this.openLock) {
            this.closed = true;
            all = stores();
            this.stores.clear();
        }
        for (StorhStore store : all) {
            if (store.owned()) {
                try {
                    store.close();
                }
                catch (Exception ex) {
                    logger.warn("Could not close storh " + store, ex);
                }
            }
        }
        OpenFolders.releaseAll(this);
    }

    void fireOperation(StorhStore store, String operation, Duration duration, Throwable failure) {
        for (StorhStoresListener listener : this.listeners) {
            listener.operationCompleted(store, operation, duration, failure);
        }
    }

    void fireVerified(StorhStore store, VerifyResult result) {
        for (StorhStoresListener listener : this.listeners) {
            listener.verified(store, result);
        }
    }

    private void add(StorhStore store) {
        store.attach(this);
        this.stores.put(store.name(), store);
        for (StorhStoresListener listener : this.listeners) {
            listener.storeAdded(store);
        }
    }

    /**
     * Registers an engine opened elsewhere, unless the same instance is registered under the name.
     * @param store wraps the engine; called under the open lock once the name is known to be free
     */
    private void registerExternal(String name, Store<?, ?, ?> engine, StoreType type, Supplier<StorhStore> store) {
        synchronized (this.openLock) {
            StorhStore existing = this.stores.get(name);
            if (existing != null && existing.engine() == engine) {
                return;
            }
            requireFree(name, type);
            add(store.get());
        }
    }

    /**
     * Opens an engine this registry owns on a claimed folder and registers it; when opening or
     * preparing fails, the engine is closed again and the folder released.
     */
    private <E extends Store<?, ?, ?>> E openOwned(StoreType type, String name, Supplier<E> open, Consumer<E> prepare,
            Function<E, StorhStore> wrap) {
        Path folder = claim(type, name);
        E engine = null;
        try {
            engine = open.get();
            prepare.accept(engine);
        }
        catch (RuntimeException ex) {
            if (engine != null) {
                engine.close();
            }
            OpenFolders.release(folder, this);
            throw ex;
        }
        add(wrap.apply(engine));
        return engine;
    }

    /**
     * @return the store of that name when it is of that kind, else {@code null}; no lock taken
     */
    private <S extends StorhStore> S known(String name, Class<S> kind) {
        StorhStore store = this.stores.get(name);
        return kind.isInstance(store) ? kind.cast(store) : null;
    }

    /**
     * The registered store of a name, opening it first when there is none.
     * @param open opens and registers the store; called under the open lock
     * @throws IllegalStateException when the registry is closed, or the name is used by a store of
     * another type
     */
    private <S extends StorhStore> S obtain(String name, StoreType type, Class<S> kind, Runnable open) {
        S known = known(name, kind);
        if (known != null) {
            return known;
        }
        synchronized (this.openLock) {
            checkOpen();
            if (checkName(name, type) == null) {
                open.run();
            }
            return kind.cast(this.stores.get(name));
        }
    }

    private StorhStore checkName(String name, StoreType type) {
        StorhStore existing = this.stores.get(name);
        if (existing != null && existing.type() != type) {
            throw new IllegalStateException("Cannot use '" + name + "' as a storh " + type.tag() + ": it is the "
                    + existing.type().tag() + " in " + existing.path());
        }
        return existing;
    }

    private void requireFree(String name, StoreType type) {
        StorhStore existing = checkName(name, type);
        if (existing != null) {
            throw new IllegalStateException("The storh " + type.tag() + " '" + name + "' is already open in "
                    + existing.path());
        }
    }

    private Path claim(StoreType type, String name) {
        Path folder = OpenFolders.folderOf(this.collectionsFolder, type, name);
        OpenFolders.claim(folder, this, type.tag() + " '" + name + "'");
        return folder;
    }

    private void checkOpen() {
        if (this.closed) {
            throw new IllegalStateException("StorhStores for " + this.collectionsFolder + " is closed");
        }
    }

}
