package dev.storh.spring.boot.autoconfigure;

import dev.storh.log.SegmentedLog;
import dev.storh.queue.Queue;
import dev.storh.spring.boot.stores.StorhStores;
import dev.storh.spring.data.core.StorhOperations;
import dev.storh.spring.data.core.StorhTemplate;

import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.beans.factory.SmartInitializingSingleton;

/**
 * Completes the {@link StorhStores} registry once every singleton exists: takes collections
 * from the application's own {@link StorhOperations} when it is not a {@link StorhTemplate} over
 * this registry (so each collection is opened once, by the registry the operations use), adds the application's own
 * {@link SegmentedLog} and {@link Queue} beans, and opens every {@code storh.collections.<name>}
 * (defining its indexes), so all of them show in health, metrics and the endpoint from startup.
 *
 * @param stores the registry to complete
 * @param properties the bound {@code storh.*} properties
 * @param beanFactory where the application's operations, logs and queues are found
 */
record StorhStoresInitializer(StorhStores stores, StorhProperties properties, ListableBeanFactory beanFactory)
        implements SmartInitializingSingleton {

    @Override
    public void afterSingletonsInstantiated() {
        StorhOperations operations = this.beanFactory.getBeanProvider(StorhOperations.class).getIfUnique();
        if (operations != null && !(operations instanceof StorhTemplate template && template.getStores() == this.stores)) {
            this.stores.useDocStoreOpener(operations::docStore);
        }
        this.beanFactory.getBeansOfType(SegmentedLog.class, false, false).forEach(this.stores::register);
        this.beanFactory.getBeansOfType(Queue.class, false, false).forEach(this.stores::register);
        for (String collection : this.properties.collections().keySet()) {
            this.stores.docStore(collection);
        }
    }

}
