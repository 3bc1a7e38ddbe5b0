package dev.storh.azure.blob.spring;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.util.unit.DataSize;

/**
 * {@code storh.azure.blob.*}: where the blob backend connects. Set a connection string, or an
 * endpoint with an account name and key, or an endpoint with a SAS token; an endpoint alone uses
 * azure-identity's default credential when that library is on the class path. Immutable, bound
 * through its constructor.
 *
 * @param connectionString The storage account's connection string.
 * @param endpoint The blob service URL, e.g. https://myaccount.blob.core.windows.net, used when no connection string is set.
 * @param accountName The account name, with account-key (shared key credential) and endpoint.
 * @param accountKey The account key, with account-name and endpoint.
 * @param sasToken A shared access signature, with endpoint.
 * @param container The container holding the stores; created when missing.
 * @param leaseDuration How long a lock's lease lasts without renewal (15s to 60s): a crashed holder blocks others at most this long.
 * @param timeout The longest wait for one request to the service.
 * @param cacheSize The most bytes the ETag-validated read cache keeps (0 disables it).
 */
@ConfigurationProperties("storh.azure.blob")
public record StorhAzureBlobProperties(String connectionString, String endpoint, String accountName, String accountKey,
        String sasToken, @DefaultValue("storh") String container, @DefaultValue("15s") Duration leaseDuration,
        @DefaultValue("30s") Duration timeout, @DefaultValue("32MB") DataSize cacheSize) {
}
