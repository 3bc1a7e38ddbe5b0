package dev.storh.azure.blob.spring;

import dev.storh.azure.blob.AzureBlobBackend;
import dev.storh.azure.blob.BlobLayout;
import org.springframework.boot.health.contributor.AbstractHealthIndicator;
import org.springframework.boot.health.contributor.Health;

/**
 * UP when the backend's container answers and exists, with its name, URL and layout; DOWN with the
 * service's error otherwise (a missing container, a refused connection, a bad key). One request
 * per check; thread-safe.
 */
public class StorhAzureBlobHealthIndicator extends AbstractHealthIndicator {

    private final AzureBlobBackend backend;

    /**
     * @param backend the backend to check
     */
    public StorhAzureBlobHealthIndicator(AzureBlobBackend backend) {
        super("Azure blob container check failed");
        this.backend = backend;
    }

    @Override
    protected void doHealthCheck(Health.Builder builder) {
        boolean exists = backend.containerExists();
        (exists ? builder.up() : builder.down()).withDetail("backend", "azure-blob")
                .withDetail("container", backend.containerName())
                .withDetail("url", backend.container().getBlobContainerUrl()).withDetail("layout", BlobLayout.NAME);
        if (!exists) {
            builder.withDetail("error", "container " + backend.containerName() + " does not exist");
        }
        moreDetails(builder);
    }

    /**
     * Adds what a subclass knows beyond the container (called after the container's check).
     *
     * @param builder the health being built
     */
    protected void moreDetails(Health.Builder builder) {
    }
}
