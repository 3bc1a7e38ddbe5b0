package dev.storh.spring.boot.actuate;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

import dev.storh.doc.index.IndexDefinition;
import dev.storh.log.LogStats;
import dev.storh.progress.Progress;
import dev.storh.queue.QueueStats;
import dev.storh.spring.boot.stores.BucketSizes;
import dev.storh.spring.boot.stores.CollectionStore;
import dev.storh.spring.boot.stores.LogStore;
import dev.storh.spring.boot.stores.QueueStore;
import dev.storh.spring.boot.stores.StoreType;
import dev.storh.spring.boot.stores.StorhStore;
import dev.storh.spring.boot.stores.StorhStores;
import dev.storh.spring.boot.stores.VerifyResult;

import org.springframework.boot.actuate.endpoint.Access;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.boot.actuate.endpoint.annotation.Selector;
import org.springframework.boot.actuate.endpoint.annotation.WriteOperation;
import org.jspecify.annotations.Nullable;

import org.springframework.util.Assert;

/**
 * The {@code storh} Actuator endpoint: every store of a {@link StorhStores} registry with its
 * state on disk, and maintenance operations.
 * <ul>
 * <li>{@code GET /actuator/storh}: {@link StoresDescriptor} with {@code root} and the
 * {@code collections}, {@code logs} and {@code queues} by name;</li>
 * <li>{@code GET /actuator/storh/{type}/{name}} ({@code type} = {@code collections},
 * {@code logs}, {@code queues}): one store's descriptor, 404 when unknown;</li>
 * <li>{@code POST /actuator/storh/{type}/{name}} with {@code {"operation":"verify"}} (or
 * {@code repair}, {@code compact}, {@code reindex}): runs the operation and answers its report.
 * Write operations need {@code management.endpoint.storh.access=unrestricted}: the endpoint's
 * default access is read-only.</li>
 * </ul>
 * A collection's descriptor lists its 256 bucket sizes (a listing, no record is read), indexes,
 * writer markers (live and stale) and last verify; a log's its segments, records and bytes; a
 * queue's its job counts, {@code dead} being the jobs waiting in its dead-letter queue. Each has
 * {@code verifyProgress} while a verify of the store runs (e.g. the scheduled one):
 * {@code operation}, {@code done}, {@code total}, {@code bytes}, {@code totalBytes},
 * {@code elapsedMs}, {@code percent}; {@code null} otherwise. Reads are cheap enough to call
 * often; {@code verify} reads every record.
 */
@Endpoint(id = "storh", defaultAccess = Access.READ_ONLY)
public class StorhEndpoint {

    private static final Set<String> OPERATIONS = Set.of("verify", "repair", "compact", "reindex");

    private final StorhStores stores;

    private volatile Function<String, String> deadLetterQueues = (queue) -> queue + ".dead";

    /**
     * @param stores the registry to show
     */
    public StorhEndpoint(StorhStores stores) {
        Assert.notNull(stores, "'stores' must not be null");
        this.stores = stores;
    }

    /**
     * Sets where a queue's {@code dead} count comes from (default: the queue named
     * {@code <queue>.dead}).
     * @param deadLetterQueues the dead-letter queue's name for a queue's name
     */
    public void setDeadLetterQueues(Function<String, String> deadLetterQueues) {
        Assert.notNull(deadLetterQueues, "'deadLetterQueues' must not be null");
        this.deadLetterQueues = deadLetterQueues;
    }

    /**
     * @return every store, by type then name
     */
    @ReadOperation
    public StoresDescriptor stores() {
        Map<String, Object> collections = new LinkedHashMap<>();
        Map<String, Object> logs = new LinkedHashMap<>();
        Map<String, Object> queues = new LinkedHashMap<>();
        for (StorhStore store : this.stores.stores()) {
            Object descriptor = describe(store);
            switch (store.type()) {
                case COLLECTION -> collections.put(store.name(), descriptor);
                case LOG -> logs.put(store.name(), descriptor);
                case QUEUE -> queues.put(store.name(), descriptor);
            }
        }
        return new StoresDescriptor(this.stores.collectionsFolder().toString(), collections, logs, queues);
    }

