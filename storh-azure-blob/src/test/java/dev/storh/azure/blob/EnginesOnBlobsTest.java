package dev.storh.azure.blob;

import dev.storh.engine.EngineSeamContract;
import dev.storh.fs.StoreFiles;
import java.nio.file.Path;
import java.util.function.Function;
import org.junit.jupiter.api.extension.RegisterExtension;

/** {@link EngineSeamContract} on Azurite's blob service: every test gets a container of its own. */
class EnginesOnBlobsTest extends EngineSeamContract {

    @RegisterExtension
    final Azurite.Fresh blob = new Azurite.Fresh();

    @Override
    protected Function<Path, StoreFiles> files(Path root) {
        return blob.backend().under(root);
    }
}
