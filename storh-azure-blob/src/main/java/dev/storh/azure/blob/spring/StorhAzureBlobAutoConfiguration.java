package dev.storh.azure.blob.spring;

import com.azure.core.credential.AzureSasCredential;
import com.azure.core.credential.TokenCredential;
import com.azure.storage.common.StorageSharedKeyCredential;
import dev.storh.azure.blob.AzureBlobBackend;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.health.autoconfigure.contributor.ConditionalOnEnabledHealthIndicator;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.util.StringUtils;

/**
 * With {@code storh.backend=azure-blob}: an {@link AzureBlobBackend} on
 * {@code storh.azure.blob.container}, connected by {@code storh.azure.blob.connection-string} or
 * {@code storh.azure.blob.endpoint} with a key, a SAS token or azure-identity's default credential;
 * and the {@code storhAzureBlob} health indicator, which checks the container answers.
 * {@link StorhAzureBlobStoresAutoConfiguration} then puts Boot's stores into the container.
 */
@AutoConfiguration(beforeName = "dev.storh.spring.boot.autoconfigure.StorhAutoConfiguration")
@ConditionalOnClass(AzureBlobBackend.class)
@ConditionalOnProperty(name = "storh.backend", havingValue = "azure-blob")
@EnableConfigurationProperties(StorhAzureBlobProperties.class)
public class StorhAzureBlobAutoConfiguration {

    /**
     * @param properties {@code storh.azure.blob.*}
     * @return the backend, its container created and its layout checked
     * @throws IllegalStateException naming the missing property when no connection is set
     */
    @Bean(destroyMethod = "close")
    @ConditionalOnMissingBean
    public AzureBlobBackend storhAzureBlobBackend(StorhAzureBlobProperties properties) {
        AzureBlobBackend.Builder builder = AzureBlobBackend.builder().container(properties.container())
                .leaseDuration(properties.leaseDuration()).timeout(properties.timeout())
                .cacheBytes(properties.cacheSize().toBytes());
        if (StringUtils.hasText(properties.connectionString())) {
            builder.connectionString(properties.connectionString());
        } else if (StringUtils.hasText(properties.endpoint())) {
            builder.endpoint(properties.endpoint(), credential(properties));
        } else {
            throw new IllegalStateException("storh.backend=azure-blob needs storh.azure.blob.connection-string or"
                    + " storh.azure.blob.endpoint");
        }
        return builder.build();
    }

    private static Object credential(StorhAzureBlobProperties properties) {
        if (StringUtils.hasText(properties.accountName()) && StringUtils.hasText(properties.accountKey())) {
            return new StorageSharedKeyCredential(properties.accountName(), properties.accountKey());
        }
        if (StringUtils.hasText(properties.sasToken())) {
            return new AzureSasCredential(properties.sasToken());
        }
        try {
            Class<?> builder = Class.forName("com.azure.identity.DefaultAzureCredentialBuilder");
            Object b = builder.getConstructor().newInstance();
            return (TokenCredential) builder.getMethod("build").invoke(b);
        } catch (ReflectiveOperationException | LinkageError e) {
            throw new IllegalStateException("storh.azure.blob.endpoint needs storh.azure.blob.account-name and account-key,"
                    + " storh.azure.blob.sas-token, or com.azure:azure-identity on the class path", e);
        }
    }

    /** The health indicator, when Boot's health support is present. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(name = "org.springframework.boot.health.contributor.AbstractHealthIndicator")
    static class Health {

        @Bean
        @ConditionalOnMissingBean(name = "storhAzureBlobHealthIndicator")
        @ConditionalOnEnabledHealthIndicator("storhAzureBlob")
        StorhAzureBlobHealthIndicator storhAzureBlobHealthIndicator(AzureBlobBackend backend) {
            return new StorhAzureBlobHealthIndicator(backend);
        }
    }
}
