package dev.storh.fs;

import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

/** {@link StoreFilesContract} on the local file system. */
class LocalFilesContractTest extends StoreFilesContract {

    @TempDir
    Path dir;

    @Override
    protected StoreFiles newFiles() {
        return LocalFiles.at(dir);
    }
}
