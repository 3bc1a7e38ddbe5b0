package dev.storh.azure.blob.spring;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.util.unit.DataSize;

/**
 * {@code storh.azure.blob.*}: where the blob backend connects. Set a connection string, or an
 * endpoint with an account name and key, or an endpoint with a SAS token; an endpoint alone uses
 * azure-identity's default credential when that library is on the class path.
 */
@ConfigurationProperties("storh.azure.blob")
public class StorhAzureBlobProperties {

    /** The storage account's connection string. */
    private String connectionString;

    /** The blob service URL, e.g. https://myaccount.blob.core.windows.net, used when no connection string is set. */
    private String endpoint;

    /** The account name, with account-key (shared key credential) and endpoint. */
    private String accountName;

    /** The account key, with account-name and endpoint. */
    private String accountKey;

    /** A shared access signature, with endpoint. */
    private String sasToken;

    /** The container holding the stores; created when missing. */
    private String container = "storh";

    /** How long a lock's lease lasts without renewal (15s to 60s): a crashed holder blocks others at most this long. */
    private Duration leaseDuration = Duration.ofSeconds(15);

    /** The longest wait for one request to the service. */
    private Duration timeout = Duration.ofSeconds(30);

    /** The most bytes the ETag-validated read cache keeps (0 disables it). */
    private DataSize cacheSize = DataSize.ofMegabytes(32);

    public String getConnectionString() {
        return connectionString;
    }

    public void setConnectionString(String connectionString) {
        this.connectionString = connectionString;
    }

    public String getEndpoint() {
        return endpoint;
    }

    public void setEndpoint(String endpoint) {
        this.endpoint = endpoint;
    }

    public String getAccountName() {
        return accountName;
    }

    public void setAccountName(String accountName) {
        this.accountName = accountName;
    }

    public String getAccountKey() {
        return accountKey;
    }

    public void setAccountKey(String accountKey) {
        this.accountKey = accountKey;
    }

    public String getSasToken() {
        return sasToken;
    }

    public void setSasToken(String sasToken) {
        this.sasToken = sasToken;
    }

    public String getContainer() {
        return container;
    }

    public void setContainer(String container) {
        this.container = container;
    }

    public Duration getLeaseDuration() {
        return leaseDuration;
    }

    public void setLeaseDuration(Duration leaseDuration) {
        this.leaseDuration = leaseDuration;
    }

    public Duration getTimeout() {
        return timeout;
    }

    public void setTimeout(Duration timeout) {
        this.timeout = timeout;
    }

    public DataSize getCacheSize() {
        return cacheSize;
    }

    public void setCacheSize(DataSize cacheSize) {
        this.cacheSize = cacheSize;
    }
}
