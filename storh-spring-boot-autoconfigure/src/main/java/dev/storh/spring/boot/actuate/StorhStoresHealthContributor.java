package dev.storh.spring.boot.actuate;

import java.util.stream.Stream;

import dev.storh.spring.boot.stores.StoreType;
import dev.storh.spring.boot.stores.StorhStores;

import org.springframework.boot.health.contributor.CompositeHealthContributor;
import org.springframework.boot.health.contributor.HealthContributor;
import org.springframework.util.Assert;

/**
 * A composite with one {@link StorhStoreHealthIndicator} per store of one type, named by store
 * name, e.g. {@code /actuator/health/storhCollections/cities}. It follows the registry: a
 * collection opened after startup shows from the next health call.
 */
public class StorhStoresHealthContributor implements CompositeHealthContributor {

    private final StorhStores stores;

    private final StoreType type;

    /**
     * @param stores the registry
     * @param type the kind of store this composite shows
     */
    public StorhStoresHealthContributor(StorhStores stores, StoreType type) {
        Assert.notNull(stores, "'stores' must not be null");
        Assert.notNull(type, "'type' must not be null");
        this.stores = stores;
        this.type = type;
    }

    @Override
    public HealthContributor getContributor(String name) {
        return this.stores.find(this.type, name).map(StorhStoreHealthIndicator::new).orElse(null);
    }

    @Override
    public Stream<Entry> stream() {
        return this.stores.stores(this.type)
            .stream()
            .map((store) -> new Entry(store.name(), new StorhStoreHealthIndicator(store)));
    }

}