    /**
     * @param type {@code collections}, {@code logs} or {@code queues} (singular accepted)
     * @param name the store's name
     * @return the store's descriptor, or {@code null} (404) when there is no such store
     */
    @ReadOperation
    public @Nullable Object store(@Selector String type, @Selector String name) {
        StorhStore store = find(type, name);
        return (store != null) ? describe(store) : null;
    }

    /**
     * Runs a maintenance operation on one store.
     * @param type {@code collections}, {@code logs} or {@code queues} (singular accepted)
     * @param name the store's name
     * @param operation {@code verify}, {@code repair}, {@code compact} or {@code reindex}
     * (collections only)
     * @return {@code store}, {@code operation} and the {@code report} in the spec's JSON shape,
     * or {@code null} (404) when there is no such store
     * @throws IllegalArgumentException (400) for an unknown operation, or reindex of a log or
     * queue
     * @throws dev.storh.StorageException when the operation fails
     */
    @WriteOperation
    public @Nullable Map<String, Object> run(@Selector String type, @Selector String name, String operation) {
        StorhStore store = find(type, name);
        if (store == null) {
            return null;
        }
        if (!OPERATIONS.contains(operation)) {
            throw new IllegalArgumentException(
                    "Unknown storh operation '" + operation + "'; use one of verify, repair, compact, reindex");
        }
        Object report;
        try {
            report = switch (operation) {
                case "verify" -> store.verify().toMap();
                case "repair" -> store.repair();
                case "compact" -> store.compact();
                default -> store.reindex();
            };
        }
        catch (UnsupportedOperationException ex) {
            throw new IllegalArgumentException(ex.getMessage(), ex);
        }
        Map<String, Object> result = new LinkedHashMap<>();
        result.put("store", store.type().plural() + "/" + store.name());
        result.put("operation", operation);
        result.put("report", report);
        return result;
    }

    private StorhStore find(String type, String name) {
        StoreType storeType = StoreType.parse(type);
        return (storeType != null) ? this.stores.find(storeType, name).orElse(null) : null;
    }

    private Object describe(StorhStore store) {
        Map<String, Object> lastVerify = store.lastVerify().map(VerifyResult::toMap).orElse(null);
        if (lastVerify != null) {
            store.lastVerifyBytes().ifPresent((bytes) -> lastVerify.put("bytes", bytes));
        }
        Map<String, Object> progress = store.verifyProgress().map(Progress::toMap).orElse(null);
        WritersDescriptor writers = (store.type() == StoreType.QUEUE) ? null : writers(store);
        return store.accept(new StorhStore.Visitor<Object>() {

            @Override
            public Object collection(CollectionStore collection) {
                BucketSizes sizes = collection.bucketSizes();
                List<IndexDescriptor> indexes = collection.docStore().indexes().definitions().stream()
                    .map(IndexDescriptor::of)
                    .toList();
                return new CollectionDescriptor(store.path().toString(), sizes.total(), BucketsDescriptor.of(sizes),
                        indexes, writers, lastVerify, progress);
            }

            @Override
            public Object log(LogStore log) {
                LogStats stats = log.log().stats();
                return new LogDescriptor(store.path().toString(), stats.segments(), stats.records(), stats.deleted(),
                        stats.bytes(), log.retentionDays(), writers, lastVerify, progress);
            }

            @Override
            public Object queue(QueueStore queue) {
                QueueStats stats = queue.queue().stats();
                return new QueueDescriptor(store.path().toString(), stats.pending(), stats.processing(), stats.done(),
                        dead(store.name()), stats.bytes(), queue.processingTimeout().toSeconds(), lastVerify, progress);
            }

        });
    }

    private long dead(String queue) {
        String deadLetters = this.deadLetterQueues.apply(queue);
        return this.stores.find(StoreType.QUEUE, deadLetters)
            .map((store) -> ((QueueStore) store).queue().counts())
            .map((counts) -> counts.pending() + counts.processing())
            .orElse(0L);
    }

