package dev.storh.azure.blob;

import com.azure.core.credential.AzureSasCredential;
import com.azure.core.credential.TokenCredential;
import com.azure.core.util.Context;
import com.azure.storage.blob.BlobClient;
import com.azure.storage.blob.BlobContainerClient;
import com.azure.storage.blob.BlobServiceClientBuilder;
import com.azure.storage.blob.BlobServiceVersion;
import com.azure.storage.blob.models.BlobStorageException;
import com.azure.storage.common.StorageSharedKeyCredential;
import com.azure.storage.common.policy.RequestRetryOptions;
import com.azure.storage.common.policy.RetryPolicyType;
import dev.storh.StorageException;
import dev.storh.fs.StoreFiles;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.Executors;
import java.util.function.Function;

/**
 * One Azure Blob Storage container holding storh stores: makes the {@link BlobFiles} seam of each
 * store folder, shares one client, one ETag-validated read cache and one lease-renewal thread
 * among them. On {@link Builder#build()} it creates the container when missing and records (or
 * checks) the name layout in its {@value BlobLayout#LAYOUT_BLOB} blob, so a container written
 * with another layout is refused instead of misread.
 *
 * <p>The client pins service version {@link #SERVICE_VERSION} (accepted by Azure and by the
 * Azurite emulator) and retries throttled and failed requests (HTTP 429, 500, 503, timeouts) with
 * the SDK's exponential back-off. Plug it into an engine with its options'
 * {@code files(backend.under(root))}. Thread-safe; {@link #close()} stops lease renewal.
 */
public final class AzureBlobBackend implements AutoCloseable {

    /** The storage service version every request is sent with. */
    public static final BlobServiceVersion SERVICE_VERSION = BlobServiceVersion.V2025_05_05;

    private final BlobShared shared;

    private AzureBlobBackend(Builder b, BlobContainerClient container) {
        this.shared = new BlobShared(container, new BlobCache(b.cacheBytes, b.timeout), b.timeout, b.leaseDuration,
                Executors.newSingleThreadScheduledExecutor(r -> {
                    Thread t = new Thread(r, "storh-blob-lease-" + container.getBlobContainerName());
                    t.setDaemon(true);
                    return t;
                }));
    }

