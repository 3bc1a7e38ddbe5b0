package dev.storh.azure.blob;

import com.azure.storage.blob.models.BlobErrorCode;
import com.azure.storage.blob.models.BlobStorageException;
import dev.storh.VersionConflictException;
import java.io.IOException;
import java.nio.file.NoSuchFileException;

/** Turns the service's answers into the seam's exceptions, naming the file and its blob. */
final class BlobErrors {

    private BlobErrors() {
    }

    /** @return whether the blob (or container) does not exist */
    static boolean notFound(BlobStorageException e) {
        return e.getStatusCode() == 404;
    }

    /** @return whether a condition ({@code If-Match}, {@code If-None-Match}, append position) failed */
    static boolean conditionFailed(BlobStorageException e) {
        return e.getStatusCode() == 412 || BlobErrorCode.BLOB_ALREADY_EXISTS.equals(e.getErrorCode());
    }

    /** @return whether the blob's lease is held by another lease id */
    static boolean leased(BlobStorageException e) {
        return e.getStatusCode() == 409 || e.getStatusCode() == 412;
    }

    /**
     * @param name the seam name
     * @param blob the blob name
     * @param e the failure
     * @return a {@link NoSuchFileException} for a missing blob, else an {@link IOException} naming both
     */
    static IOException io(String name, String blob, RuntimeException e) {
        if (e instanceof BlobStorageException b) {
            if (notFound(b)) {
                NoSuchFileException missing = new NoSuchFileException(name, null, "no blob " + blob);
                missing.initCause(e);
                return missing;
            }
            return new IOException(name + " (blob " + blob + "): " + b.getErrorCode() + ", HTTP " + b.getStatusCode(), e);
        }
        return new IOException(name + " (blob " + blob + "): " + e.getMessage(), e);
    }

    /**
     * @param name the seam name
     * @param blob the blob name
     * @param expected the version that was expected, {@code null} for "must not exist"
     * @param e the failure
     * @return a {@link VersionConflictException} for a failed condition
     * @throws IOException any other failure, as {@link #io}
     */
    static VersionConflictException conflictOrThrow(String name, String blob, String expected, RuntimeException e)
            throws IOException {
        if (e instanceof BlobStorageException b && (conditionFailed(b) || (expected != null && notFound(b)))) {
            return new VersionConflictException(name + " (blob " + blob + ")", expected, e);
        }
        throw io(name, blob, e);
    }
}
