package dev.storh.spring.boot.mirror;

import java.util.List;

import dev.storh.mirror.MirrorSource;
import dev.storh.schema.Schema;
import dev.storh.spring.boot.stores.LogStore;
import dev.storh.spring.boot.stores.StorhStores;
import dev.storh.spring.data.mapping.StorhMappingContext;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.beans.factory.SmartInitializingSingleton;

/**
 * Registers the configured collections with the application's {@link StorhMirror} once every
 * singleton exists (so the repositories' entities are mapped and give the typed columns), then
 * creates the tables and, when asked, pushes once. A name that is a configured log mirrors the
 * log; any other name mirrors the DocStore collection of that name.
 */
public class StorhMirrorInitializer implements SmartInitializingSingleton {

    private static final Log logger = LogFactory.getLog(StorhMirrorInitializer.class);

    private final StorhMirror mirror;

    private final StorhStores stores;

    private final StorhMappingContext mappingContext;

    private final List<String> collections;

    private final boolean install;

    private final boolean push;

    /**
     * @param mirror the mirror to fill
     * @param stores where the collections come from
     * @param mappingContext mapped entities, for typed columns (may be {@code null})
     * @param collections the collection and log names
     * @param install whether to create missing tables
     * @param push whether to push once at startup
     */
    public StorhMirrorInitializer(StorhMirror mirror, StorhStores stores, StorhMappingContext mappingContext,
            List<String> collections, boolean install, boolean push) {
        this.mirror = mirror;
        this.stores = stores;
        this.mappingContext = mappingContext;
        this.collections = List.copyOf(collections);
        this.install = install;
        this.push = push;
    }

    @Override
    public void afterSingletonsInstantiated() {
        for (String name : this.collections) {
            var log = this.stores.find(LogStore.class, name);
            if (log.isPresent()) {
                this.mirror.sqlMirror().collection(MirrorSource.of(log.get().log()), name, null);
                continue;
            }
            Schema schema = (this.mappingContext != null) ? EntitySchemas.of(this.mappingContext, name) : null;
            this.mirror.sqlMirror().collection(MirrorSource.of(this.stores.docStore(name)), name, schema);
        }
        if (this.install) {
            this.mirror.sqlMirror().install();
        }
        if (this.push) {
            logger.info("storh mirror push at startup: " + this.mirror.push());
        }
    }

}
