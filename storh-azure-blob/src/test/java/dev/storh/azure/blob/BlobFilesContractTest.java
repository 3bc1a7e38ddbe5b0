package dev.storh.azure.blob;

import dev.storh.fs.StoreFiles;
import dev.storh.fs.StoreFilesContract;
import java.nio.file.Path;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/** {@link StoreFilesContract} on Azurite's blob service: every test gets a store of its own. */
class BlobFilesContractTest extends StoreFilesContract {

    private static AzureBlobBackend backend;

    @BeforeAll
    static void connect() {
        backend = Azurite.backend(Azurite.freshContainer());
    }

    @AfterAll
    static void close() {
        if (backend != null) {
            backend.container().delete();
            backend.close();
        }
    }

    @Override
    protected StoreFiles newFiles() {
        Path root = Path.of("/stores");
        return backend.files(root, root.resolve("pages-" + UUID.randomUUID()));
    }
}
