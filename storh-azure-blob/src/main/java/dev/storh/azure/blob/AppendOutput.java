package dev.storh.azure.blob;

import com.azure.core.util.Context;
import com.azure.storage.blob.BlobClient;
import com.azure.storage.blob.models.AppendBlobRequestConditions;
import com.azure.storage.blob.models.BlobProperties;
import com.azure.storage.blob.models.BlobRequestConditions;
import com.azure.storage.blob.models.BlobStorageException;
import com.azure.storage.blob.models.BlobType;
import com.azure.storage.blob.options.AppendBlobCreateOptions;
import com.azure.storage.blob.specialized.AppendBlobClient;
import dev.storh.fs.StoreFiles;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.util.Arrays;
import java.util.Optional;

/**
 * A file opened for appending, kept as an append blob. Written bytes are buffered and appended at
 * {@link #sync}, {@link #syncData} and {@link #close}, in blocks of at most {@value #MAX_BLOCK}
 * bytes, each on the condition that the blob still ends where this output last saw it
 * ({@code x-ms-blob-condition-appendpos}): an append by a writer that was not ordered by the
 * store's lock fails with an {@link IOException} instead of interleaving. A block blob of the same
 * name (written by {@code create}) is turned into an append blob with the same bytes on open.
 * {@link #truncate} rewrites the blob with the kept prefix. One thread at a time.
 *
 * <p>An append blob takes at most 50,000 blocks; the engines' compaction, which rewrites a file
 * through {@code create} and {@code rename}, starts it over.
 */
final class AppendOutput implements StoreFiles.Output {

    /** The largest block one append sends. */
    static final int MAX_BLOCK = 4 * 1024 * 1024;

    private final BlobFiles files;
    private final String name;
    private final AppendBlobClient client;
    private final String blobName;
    private long committed;
    private byte[] pending = new byte[256];
    private int pendingSize;
    private boolean closed;

    private AppendOutput(BlobFiles files, String name, BlobClient client, long committed) {
        this.files = files;
        this.name = name;
        this.client = client.getAppendBlobClient();
        this.blobName = client.getBlobName();
        this.committed = committed;
    }

    static AppendOutput open(BlobFiles files, String name, BlobClient client) throws IOException {
        Optional<BlobProperties> props = files.properties(name, client);
        if (props.isEmpty()) {
            try {
                client.getAppendBlobClient().createWithResponse(new AppendBlobCreateOptions()
                        .setRequestConditions(new BlobRequestConditions().setIfNoneMatch("*")),
                        files.backend().timeout(), Context.NONE);
                return new AppendOutput(files, name, client, 0);
            } catch (BlobStorageException e) {
                if (!BlobErrors.conditionFailed(e) && e.getStatusCode() != 409) {
                    throw BlobErrors.io(name, client.getBlobName(), e);
                }
                props = files.properties(name, client); // created by another writer meanwhile
            } catch (RuntimeException e) {
                throw BlobErrors.io(name, client.getBlobName(), e);
            }
        }
        BlobProperties p = props.orElseThrow(() -> new IOException("Blob vanished while opening " + name));
        if (p.getBlobType() == BlobType.APPEND_BLOB) {
            return new AppendOutput(files, name, client, p.getBlobSize());
        }
        byte[] bytes = files.read(name).bytes();
        AppendOutput out = new AppendOutput(files, name, client, 0);
        out.recreate(p.getETag(), bytes);
        return out;
    }

    @Override
    public void write(byte[] bytes, int offset, int length) throws IOException {
        ensureOpen();
        if (pendingSize + length > pending.length) {
            pending = Arrays.copyOf(pending, Math.max(pending.length * 2, pendingSize + length));
        }
        System.arraycopy(bytes, offset, pending, pendingSize, length);
        pendingSize += length;
    }

    @Override
    public void sync() throws IOException {
        ensureOpen();
        flush();
    }

    @Override
    public void syncData() throws IOException {
        sync();
    }

    @Override
    public long size() {
        return committed + pendingSize;
    }

    @Override
    public void truncate(long size) throws IOException {
        ensureOpen();
        flush();
        if (size < 0 || size > committed) {
            throw new IOException("Cannot truncate " + name + " to " + size + " bytes (size " + committed + ")");
        }
        if (size == committed) {
            return;
        }
        BlobCache.Read read = files.read(name);
        recreate(read.etag(), Arrays.copyOf(read.bytes(), (int) size));
    }

    @Override
    public void close() throws IOException {
        if (closed) {
            return;
        }
        closed = true;
        flush();
    }

    private void recreate(String etag, byte[] content) throws IOException {
        try {
            client.createWithResponse(new AppendBlobCreateOptions().setRequestConditions(
                    new BlobRequestConditions().setIfMatch(etag)), files.backend().timeout(), Context.NONE);
        } catch (RuntimeException e) {
            throw BlobErrors.io(name, blobName, e);
        }
        files.backend().cache().forget(blobName);
        committed = 0;
        appendBlocks(content, content.length);
    }

    private void flush() throws IOException {
        if (pendingSize > 0) {
            appendBlocks(pending, pendingSize);
            pendingSize = 0;
        }
    }

    private void appendBlocks(byte[] bytes, int length) throws IOException {
        for (int from = 0; from < length; from += MAX_BLOCK) {
            int n = Math.min(MAX_BLOCK, length - from);
            try {
                client.appendBlockWithResponse(new ByteArrayInputStream(bytes, from, n), n, null,
                        new AppendBlobRequestConditions().setAppendPosition(committed), files.backend().timeout(),
                        Context.NONE);
            } catch (BlobStorageException e) {
                files.backend().cache().forget(blobName);
                if (BlobErrors.conditionFailed(e)) {
                    throw new IOException("Append to " + name + " (blob " + blobName + ") refused: it no longer ends at "
                            + committed + " bytes (another writer appended without holding the store's lock)", e);
                }
                throw BlobErrors.io(name, blobName, e);
            } catch (RuntimeException e) {
                throw BlobErrors.io(name, blobName, e);
            }
            committed += n;
        }
        files.backend().cache().forget(blobName);
    }

    private void ensureOpen() throws IOException {
        if (closed) {
            throw new IOException("Closed: " + name);
        }
    }

}
