package dev.storh.engine;

import dev.storh.fs.LocalFiles;
import dev.storh.fs.StoreFiles;
import java.nio.file.Path;
import java.util.function.Function;

/** {@link EngineSeamContract} on the local file system. */
class EnginesOnLocalFilesTest extends EngineSeamContract {

    @Override
    protected Function<Path, StoreFiles> files(Path root) {
        return LocalFiles::at;
    }
}
