package dev.storh.spring.boot.autoconfigure;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

import dev.storh.StorageException;
import dev.storh.cache.Cache;
import dev.storh.cache.CacheValidation;
import dev.storh.doc.DocStore;
import dev.storh.doc.DocStoreOptions;
import dev.storh.fs.LocalFiles;
import dev.storh.fs.StoreFiles;
import dev.storh.observe.StoreObserver;
import dev.storh.doc.index.IndexManager;
import dev.storh.log.SegmentedLogOptions;
import dev.storh.queue.QueueOptions;
import dev.storh.spring.boot.stores.StorhStoreOptions;
import dev.storh.spring.data.core.IndexLayouts;

import org.springframework.scheduling.support.CronExpression;
import org.springframework.util.StringUtils;
import org.springframework.util.unit.DataSize;

/**
 * {@link StorhStoreOptions} from {@link StorhProperties}: {@code storh.cache},
 * {@code storh.collections.<name>} (its index layout through {@link IndexLayouts}),
 * {@code storh.logs.<name>}, {@code storh.queues.<name>}.
 * {@link #validate()} checks every value at startup and throws an
 * {@link InvalidStorhPropertyException} naming the first bad property. The shared cache of
 * {@code storh.cache} is created once, here, and used by every collection without its own.
 */
class StorhPropertiesStoreOptions implements StorhStoreOptions {

    private static final Duration DAY = Duration.ofDays(1);

    private final StorhProperties properties;

    private final Clock clock;

    private final StoreObserver observer;

    private final Function<Path, StoreFiles> files;

    private final Map<String, Cache> caches = new HashMap<>();

    private Cache sharedCache;

    /**
     * @param properties the bound properties, checked now
     * @throws InvalidStorhPropertyException naming the first bad property
     */
    StorhPropertiesStoreOptions(StorhProperties properties) {
        this(properties, Clock.systemUTC(), StoreObserver.NONE, LocalFiles::at);
    }

    /**
     * @param properties the bound properties, checked now
     * @param clock the clock of log partitions and retention
     * @param observer told the latency of each store's operations and fsyncs
     * @param files the byte seam of each store folder (the backend)
     * @throws InvalidStorhPropertyException naming the first bad property
     */
    StorhPropertiesStoreOptions(StorhProperties properties, Clock clock, StoreObserver observer,
            Function<Path, StoreFiles> files) {
        this.properties = properties;
        this.clock = clock;
        this.observer = observer;
        this.files = files;
        validate();
    }

    /**
     * Checks every storh property storh gives meaning to.
     * @throws InvalidStorhPropertyException naming the first bad property
     */
    private void validate() {
        this.sharedCache = cache("storh.cache", this.properties.cache());
        Map<String, String> owners = new HashMap<>();
        this.properties.collections().forEach((name, collection) -> {
            String prefix = "storh.collections." + name;
            checkName(prefix, name, owners);
            if (collection.cache().maxEntries() != null || collection.cache().maxBytes() != null) {
                this.caches.put(name, cache(prefix + ".cache", collection.cache()));
            }
            List<StorhCollectionProperties.Index> indexes = collection.indexes();
            for (int i = 0; i < indexes.size(); i++) {
                if (!StringUtils.hasText(indexes.get(i).field())) {
                    throw new InvalidStorhPropertyException(prefix + ".indexes[" + i + "].field",
                            indexes.get(i).field(), "An index needs the name of the field it indexes.");
                }
            }
        });
        this.properties.logs().forEach((name, log) -> {
            checkName("storh.logs." + name, name, owners);
            log(name);
            logRetentionDays(name);
        });
        this.properties.queues().forEach((name, queue) -> {
            checkName("storh.queues." + name, name, owners);
            queueProcessingTimeout(name);
        });
        StorhVerifyProperties verify = this.properties.verify();
        if (StringUtils.hasText(verify.cron()) && verify.interval() != null) {
            throw new InvalidStorhPropertyException("storh.verify.interval", verify.interval(),
                    "Set either storh.verify.cron or storh.verify.interval, not both (cron is '" + verify.cron()
                            + "').");
        }
        if (StringUtils.hasText(verify.cron())) {
            try {
                CronExpression.parse(verify.cron());
            }
            catch (IllegalArgumentException ex) {
                throw new InvalidStorhPropertyException("storh.verify.cron", verify.cron(), ex.getMessage(), ex);
            }
        }
        if (verify.interval() != null && (verify.interval().isNegative() || verify.interval().isZero())) {
            throw new InvalidStorhPropertyException("storh.verify.interval", verify.interval(),
                    "The verify interval must be positive.");
        }
    }

    @Override
    public DocStoreOptions collection(String collection) {
        StorhCollectionProperties settings = this.properties.collections().get(collection);
        Cache cache = this.caches.getOrDefault(collection, this.sharedCache);
        CacheValidation validation = this.properties.cache().validation();
        if (settings != null && settings.cache().validation() != null) {
            validation = settings.cache().validation();
        }
        DocStoreOptions.Builder builder = DocStoreOptions.builder().observer(this.observer).files(this.files);
        if (cache != null) {
            builder.cache(cache);
        }
        if (validation != null) {
            builder.cacheValidation(validation);
        }
        return builder.build();
    }