    /** @return a builder; set a connection string, an endpoint and credential, or a client */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * @param root the folder the engines' store folders are under (as given to the engines; it is
     *     never touched on disk)
     * @return makes the seam of a store folder below {@code root}; the store's name in the
     *     container is the folder relative to {@code root}
     */
    public Function<Path, StoreFiles> under(Path root) {
        return folder -> files(root, folder);
    }

    /**
     * @param root the folder the store folders are under
     * @param folder a store folder below it, or {@code root} itself (where engines create their folders)
     * @return the seam of that store
     * @throws IllegalArgumentException when {@code folder} is not {@code root} or below it
     */
    public BlobFiles files(Path root, Path folder) {
        Path base = root.toAbsolutePath().normalize();
        Path f = folder.toAbsolutePath().normalize();
        if (!f.startsWith(base)) {
            throw new IllegalArgumentException("Store folder " + folder + " is not below " + root);
        }
        String store = base.relativize(f).toString().replace('\\', '/');
        return new BlobFiles(shared, folder, store);
    }

    /**
     * @return whether the container answers (health checks)
     * @throws RuntimeException the client's error when the service cannot be reached
     */
    public boolean containerExists() {
        return shared.container().existsWithResponse(shared.timeout(), Context.NONE).getValue();
    }

    /** @return the container's client */
    public BlobContainerClient container() {
        return shared.container();
    }

    /** @return the container's name */
    public String containerName() {
        return shared.container().getBlobContainerName();
    }

    /** @return how long a lock's lease lasts without renewal */
    public Duration leaseDuration() {
        return shared.leaseDuration();
    }

    /** Stops renewing leases (held leases then end by themselves). */
    @Override
    public void close() {
        shared.scheduler().shutdownNow();
    }

    private void checkLayout() {
        BlobClient layout = shared.container().getBlobClient(BlobLayout.LAYOUT_BLOB);
        try {
            if (shared.createIfAbsent(layout, BlobLayout.DESCRIPTION.getBytes(StandardCharsets.UTF_8))) {
                return;
            }
        } catch (BlobStorageException e) {
            throw new StorageException("Could not record the storh layout in container " + containerName() + ": "
                    + e.getErrorCode(), e);
        }
        String found = layout.downloadContent().toString();
        if (!found.contains("\"layout\":\"" + BlobLayout.NAME + "\"")) {
            throw new StorageException("Container " + containerName() + " holds another storh layout than " + BlobLayout.NAME
                    + " (its " + BlobLayout.LAYOUT_BLOB + " says: " + found.strip() + "); refusing to read or write it");
        }
    }

    /** Builds an {@link AzureBlobBackend}; each setter checks its argument at once. */
    public static final class Builder {
        private String connectionString;
        private String endpoint;
        private Object credential;
        private BlobContainerClient client;
        private String containerName;
        private Duration timeout = Duration.ofSeconds(30);
        private Duration leaseDuration = Duration.ofSeconds(15);
        private long cacheBytes = 32L * 1024 * 1024;
        private int maxTries = 5;
        private Duration retryDelay = Duration.ofMillis(200);
        private Duration maxRetryDelay = Duration.ofSeconds(5);

        private Builder() {
        }

        /**
         * @param connectionString the account's connection string ({@code DefaultEndpointsProtocol=...;AccountName=...})
         * @return this builder
         */
        public Builder connectionString(String connectionString) {
            this.connectionString = requireText(connectionString, "connectionString");
            return this;
        }

        /**
         * @param endpoint the blob service URL, {@code https://<account>.blob.core.windows.net}
         * @param credential a {@link TokenCredential} (e.g. azure-identity's default credential),
         *     a {@link StorageSharedKeyCredential} or an {@link AzureSasCredential}
         * @return this builder
         */
        public Builder endpoint(String endpoint, Object credential) {
            this.endpoint = requireText(endpoint, "endpoint");
            if (!(credential instanceof TokenCredential || credential instanceof StorageSharedKeyCredential
                    || credential instanceof AzureSasCredential)) {
                throw new IllegalArgumentException("credential must be a TokenCredential, StorageSharedKeyCredential or"
                        + " AzureSasCredential, not " + (credential == null ? "null" : credential.getClass().getName()));
            }
            this.credential = credential;
            return this;
        }

        /**
         * @param client a container client built elsewhere (its service version and retry policy are the caller's)
         * @return this builder
         */
        public Builder containerClient(BlobContainerClient client) {
            this.client = Objects.requireNonNull(client, "client");
            return this;
        }

        /**
         * @param name the container (3-63 lowercase letters, digits and hyphens); created when missing
         * @return this builder
         */
        public Builder container(String name) {
            if (name == null || !name.matches("[a-z0-9](?!.*--)[a-z0-9-]{1,61}[a-z0-9]")) {
                throw new IllegalArgumentException("Not a container name (3-63 lowercase letters, digits, single hyphens): "
                        + name);
            }
            this.containerName = name;
            return this;
        }

        /**
         * @param duration how long a lock's lease lasts without renewal, 15 to 60 seconds (15 by
         *     default): a crashed holder blocks others at most this long
         * @return this builder
         */
        public Builder leaseDuration(Duration duration) {
            if (duration.toSeconds() < 15 || duration.toSeconds() > 60) {
                throw new IllegalArgumentException("leaseDuration must be 15 to 60 seconds: " + duration);
            }
            this.leaseDuration = duration;
            return this;
        }

        /**
         * @param timeout the longest wait for one request (30 seconds by default)
         * @return this builder
         */
        public Builder timeout(Duration timeout) {
            if (timeout.isNegative() || timeout.isZero()) {
                throw new IllegalArgumentException("timeout must be positive: " + timeout);
            }
            this.timeout = timeout;
            return this;
        }

        /**
         * @param bytes the most bytes the read cache keeps (32 MiB by default; 0 disables it)
         * @return this builder
         */
        public Builder cacheBytes(long bytes) {
            if (bytes < 0) {
                throw new IllegalArgumentException("cacheBytes must not be negative: " + bytes);
            }
            this.cacheBytes = bytes;
            return this;
        }

        /**
         * @param maxTries tries per request, the first included (5 by default)
         * @param delay the first back-off (200 ms by default), doubled per retry
         * @param maxDelay the longest back-off (5 seconds by default)
         * @return this builder
         */
        public Builder retry(int maxTries, Duration delay, Duration maxDelay) {
            if (maxTries < 1) {
                throw new IllegalArgumentException("maxTries must be at least 1: " + maxTries);
            }
            this.maxTries = maxTries;
            this.retryDelay = Objects.requireNonNull(delay, "delay");
            this.maxRetryDelay = Objects.requireNonNull(maxDelay, "maxDelay");
            return this;
        }

        /**
         * @return the backend, its container created and its layout checked
         * @throws IllegalStateException when no connection or container was set
         * @throws StorageException when the container cannot be reached or holds another layout
         */
        public AzureBlobBackend build() {
            BlobContainerClient c = client;
            if (c == null) {
                if (containerName == null) {
                    throw new IllegalStateException("No container set");
                }
                BlobServiceClientBuilder service = new BlobServiceClientBuilder().serviceVersion(SERVICE_VERSION)
                        .retryOptions(new RequestRetryOptions(RetryPolicyType.EXPONENTIAL, maxTries, timeout, retryDelay,
                                maxRetryDelay, null));
                if (connectionString != null) {
                    service.connectionString(connectionString);
                } else if (endpoint != null) {
                    service.endpoint(endpoint);
                    if (credential instanceof TokenCredential t) {
                        service.credential(t);
                    } else if (credential instanceof StorageSharedKeyCredential k) {
                        service.credential(k);
                    } else {
                        service.credential((AzureSasCredential) credential);
                    }
                } else {
                    throw new IllegalStateException("No connection string, endpoint or container client set");
                }
                c = service.buildClient().getBlobContainerClient(containerName);
            }
            try {
                c.createIfNotExistsWithResponse(null, timeout, Context.NONE);
            } catch (RuntimeException e) {
                throw new StorageException("Could not reach or create container " + c.getBlobContainerName() + " at "
                        + c.getBlobContainerUrl() + ": " + e.getMessage(), e);
            }
            AzureBlobBackend backend = new AzureBlobBackend(this, c);
            try {
                backend.checkLayout();
            } catch (RuntimeException e) {
                backend.close();
                throw e;
            }
            return backend;
        }

        private static String requireText(String value, String what) {
            if (value == null || value.isBlank()) {
                throw new IllegalArgumentException(what + " must not be blank");
            }
            return value;
        }
    }
}
