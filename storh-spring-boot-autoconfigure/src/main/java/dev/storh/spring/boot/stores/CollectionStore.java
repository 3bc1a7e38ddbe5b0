package dev.storh.spring.boot.stores;

import java.time.Duration;
import java.util.Map;

import dev.storh.doc.DocStore;

/**
 * A DocStore collection in a {@link StorhStores} registry, with its bucket sizes.
 */
public final class CollectionStore extends StorhStore {

    private volatile Snapshot snapshot;

    CollectionStore(String name, DocStore store, boolean owned) {
        super(name, owned, store);
    }

    /**
     * @return the DocStore
     */
    public DocStore docStore() {
        return (DocStore) engine();
    }

    /**
     * The record files per bucket from the DocStore's id listing, which is cached between calls:
     * only bucket folders changed since the last listing are listed again (see
     * {@link DocStore#ids()}); no record is read.
     * @return the record files per bucket
     */
    public BucketSizes bucketSizes() {
        BucketSizes sizes = BucketSizes.ofIds(docStore().ids());
        this.snapshot = new Snapshot(sizes, System.nanoTime());
        return sizes;
    }

    /**
     * The bucket sizes of a count at most {@code maxAge} old, counting again when the last one is
     * older; for metrics, which may be read often.
     * @param maxAge the oldest acceptable listing
     * @return the record files per bucket
     */
    public BucketSizes bucketSizes(Duration maxAge) {
        Snapshot last = this.snapshot;
        if (last != null && System.nanoTime() - last.nanos() <= maxAge.toNanos()) {
            return last.sizes();
        }
        return bucketSizes();
    }

    @Override
    Map<String, Object> doReindex() {
        return docStore().reindex().toMap();
    }

    private record Snapshot(BucketSizes sizes, long nanos) {
    }

    @Override
    public <R> R accept(Visitor<R> visitor) {
        return visitor.collection(this);
    }

}
