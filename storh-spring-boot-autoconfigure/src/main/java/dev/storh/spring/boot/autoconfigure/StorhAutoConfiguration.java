package dev.storh.spring.boot.autoconfigure;

import java.nio.file.Path;
import java.time.Clock;

import dev.storh.StorageRoot;
import dev.storh.doc.DocStore;
import dev.storh.observe.StoreObserver;
import dev.storh.spring.data.core.StorhEntityConverter;
import dev.storh.spring.boot.stores.StoreFilesFactory;
import dev.storh.spring.boot.stores.StorhStore;
import dev.storh.spring.boot.stores.StorhStores;
import dev.storh.spring.data.core.StorhOperations;
import dev.storh.spring.data.core.StorhTemplate;
import dev.storh.spring.data.mapping.StorhMappingContext;

import tools.jackson.databind.json.JsonMapper;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;

/**
 * Auto-configuration of storh's core beans: the {@link StorageRoot} ({@code storh.root}), the
 * {@link StorhMappingContext} and the {@link StorhTemplate} named {@code storhTemplate}, whose
 * collections folder is {@code storh.root} or, with {@code storh.namespace}, the namespace folder
 * below it. Entities are converted by a {@link StorhEntityConverter} over the application's
 * Jackson {@link JsonMapper} bean when there is one (so its settings and modules apply), copied
 * with the storage settings of {@link StorhEntityConverter#forStorage} (unknown properties
 * ignored, ISO-8601 dates, sortable instants); otherwise over
 * {@link StorhEntityConverter#defaultJsonMapper()}. Each bean backs off
 * when the application defines its own.
 * <p>
 * Also the {@link StorhStores} registry of every collection, log and queue (opened with the
 * options of {@code storh.cache}, {@code storh.collections.<name>}, {@code storh.logs.<name>} and
 * {@code storh.queues.<name>}, closed on shutdown), a {@code SegmentedLog} bean per
 * {@code storh.logs.<name>} and a {@code Queue} bean per {@code storh.queues.<name>} (see
 * {@link StorhStoreBeansRegistrar}). Bad values fail startup with an
 * {@link InvalidStorhPropertyException} naming the property; a storage folder that cannot be
 * used (a regular file, below a regular file, not writable) with an
 * {@link UnusableStorhRootException} naming the path, checked without writing anything. A
 * {@link Clock} bean named {@code storhClock}, when defined, is the clock of log partitions and
 * retention (default: the system UTC clock). A {@link StoreFilesFactory} bean, when defined, puts every
 * store Boot opens on another backend than the local file system (e.g. Azure Blob Storage).
 */
@AutoConfiguration(afterName = "org.springframework.boot.jackson.autoconfigure.JacksonAutoConfiguration")
@ConditionalOnClass({ DocStore.class, StorhTemplate.class })
@EnableConfigurationProperties(StorhProperties.class)
@Import(StorhStoreBeansRegistrar.class)
public final class StorhAutoConfiguration {

    @Bean
    @ConditionalOnMissingBean
    StorageRoot storageRoot(StorhProperties properties) {
        return StorageRoot.at(properties.root());
    }

    @Bean
    @ConditionalOnMissingBean
    StorhMappingContext storhMappingContext() {
        return new StorhMappingContext();
    }

    @Bean
    @ConditionalOnMissingBean
    StorhEntityConverter storhEntityConverter(StorhMappingContext mappingContext,
            ObjectProvider<JsonMapper> jsonMapper) {
        JsonMapper applicationMapper = jsonMapper.getIfUnique();
        JsonMapper mapper = (applicationMapper != null) ? StorhEntityConverter.forStorage(applicationMapper.rebuild())
                : StorhEntityConverter.defaultJsonMapper();
        return new StorhEntityConverter(mappingContext, mapper);
    }

    @Bean(name = "storhTemplate")
    @ConditionalOnMissingBean(StorhOperations.class)
    StorhTemplate storhTemplate(StorhStores storhStores, StorhEntityConverter converter) {
        return new StorhTemplate(storhStores, converter);
    }

    @Bean
    @ConditionalOnMissingBean
    StorhStores storhStores(StorageRoot storageRoot, StorhProperties properties,
            @Qualifier("storhClock") ObjectProvider<Clock> clock, ObjectProvider<StoreObserver> observer,
            ObjectProvider<StoreFilesFactory> filesFactory) {
        Path folder = properties.collectionsFolder(storageRoot).toAbsolutePath().normalize();
        StoreFilesFactory files = filesFactory.getIfUnique(() -> StoreFilesFactory.LOCAL);
        String problem = files.isLocal() ? StorhStore.checkWritable(folder, true) : null;
        if (problem != null) {
            throw new UnusableStorhRootException(folder, problem);
        }
        return new StorhStores(folder,
                new StorhPropertiesStoreOptions(properties, clock.getIfAvailable(Clock::systemUTC),
                        observer.getIfUnique(() -> StoreObserver.NONE), files.under(folder)));
    }

    @Bean
    StorhStoresInitializer storhStoresInitializer(StorhStores storhStores, StorhProperties properties,
            ListableBeanFactory beanFactory) {
        return new StorhStoresInitializer(storhStores, properties, beanFactory);
    }

}
