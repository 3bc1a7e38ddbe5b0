package dev.storh.azure.blob;

import com.azure.core.util.Context;
import com.azure.storage.blob.BlobClient;
import com.azure.storage.blob.models.BlobStorageException;
import com.azure.storage.blob.specialized.BlobLeaseClient;
import com.azure.storage.blob.specialized.BlobLeaseClientBuilder;
import dev.storh.StorageException;
import dev.storh.fs.CollectionLock;
import java.io.IOException;
import java.nio.file.Path;
import java.util.UUID;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The inter-process half of a store's lock on blob storage: an exclusive lease on the lock's blob
 * (created empty when missing). While held, the lease is renewed every third of its duration; a
 * renewal that fails marks the lock lost ({@link #intact()} turns false, so writers stop). Released
 * on unlock and on close. A holder that crashed stops renewing, the service ends its lease at most
 * one lease duration later, and the next {@link #tryLockExclusive} takes it; a live lease is never
 * broken. Each process uses its own lease id. Used with the JVM-wide lock held (one thread at a time).
 * From taking the lease to releasing it, the store's {@link LeaseTenure} is on: record blobs the
 * holder saw are replaced only at the ETag it saw, so a holder whose lease ran out unnoticed cannot
 * overwrite what the next holder wrote.
 */
final class LeaseLock implements CollectionLock.ProcessLock {

    private static final Logger LOG = LoggerFactory.getLogger(LeaseLock.class);

    private final BlobShared shared;
    private final BlobClient blob;
    private final Path key;
    private final BlobLeaseClient lease;
    private final LeaseTenure tenure;
    private volatile ScheduledFuture<?> renewal;
    private volatile boolean lost;

    LeaseLock(BlobShared shared, BlobClient blob, Path key, LeaseTenure tenure) {
        this.shared = shared;
        this.tenure = tenure;
        this.blob = blob;
        this.key = key;
        this.lease = new BlobLeaseClientBuilder().blobClient(blob).leaseId(UUID.randomUUID().toString()).buildClient();
        try {
            shared.createIfAbsent(blob, new byte[0]);
        } catch (BlobStorageException e) {
            throw new StorageException("Could not open collection lock: " + key + " (" + e.getErrorCode() + ")", e);
        } catch (RuntimeException e) {
            throw new StorageException("Could not open collection lock: " + key, e);
        }
    }

    @Override
    public boolean tryLockExclusive() throws IOException {
        int seconds = (int) shared.leaseDuration().toSeconds();
        try {
            lease.acquireLeaseWithResponse(seconds, (com.azure.core.http.RequestConditions) null, shared.timeout(), Context.NONE);
        } catch (BlobStorageException e) {
            if (e.getStatusCode() == 409) {
                pause();
                return false;
            }
            throw BlobErrors.io(key.toString(), blob.getBlobName(), e);
        } catch (RuntimeException e) {
            throw BlobErrors.io(key.toString(), blob.getBlobName(), e);
        }
        lost = false;
        tenure.begin();
        long every = Math.max(1000, shared.leaseDuration().toMillis() / 3);
        renewal = shared.scheduler().scheduleWithFixedDelay(this::renew, every, every, TimeUnit.MILLISECONDS);
        return true;
    }

    @Override
    public void unlock() throws IOException {
        stopRenewal();
        tenure.end();
        try {
            lease.releaseLeaseWithResponse((com.azure.core.http.RequestConditions) null, shared.timeout(), Context.NONE);
        } catch (BlobStorageException e) {
            if (e.getStatusCode() != 409) {
                throw BlobErrors.io(key.toString(), blob.getBlobName(), e);
            }
            lost = true; // another holder has it now: this holder's lease had ended
        } catch (RuntimeException e) {
            throw BlobErrors.io(key.toString(), blob.getBlobName(), e);
        }
    }

    @Override
    public void close() {
        if (renewal != null) {
            try {
                unlock();
            } catch (IOException | RuntimeException e) {
                LOG.warn("Could not release lease on {}; it ends by itself within {}", key, shared.leaseDuration(), e);
            }
        }
    }

    @Override
    public boolean intact() {
        return !lost;
    }

    private void renew() {
        try {
            lease.renewLeaseWithResponse((com.azure.core.http.RequestConditions) null, shared.timeout(), Context.NONE);
        } catch (RuntimeException e) {
            lost = true;
            LOG.warn("Lost the lease on {}: {}", key, e.toString());
            stopRenewal();
        }
    }

    private void stopRenewal() {
        ScheduledFuture<?> r = renewal;
        renewal = null;
        if (r != null) {
            r.cancel(false);
        }
    }

    private void pause() throws IOException {
        try {
            Thread.sleep(20); // bounds the rate at which a waiting writer asks the service
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new java.io.InterruptedIOException("Interrupted while waiting for " + key);
        }
    }
}
