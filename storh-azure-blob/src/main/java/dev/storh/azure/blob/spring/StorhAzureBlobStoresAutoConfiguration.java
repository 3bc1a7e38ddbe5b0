package dev.storh.azure.blob.spring;

import dev.storh.azure.blob.AzureBlobBackend;
import dev.storh.spring.boot.stores.StoreFilesFactory;
import dev.storh.spring.boot.stores.StorhStores;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.health.autoconfigure.contributor.ConditionalOnEnabledHealthIndicator;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * With the storh starter and an {@link AzureBlobBackend} bean ({@code storh.backend=azure-blob}):
 * the starter's backend hook, a {@link StoreFilesFactory} that gives every collection, log and
 * queue Boot opens the blob seam of its folder, so they all live in the backend's container (a
 * store's name there is its folder relative to the collections folder). Backs off when the
 * application defines its own factory. With Boot's health support, the starter's {@code storh}
 * health component checks and names the container instead of the (unused) local collections
 * folder: {@link StorhBlobStoresHealthIndicator}, a bean named {@code storhHealthIndicator}.
 */
@AutoConfiguration(after = StorhAzureBlobAutoConfiguration.class,
        beforeName = "dev.storh.spring.boot.autoconfigure.StorhAutoConfiguration")
@ConditionalOnClass({AzureBlobBackend.class, StoreFilesFactory.class})
@ConditionalOnBean(AzureBlobBackend.class)
public class StorhAzureBlobStoresAutoConfiguration {

    /**
     * @param backend the backend
     * @return the seam of each store folder, in the backend's container
     */
    @Bean
    @ConditionalOnMissingBean
    public StoreFilesFactory storhBlobStoreFiles(AzureBlobBackend backend) {
        return backend::files;
    }

    /** The {@code storh} health component on the container, when Boot's health support is present. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(name = "org.springframework.boot.health.contributor.AbstractHealthIndicator")
    static class Health {

        @Bean
        @ConditionalOnMissingBean(name = {"storhHealthIndicator", "storhHealthContributor"})
        @ConditionalOnEnabledHealthIndicator("storh")
        StorhBlobStoresHealthIndicator storhHealthIndicator(AzureBlobBackend backend, ObjectProvider<StorhStores> stores) {
            return new StorhBlobStoresHealthIndicator(backend, stores);
        }
    }
}
