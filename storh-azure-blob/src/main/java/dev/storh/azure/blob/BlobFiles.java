package dev.storh.azure.blob;

import com.azure.core.util.BinaryData;
import com.azure.core.util.Context;
import com.azure.storage.blob.BlobClient;
import com.azure.storage.blob.BlobContainerClient;
import com.azure.storage.blob.models.BlobItem;
import com.azure.storage.blob.models.BlobProperties;
import com.azure.storage.blob.models.BlobRequestConditions;
import com.azure.storage.blob.models.BlobStorageException;
import com.azure.storage.blob.models.ListBlobsOptions;
import com.azure.storage.blob.options.BlockBlobSimpleUploadOptions;
import dev.storh.VersionConflictException;
import dev.storh.fs.CollectionLock;
import dev.storh.fs.StoreFiles;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The byte seam over one store folder in an Azure Blob Storage container. Names map onto blob
 * names through {@link BlobLayout} (bucket or hash first). Every upload is one {@code Put Blob}, so
 * a reader sees a file's old bytes or its new ones, never a mix; {@link #writeIfVersion} is a
 * conditional upload ({@code If-None-Match: *} to create, {@code If-Match: <etag>} to replace)
 * that holds across machines. Versions are ETags.
 *
 * <p>Differences from local files, all allowed by {@link StoreFiles}' contract:
 * <ul>
 *   <li>{@link #create} buffers and uploads on {@link Output#sync} and {@link Output#close}
 *       (until then readers see the old bytes); {@link #syncDirectory} does nothing, as an upload
 *       is durable when it returns;</li>
 *   <li>{@link #append} goes through an append blob: buffered bytes are appended as one block at
 *       {@code sync} or {@code close}, on the condition that the blob still ends where this output
 *       last saw it, so a writer that was not ordered by the lock fails instead of interleaving;</li>
 *   <li>{@link #rename} downloads, uploads the target in one request and deletes the source: the
 *       target changes atomically; after a crash between the two the source is left as a leftover
 *       temp file; a folder is renamed file by file;</li>
 *   <li>folders are marker blobs; {@link #create} and {@link #append} create missing parents;</li>
 *   <li>{@link #lock} is a blob lease, renewed while held (see {@link AzureBlobBackend});</li>
 *   <li>the store's {@value #SWAPPED} (a log's segment list) is swapped by ETag: a rename onto it
 *       uploads on the condition that it is still the version this seam last read or wrote
 *       ({@code If-Match}, or {@code If-None-Match: *} when it was missing), so a writer whose lease
 *       ran out while it was paused fails with an {@link IOException} instead of replacing a newer
 *       manifest; before this seam has seen it the rename is unconditional.</li>
 * </ul>
 * Reads go through the backend's cache, validated by ETag. Thread-safe.
 */
public final class BlobFiles implements StoreFiles {

    /** The file a rename replaces only at the version last seen (see the class comment). */
    static final String SWAPPED = "manifest.jsonc";

    /** {@link #manifestSeen} when the manifest was seen missing. */
    private static final String ABSENT = LeaseTenure.ABSENT;

    private final BlobShared shared;
    private final BlobContainerClient container;
    private final Path root;
    private final BlobLayout layout;
    private final Set<String> knownFolders = ConcurrentHashMap.newKeySet();
    private final LeaseTenure tenure;
    /** The ETag of the manifest bytes last read or written here, {@link #ABSENT}, or {@code null} before either. */
    private volatile String manifestSeen;

    BlobFiles(BlobShared shared, Path root, String store) {
        this.shared = shared;
        this.container = shared.container();
        this.root = root;
        this.layout = new BlobLayout(store);
        this.tenure = LeaseTenure.of(container.getBlobContainerUrl(), store);
    }

    @Override
    public Path root() {
        return root;
    }

    /** @return the store's name in the container (the first path segments after the bucket or hash) */
    public String store() {
        return layout.store();
    }

    /**
     * @param name a seam name
     * @return the name of the blob holding it
     */
    public String blobName(String name) {
        return layout.blob(BlobLayout.normalize(name));
    }

    @Override
    public InputStream open(String name) throws IOException {
        return new ByteArrayInputStream(read(name).bytes());
    }

    @Override
    public InputStream open(String name, long offset) throws IOException {
        byte[] bytes = read(name).bytes();
        int from = (int) Math.min(offset, bytes.length);
        return new ByteArrayInputStream(bytes, from, bytes.length - from);
    }

    @Override
    public Output create(String name) throws IOException {
        String n = BlobLayout.normalize(name);
        createParent(n);
        return new BlockOutput(this, n);
    }

    @Override
    public Output append(String name) throws IOException {
        String n = BlobLayout.normalize(name);
        createParent(n);
        return AppendOutput.open(this, n, blob(n));
    }

    @Override
    public void rename(String from, String to) throws IOException {
        String f = BlobLayout.normalize(from);
        String t = BlobLayout.normalize(to);
        BlobClient source = blob(f);
        BlobCache.Read read;
        try {
            read = shared.cache().read(source);
        } catch (BlobStorageException e) {
            if (BlobErrors.notFound(e) && isFolder(f)) {
                renameFolder(f, t);
                return;
            }
            throw BlobErrors.io(f, source.getBlobName(), e);
        } catch (RuntimeException e) {
            throw BlobErrors.io(f, source.getBlobName(), e);
        }
        if (isFolder(t)) {
            throw new FileAlreadyExistsException(t, f, "a folder has the name");
        }
        createParent(t);
        if (t.equals(SWAPPED)) {
            swap(t, read.bytes());
        } else {
            upload(t, read.bytes(), null, false);
        }
        delete(f);
    }

    private void swap(String name, byte[] bytes) throws IOException {
        String seen = manifestSeen;
        if (seen == null) {
            upload(name, bytes, null, false);
            return;
        }
        try {
            upload(name, bytes, seen.equals(ABSENT) ? null : seen, true);
        } catch (VersionConflictException e) {
            throw new IOException(name + " (blob " + blob(name).getBlobName() + ") was replaced by another writer since this"
                    + " instance read it" + (seen.equals(ABSENT) ? " missing" : " at ETag " + seen) + "; not replaced", e);
        }
    }

    private void renameFolder(String from, String to) throws IOException {
        if (isFolder(to) && !list(to).isEmpty()) {
            throw new DirectoryNotEmptyException(to);
        }
        createDirectories(to);
        for (String child : list(from)) {
            rename(from + "/" + child, to + "/" + child);
        }
        delete(from);
    }

    @Override
    public void syncDirectory(String dir) {
        // every upload, append and delete is durable when the service has answered it
    }

    /** @return {@code true}: every upload, append and delete is durable when the service has answered it */
    @Override
    public boolean durableOnReturn() {
        return true;
    }

    /** Lists a folder in name order; the spread folder's 16 prefixes merged. */
    @Override
    public List<String> list(String dir) throws IOException {
        String d = BlobLayout.normalize(dir);
        if (!isFolder(d)) {
            throw new NoSuchFileException(d, null, "no folder marker " + layout.marker(d));
        }
        java.util.TreeSet<String> names = new java.util.TreeSet<>();
        for (String prefix : layout.prefixes(d)) {
            try {
                for (BlobItem item : container.listBlobsByHierarchy("/", new ListBlobsOptions().setPrefix(prefix),
                        shared.timeout())) {
                    String rest = item.getName().substring(prefix.length());
                    if (Boolean.TRUE.equals(item.isPrefix())) {
                        rest = rest.substring(0, rest.length() - 1);
                    } else if (rest.equals(BlobLayout.FOLDER_MARKER)) {
                        continue;
                    }
                    if (!rest.isEmpty()) {
                        names.add(rest);
                    }
                }
            } catch (RuntimeException e) {
                throw BlobErrors.io(d, prefix, e);
            }
        }
        return new ArrayList<>(names);
    }

    @Override
    public void delete(String name) throws IOException {
        String n = BlobLayout.normalize(name);
        BlobClient client = blob(n);
        String seen = BlobLayout.isRecord(n) ? tenure.expected(n) : null;
        BlobRequestConditions conditions = seen == null || seen.equals(ABSENT) ? null
                : new BlobRequestConditions().setIfMatch(seen);
        try {
            client.deleteWithResponse(null, conditions, shared.timeout(), Context.NONE);
            shared.cache().forget(client.getBlobName());
            wrote(n, ABSENT);
            return;
        } catch (BlobStorageException e) {
            shared.cache().forget(client.getBlobName());
            if (conditions != null && BlobErrors.conditionFailed(e)) {
                throw new VersionConflictException(n + " (blob " + client.getBlobName() + ")", seen, e);
            }
            if (!BlobErrors.notFound(e)) {
                throw BlobErrors.io(n, client.getBlobName(), e);
            }
        } catch (RuntimeException e) {
            throw BlobErrors.io(n, client.getBlobName(), e);
        }
        if (n.isEmpty() || !isFolder(n)) {
            throw new NoSuchFileException(n, null, "no blob " + client.getBlobName());
        }
        if (!list(n).isEmpty()) {
            throw new DirectoryNotEmptyException(n);
        }
        BlobClient marker = container.getBlobClient(layout.marker(n));
        try {
            marker.deleteIfExistsWithResponse(null, null, shared.timeout(), Context.NONE);
        } catch (RuntimeException e) {
            throw BlobErrors.io(n, marker.getBlobName(), e);
        } finally {
            knownFolders.remove(n);
        }
    }

    @Override
    public CollectionLock lock(String name) {
        String n = BlobLayout.normalize(name);
        BlobClient client = blob(n);
        Path key = Path.of("/azure-blob", container.getAccountName(), container.getBlobContainerName())
                .resolve(client.getBlobName());
        return CollectionLock.open(key, () -> new LeaseLock(shared, client, key, tenure));
    }

    @Override
    public Optional<Entry> stat(String name) throws IOException {
        String n = BlobLayout.normalize(name);
        if (n.isEmpty() || knownFolders.contains(n)) {
            return Optional.of(new Entry(0, 0, Entry.Kind.DIRECTORY));
        }
        Optional<BlobProperties> file = properties(n, blob(n));
        if (file.isPresent()) {
            return Optional.of(new Entry(file.get().getBlobSize(), file.get().getLastModified().toInstant().toEpochMilli(),
                    Entry.Kind.FILE));
        }
        Optional<BlobProperties> folder = properties(n, container.getBlobClient(layout.marker(n)));
        folder.ifPresent(p -> knownFolders.add(n));
        return folder.map(p -> new Entry(0, p.getLastModified().toInstant().toEpochMilli(), Entry.Kind.DIRECTORY));
    }

    @Override
    public void createDirectories(String dir) throws IOException {
        String d = BlobLayout.normalize(dir);
        if (d.isEmpty() || knownFolders.contains(d)) {
            return;
        }
        int slash = d.lastIndexOf('/');
        if (slash > 0) {
            createDirectories(d.substring(0, slash));
        }
        if (properties(d, blob(d)).isPresent()) {
            throw new FileAlreadyExistsException(d, null, "a file has the name");
        }
        BlobClient marker = container.getBlobClient(layout.marker(d));
        try {
            shared.createIfAbsent(marker, new byte[0]);
        } catch (RuntimeException e) {
            throw BlobErrors.io(d, marker.getBlobName(), e);
        }
        knownFolders.add(d);
    }

    @Override
    public Optional<String> version(String name) throws IOException {
        String n = BlobLayout.normalize(name);
        Optional<String> version = properties(n, blob(n)).map(BlobProperties::getETag);
        if (BlobLayout.isRecord(n)) {
            tenure.saw(n, version.orElse(ABSENT));
        }
        return version;
    }

    @Override
    public String writeIfVersion(String name, byte[] bytes, String expectedVersion) throws IOException {
        String n = BlobLayout.normalize(name);
        createParent(n);
        return upload(n, bytes, expectedVersion, true);
    }

    /**
     * Uploads a whole file in one request.
     *
     * @param name the seam name
     * @param bytes the content
     * @param expected the ETag to match; {@code null} with {@code conditional} for "must not exist"
     * @param conditional whether to send the condition at all
     * @return the new ETag
     */
    String upload(String name, byte[] bytes, String expected, boolean conditional) throws IOException {
        BlobClient client = blob(name);
        String seen = conditional || !BlobLayout.isRecord(name) ? null : tenure.expected(name);
        if (seen != null) { // a record replaced in a lease tenure: only at the ETag the holder saw
            conditional = true;
            expected = seen.equals(ABSENT) ? null : seen;
        }
        BlockBlobSimpleUploadOptions options = new BlockBlobSimpleUploadOptions(BinaryData.fromBytes(bytes));
        if (conditional) {
            options.setRequestConditions(expected == null ? new BlobRequestConditions().setIfNoneMatch("*")
                    : new BlobRequestConditions().setIfMatch(expected));
        }
        try {
            String etag = client.getBlockBlobClient().uploadWithResponse(options, shared.timeout(), Context.NONE)
                    .getValue().getETag();
            shared.cache().wrote(client.getBlobName(), bytes, etag);
            wrote(name, etag);
            return etag;
        } catch (RuntimeException e) {
            shared.cache().forget(client.getBlobName());
            if (conditional) {
                throw BlobErrors.conflictOrThrow(name, client.getBlobName(), expected, e);
            }
            throw BlobErrors.io(name, client.getBlobName(), e);
        }
    }

    /** @return the bytes of a file, through the cache */
    BlobCache.Read read(String name) throws IOException {
        String n = BlobLayout.normalize(name);
        BlobClient client = blob(n);
        try {
            BlobCache.Read read = shared.cache().read(client);
            saw(n, read.etag());
            return read;
        } catch (RuntimeException e) {
            IOException failure = BlobErrors.io(n, client.getBlobName(), e);
            if (failure instanceof NoSuchFileException) {
                saw(n, ABSENT);
            }
            throw failure;
        }
    }

    private void saw(String name, String etag) {
        if (name.equals(SWAPPED)) {
            manifestSeen = etag;
        } else if (BlobLayout.isRecord(name)) {
            tenure.saw(name, etag);
        }
    }

    private void wrote(String name, String etag) {
        if (name.equals(SWAPPED)) {
            manifestSeen = etag;
        } else if (BlobLayout.isRecord(name)) {
            tenure.wrote(name, etag);
        }
    }

    /** @return the properties of a blob, empty when it does not exist */
    Optional<BlobProperties> properties(String name, BlobClient client) throws IOException {
        try {
            return Optional.of(client.getPropertiesWithResponse(null, shared.timeout(), Context.NONE).getValue());
        } catch (BlobStorageException e) {
            if (BlobErrors.notFound(e)) {
                return Optional.empty();
            }
            throw BlobErrors.io(name, client.getBlobName(), e);
        } catch (RuntimeException e) {
            throw BlobErrors.io(name, client.getBlobName(), e);
        }
    }

    BlobShared shared() {
        return shared;
    }

    BlobClient blob(String normalizedName) {
        return container.getBlobClient(layout.blob(normalizedName));
    }

    private boolean isFolder(String dir) throws IOException {
        return stat(dir).map(e -> e.kind() == Entry.Kind.DIRECTORY).orElse(false);
    }

    private void createParent(String name) throws IOException {
        int slash = name.lastIndexOf('/');
        if (slash > 0) {
            createDirectories(name.substring(0, slash));
        }
    }
}