    @Override
    public void prepare(String collection, DocStore store) {
        StorhCollectionProperties settings = this.properties.collections().get(collection);
        StorhCollectionProperties.IndexLayout layout = (settings != null) ? settings.indexLayout() : null;
        IndexLayouts.prepare(store, (layout != null) ? layout == StorhCollectionProperties.IndexLayout.VALUE_DELTAS : null);
        if (settings == null || settings.indexes().isEmpty()) {
            return;
        }
        IndexManager indexes = store.indexes();
        for (StorhCollectionProperties.Index index : settings.indexes()) {
            indexes.defineField(index.field(), index.unique(), index.range());
        }
        indexes.sync();
    }

    @Override
    public SegmentedLogOptions log(String log) {
        StorhLogProperties settings = this.properties.logs().get(log);
        if (settings == null) {
            return SegmentedLogOptions.builder().observer(this.observer).files(this.files).build();
        }
        String prefix = "storh.logs." + log;
        SegmentedLogOptions.Builder builder = SegmentedLogOptions.builder().clock(this.clock).observer(this.observer)
                .files(this.files);
        DataSize maxSegment = settings.maxSegmentBytes();
        try {
            builder.maxSegmentBytes(maxSegment.toBytes());
        }
        catch (StorageException ex) {
            throw new InvalidStorhPropertyException(prefix + ".max-segment-bytes", maxSegment, ex.getMessage(), ex);
        }
        try {
            builder.sparseIndexInterval(settings.sparseIndexInterval());
        }
        catch (StorageException ex) {
            throw new InvalidStorhPropertyException(prefix + ".sparse-index-interval",
                    settings.sparseIndexInterval(), ex.getMessage(), ex);
        }
        if (settings.partition() != null) {
            builder.partition(settings.partition());
        }
        return builder.build();
    }

    @Override
    public Integer logRetentionDays(String log) {
        StorhLogProperties settings = this.properties.logs().get(log);
        Duration retention = (settings != null) ? settings.retention() : null;
        if (retention == null) {
            return null;
        }
        if (retention.compareTo(DAY) < 0 || !retention.equals(Duration.ofDays(retention.toDays()))) {
            throw new InvalidStorhPropertyException("storh.logs." + log + ".retention", retention,
                    "Retention is counted in whole days and must be at least 1d (e.g. 90d).");
        }
        if (retention.toDays() > Integer.MAX_VALUE) {
            throw new InvalidStorhPropertyException("storh.logs." + log + ".retention", retention,
                    "Retention must be at most " + Integer.MAX_VALUE + " days.");
        }
        return (int) retention.toDays();
    }

    @Override
    public QueueOptions queue(String queue) {
        return QueueOptions.builder().observer(this.observer).files(this.files).build();
    }

    @Override
    public Duration queueProcessingTimeout(String queue) {
        StorhQueueProperties settings = this.properties.queues().get(queue);
        if (settings == null) {
            return StorhStoreOptions.super.queueProcessingTimeout(queue);
        }
        Duration timeout = settings.processingTimeout();
        if (timeout == null || timeout.isNegative()) {
            throw new InvalidStorhPropertyException("storh.queues." + queue + ".processing-timeout", timeout,
                    "The processing timeout must be zero or more (e.g. 15m).");
        }
        return timeout;
    }

    private static Cache cache(String prefix, StorhCacheProperties settings) {
        Long maxEntries = settings.maxEntries();
        DataSize maxBytes = settings.maxBytes();
        if (maxEntries == null) {
            if (maxBytes != null) {
                throw new InvalidStorhPropertyException(prefix + ".max-entries", null,
                        "A cache bounded by " + prefix + ".max-bytes=" + maxBytes + " also needs max-entries.");
            }
            return null;
        }
        if (maxEntries < 1) {
            throw new InvalidStorhPropertyException(prefix + ".max-entries", maxEntries,
                    "A cache keeps at least 1 entry.");
        }
        if (maxBytes == null) {
            return Cache.memory(maxEntries);
        }
        if (maxBytes.toBytes() < 1) {
            throw new InvalidStorhPropertyException(prefix + ".max-bytes", maxBytes, "A cache keeps at least 1B.");
        }
        return Cache.memory(maxEntries, maxBytes.toBytes());
    }

    private static void checkName(String prefix, String name, Map<String, String> owners) {
        if (name.isEmpty() || name.equals(".") || name.equals("..") || name.contains("/") || name.contains("\\")
                || name.indexOf('\0') >= 0) {
            throw new InvalidStorhPropertyException(prefix, name,
                    "A store name is one folder name: not empty, '.', '..', and without '/' or '\\'.");
        }
        String previous = owners.putIfAbsent(name, prefix);
        if (previous != null) {
            throw new InvalidStorhPropertyException(prefix, name,
                    "The name '" + name + "' is already used by " + previous + "; each store needs its own folder.");
        }
    }

}