    private static WritersDescriptor writers(StorhStore store) {
        return new WritersDescriptor(store.liveWriters(), store.staleWriters().stream().map(Object::toString).toList());
    }

    /**
     * All stores.
     * @param root the collections folder, absolute
     * @param collections {@link CollectionDescriptor} by collection name
     * @param logs {@link LogDescriptor} by log name
     * @param queues {@link QueueDescriptor} by queue name
     */
    public record StoresDescriptor(String root, Map<String, Object> collections, Map<String, Object> logs,
            Map<String, Object> queues) {
    }

    /**
     * One collection.
     * @param path the collection folder
     * @param records record files (the sum of the bucket counts)
     * @param buckets the bucket sizes
     * @param indexes the declared indexes, by field
     * @param writers live and stale writer markers
     * @param lastVerify the last verify ({@code at}, {@code ok}, {@code errors},
     * {@code durationMs}, {@code repaired}, and {@code bytes}: the bytes of the record files it
     * read), or {@code null} before the first
     * @param verifyProgress the progress of a verify running now, or {@code null}
     */
    public record CollectionDescriptor(String path, long records, BucketsDescriptor buckets,
            List<IndexDescriptor> indexes, WritersDescriptor writers, @Nullable Map<String, Object> lastVerify,
            @Nullable Map<String, Object> verifyProgress) {
    }

    /**
     * One index of a collection.
     * @param field the indexed field
     * @param kind {@code equality} or {@code range}
     * @param unique whether values must be unique
     */
    public record IndexDescriptor(String field, String kind, boolean unique) {

        static IndexDescriptor of(IndexDefinition definition) {
            return new IndexDescriptor(definition.field(), definition.range() ? "range" : "equality",
                    definition.unique());
        }

    }

    /**
     * The record files per bucket folder of a collection.
     * @param count the number of buckets, 256
     * @param total the record files in all buckets
     * @param min files in the emptiest bucket
     * @param max files in the fullest bucket
     * @param mean mean files per bucket
     * @param sizes files per bucket, {@code "00"} to {@code "ff"}
     */
    public record BucketsDescriptor(int count, long total, int min, int max, double mean, Map<String, Integer> sizes) {

        static BucketsDescriptor of(BucketSizes sizes) {
            return new BucketsDescriptor(BucketSizes.BUCKETS, sizes.total(), sizes.min(), sizes.max(), sizes.mean(),
                    sizes.byBucket());
        }

    }

    /**
     * Writer markers of a store ({@code .storh/writers/}).
     * @param live marker names of writers whose process is alive
     * @param stale absolute paths of markers left by crashed writers
     */
    public record WritersDescriptor(List<String> live, List<String> stale) {
    }

    /**
     * One log.
     * @param path the log folder (the partition folder when partitioned)
     * @param segments segment files
     * @param records live records
     * @param deleted tombstones
     * @param bytes bytes of the segment files
     * @param retentionDays the configured retention, or {@code null}
     * @param writers live and stale writer markers
     * @param lastVerify the last verify, or {@code null} before the first
     * @param verifyProgress the progress of a verify running now, or {@code null}
     */
    public record LogDescriptor(String path, long segments, long records, long deleted, long bytes,
            @Nullable Integer retentionDays, WritersDescriptor writers, @Nullable Map<String, Object> lastVerify,
            @Nullable Map<String, Object> verifyProgress) {
    }

    /**
     * One queue.
     * @param path the queue folder
     * @param pending jobs waiting to be claimed
     * @param processing claimed jobs not yet completed
     * @param done completed jobs kept
     * @param dead jobs waiting in the queue's dead-letter queue (pending or processing there; 0
     * when it has none)
     * @param bytes size of {@code queue.log}
     * @param processingTimeoutSeconds the claim age past which a repair requeues a job
     * @param lastVerify the last verify, or {@code null} before the first
     * @param verifyProgress the progress of a verify running now, or {@code null}
     */
    public record QueueDescriptor(String path, long pending, long processing, long done, long dead, long bytes,
            long processingTimeoutSeconds, @Nullable Map<String, Object> lastVerify,
            @Nullable Map<String, Object> verifyProgress) {
    }

}
