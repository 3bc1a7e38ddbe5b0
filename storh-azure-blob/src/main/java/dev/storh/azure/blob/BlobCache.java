package dev.storh.azure.blob;

import com.azure.core.util.Context;
import com.azure.storage.blob.BlobClient;
import com.azure.storage.blob.models.BlobDownloadContentResponse;
import com.azure.storage.blob.models.BlobRequestConditions;
import com.azure.storage.blob.models.BlobStorageException;
import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import java.time.Duration;

/**
 * Recently read blobs kept in memory, each with its ETag, and validated by ETag on every read: a
 * cached blob is downloaded again only when the service answers a conditional
 * {@code GET If-None-Match: <etag>} with new bytes (a {@code 304 Not Modified} serves the cache),
 * so a reader never sees bytes older than the blob's. Bounded by total bytes; blobs larger than a
 * sixteenth of the bound are not kept. Thread-safe.
 */
final class BlobCache {

    /** Bytes and the ETag they were read at. */
    record Read(byte[] bytes, String etag) {
    }

    private final Cache<String, Read> cache;
    private final long maxEntry;
    private final Duration timeout;

    /**
     * @param maxBytes the most bytes kept (0 disables the cache)
     * @param timeout the longest wait for one request
     */
    BlobCache(long maxBytes, Duration timeout) {
        this.cache = Caffeine.newBuilder().maximumWeight(maxBytes)
                .weigher((String k, Read r) -> r.bytes().length + k.length() + 64).build();
        this.maxEntry = maxBytes / 16;
        this.timeout = timeout;
    }

    /**
     * @param client the blob
     * @return its bytes and ETag now
     * @throws BlobStorageException as the service answered (404 when missing)
     */
    Read read(BlobClient client) {
        String key = client.getBlobName();
        Read cached = cache.getIfPresent(key);
        BlobRequestConditions conditions = cached == null ? null : new BlobRequestConditions().setIfNoneMatch(cached.etag());
        try {
            BlobDownloadContentResponse response = client.downloadContentWithResponse(null, conditions, timeout,
                    Context.NONE);
            if (response.getStatusCode() == 304 && cached != null) {
                return cached;
            }
            Read read = new Read(response.getValue().toBytes(), response.getDeserializedHeaders().getETag());
            if (read.bytes().length <= maxEntry) {
                cache.put(key, read);
            } else {
                cache.invalidate(key);
            }
            return read;
        } catch (BlobStorageException e) {
            if (e.getStatusCode() == 304 && cached != null) {
                return cached;
            }
            cache.invalidate(key);
            throw e;
        }
    }

    /**
     * Remembers bytes this process just wrote.
     *
     * @param blob the blob name
     * @param bytes its content
     * @param etag the ETag the service gave the write
     */
    void wrote(String blob, byte[] bytes, String etag) {
        if (bytes.length <= maxEntry && etag != null) {
            cache.put(blob, new Read(bytes, etag));
        } else {
            cache.invalidate(blob);
        }
    }

    /** @param blob a blob that changed or went away */
    void forget(String blob) {
        cache.invalidate(blob);
    }
}
