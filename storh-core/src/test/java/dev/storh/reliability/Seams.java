package dev.storh.reliability;

import dev.storh.doc.DocStoreOptions;
import dev.storh.fs.StoreFiles;
import dev.storh.log.SegmentedLogOptions;
import dev.storh.queue.QueueOptions;
import java.nio.file.Path;
import java.util.function.Function;

/**
 * Engine options with a byte seam put under them through the common
 * {@link dev.storh.store.StoreOptions.Builder#files} setter; {@code null} keeps the local files.
 */
final class Seams {

    private Seams() {
    }

    static DocStoreOptions docOptions(Function<Path, StoreFiles> files) {
        return files == null ? DocStoreOptions.defaults() : DocStoreOptions.builder().files(files).build();
    }

    static SegmentedLogOptions logOptions(Function<Path, StoreFiles> files) {
        return files == null ? SegmentedLogOptions.defaults() : SegmentedLogOptions.builder().files(files).build();
    }

    static QueueOptions queueOptions(Function<Path, StoreFiles> files) {
        return files == null ? QueueOptions.defaults() : QueueOptions.builder().files(files).build();
    }
}
