package dev.storh.azure.blob.spring;

import dev.storh.azure.blob.AzureBlobBackend;
import dev.storh.spring.boot.stores.StoreType;
import dev.storh.spring.boot.stores.StorhStore;
import dev.storh.spring.boot.stores.StorhStores;
import java.util.List;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.health.contributor.Health;

/**
 * The starter's {@code storh} health component when the stores live in a blob container
 * ({@code storh.backend=azure-blob}): the local collections folder holds nothing then, so instead
 * of checking it, this checks the container (UP when it exists, DOWN naming it otherwise, see
 * {@link StorhAzureBlobHealthIndicator}) and names the stores Boot opened in it.
 *
 * <p>Details: {@code backend} ({@code azure-blob}), {@code container}, {@code url}, {@code layout},
 * and {@code collections}, {@code logs}, {@code queues} (the names of the open stores of each kind,
 * sorted). Read-only, one request per check; thread-safe.
 */
public class StorhBlobStoresHealthIndicator extends StorhAzureBlobHealthIndicator {

    private final ObjectProvider<StorhStores> stores;

    /**
     * @param backend the container the stores are in
     * @param stores the starter's registry (looked up at each check; none, no store names)
     */
    public StorhBlobStoresHealthIndicator(AzureBlobBackend backend, ObjectProvider<StorhStores> stores) {
        super(backend);
        this.stores = stores;
    }

    @Override
    protected void moreDetails(Health.Builder builder) {
        StorhStores registry = stores.getIfAvailable();
        if (registry == null) {
            return;
        }
        builder.withDetail("collections", names(registry, StoreType.COLLECTION)).withDetail("logs", names(registry, StoreType.LOG))
                .withDetail("queues", names(registry, StoreType.QUEUE));
    }

    private static List<String> names(StorhStores registry, StoreType type) {
        return registry.stores(type).stream().map(StorhStore::name).sorted().toList();
    }
}
