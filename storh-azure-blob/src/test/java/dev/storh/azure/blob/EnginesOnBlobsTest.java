package dev.storh.azure.blob;

import dev.storh.engine.EngineSeamContract;
import dev.storh.fs.StoreFiles;
import java.nio.file.Path;
import java.util.function.Function;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

/** {@link EngineSeamContract} on Azurite's blob service: every test gets a container of its own. */
class EnginesOnBlobsTest extends EngineSeamContract {

    private AzureBlobBackend backend;

    @BeforeEach
    void connect() {
        backend = Azurite.backend(Azurite.freshContainer());
    }

    @AfterEach
    void close() {
        if (backend != null) {
            backend.container().delete();
            backend.close();
        }
    }

    @Override
    protected Function<Path, StoreFiles> files(Path root) {
        return backend.under(root);
    }
}
