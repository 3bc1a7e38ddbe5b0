/**
 * Azure Blob Storage behind storh's byte seam: {@link dev.storh.azure.blob.AzureBlobBackend}
 * connects to one container and makes a {@link dev.storh.azure.blob.BlobFiles} per store folder;
 * {@link dev.storh.azure.blob.BlobLayout} maps file names onto blob names (bucket or hash first);
 * writes are compare-and-set on ETags, locks are blob leases, appends go through append blobs.
 * See the project's {@code docs/azure-blob.md}.
 */
package dev.storh.azure.blob;
