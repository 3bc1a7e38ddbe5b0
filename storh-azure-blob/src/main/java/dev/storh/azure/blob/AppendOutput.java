package dev.storh.azure.blob;

import com.azure.core.util.Context;
import com.azure.storage.blob.BlobClient;
import com.azure.storage.blob.models.BlobProperties;
import com.azure.storage.blob.models.BlobRequestConditions;
import com.azure.storage.blob.models.BlobStorageException;
import com.azure.storage.blob.models.BlobType;
import com.azure.storage.blob.options.AppendBlobCreateOptions;
import com.azure.storage.blob.specialized.AppendBlobClient;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.util.Arrays;
import java.util.Optional;

/**
 * A file opened for appending, kept as an append blob. Written bytes are buffered and appended at
 * {@link #sync}, {@link #syncData} and {@link #close}, in blocks of at most {@value #MAX_BLOCK}
 * bytes; each block goes after the blob's current end, wherever other writers (ordered by the
 * store's lock) have left it, as with {@code O_APPEND}. {@link #size} asks the service for the
 * blob's current size (plus the bytes not yet appended). A block blob of the same name (written by
 * {@code create}) is turned into an append blob with the same bytes on open. {@link #truncate}
 * rewrites the blob with the kept prefix, on the condition that nobody changed it meanwhile. One
 * thread at a time.
 *
 * <p>An append blob takes at most 50,000 blocks; the engines' compaction, which rewrites a file
 * through {@code create} and {@code rename}, starts it over.
 */
final class AppendOutput extends BufferedOutput {

    /** The largest block one append sends. */
    static final int MAX_BLOCK = 4 * 1024 * 1024;

    private final BlobFiles files;
    private final AppendBlobClient client;
    private final String blobName;
    private long committed;

    private AppendOutput(BlobFiles files, String name, BlobClient client, long committed) {
        super(name);
        this.files = files;
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
                        files.shared().timeout(), Context.NONE);
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
    public long size() throws IOException {
        BlobProperties p = files.properties(name, files.blob(name))
                .orElseThrow(() -> new java.nio.file.NoSuchFileException(name, null, "no blob " + blobName));
        committed = p.getBlobSize();
        return committed + buffered;
    }

    @Override
    public void truncate(long size) throws IOException {
        ensureOpen();
        flush();
        BlobCache.Read read = files.read(name);
        if (size < 0 || size > read.bytes().length) {
            throw new IOException("Cannot truncate " + name + " to " + size + " bytes (size " + read.bytes().length + ")");
        }
        if (size == read.bytes().length) {
            return;
        }
        recreate(read.etag(), Arrays.copyOf(read.bytes(), (int) size));
    }

    private void recreate(String etag, byte[] content) throws IOException {
        try {
            client.createWithResponse(new AppendBlobCreateOptions().setRequestConditions(
                    new BlobRequestConditions().setIfMatch(etag)), files.shared().timeout(), Context.NONE);
        } catch (RuntimeException e) {
            throw BlobErrors.io(name, blobName, e);
        }
        files.shared().cache().forget(blobName);
        committed = 0;
        appendBlocks(content, content.length);
    }

    @Override
    void flush() throws IOException {
        if (buffered > 0) {
            appendBlocks(buffer, buffered);
            buffered = 0;
        }
    }

    private void appendBlocks(byte[] bytes, int length) throws IOException {
        for (int from = 0; from < length; from += MAX_BLOCK) {
            int n = Math.min(MAX_BLOCK, length - from);
            try {
                String offset = client.appendBlockWithResponse(new ByteArrayInputStream(bytes, from, n), n, null,
                        null, files.shared().timeout(), Context.NONE).getValue().getBlobAppendOffset();
                committed = (offset == null ? committed : Long.parseLong(offset)) + n;
            } catch (RuntimeException e) {
                files.shared().cache().forget(blobName);
                throw BlobErrors.io(name, blobName, e);
            }
        }
        files.shared().cache().forget(blobName);
    }
}
