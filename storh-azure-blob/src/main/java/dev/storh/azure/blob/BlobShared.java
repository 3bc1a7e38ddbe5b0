package dev.storh.azure.blob;

import com.azure.core.util.BinaryData;
import com.azure.core.util.Context;
import com.azure.storage.blob.BlobClient;
import com.azure.storage.blob.BlobContainerClient;
import com.azure.storage.blob.models.BlobRequestConditions;
import com.azure.storage.blob.models.BlobStorageException;
import com.azure.storage.blob.options.BlockBlobSimpleUploadOptions;
import java.time.Duration;
import java.util.concurrent.ScheduledExecutorService;

/**
 * What every store seam of one {@link AzureBlobBackend} shares: the container's client, the read
 * cache, the request timeout, the lease settings and the lease-renewal thread. Made once by the
 * backend and handed to each {@link BlobFiles} and {@link LeaseLock}. Thread-safe.
 *
 * @param container the container's client
 * @param cache the ETag-validated read cache of the whole container
 * @param timeout the longest wait for one request
 * @param leaseDuration how long a lock's lease lasts without renewal
 * @param scheduler runs lease renewals (one daemon thread)
 */
record BlobShared(BlobContainerClient container, BlobCache cache, Duration timeout, Duration leaseDuration,
        ScheduledExecutorService scheduler) {

    /**
     * Writes a block blob only where none stands ({@code If-None-Match: *}): a lock blob, a folder
     * marker, the layout blob.
     *
     * @param blob the blob
     * @param bytes its content
     * @return {@code true} when this call created it, {@code false} when a blob stood there already
     *     (HTTP 409 or a failed condition)
     * @throws BlobStorageException any other answer of the service
     * @throws RuntimeException the client's error when the service cannot be reached
     */
    boolean createIfAbsent(BlobClient blob, byte[] bytes) {
        try {
            blob.getBlockBlobClient().uploadWithResponse(new BlockBlobSimpleUploadOptions(BinaryData.fromBytes(bytes))
                    .setRequestConditions(new BlobRequestConditions().setIfNoneMatch("*")), timeout, Context.NONE);
            return true;
        } catch (BlobStorageException e) {
            if (BlobErrors.conditionFailed(e) || e.getStatusCode() == 409) {
                return false;
            }
            throw e;
        }
    }
}
