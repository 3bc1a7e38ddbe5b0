package dev.storh.reliability;

import dev.storh.doc.DocStoreOptions;
import dev.storh.fs.StoreFiles;
import dev.storh.log.SegmentedLogOptions;
import dev.storh.queue.QueueOptions;
import java.lang.reflect.Method;
import java.nio.file.Path;
import java.util.function.Function;

/**
 * Engine options with a byte seam put under them. The engines' {@code files(...)} setters become
 * public as each engine's options adopt {@code dev.storh.store.StoreOptions}; until then the
 * setter is reached by name (the same call either way).
 */
final class Seams {

    private Seams() {
    }

    static DocStoreOptions docOptions(Function<Path, StoreFiles> files) {
        return files == null ? DocStoreOptions.defaults() : with(DocStoreOptions.builder(), files).build();
    }

    static SegmentedLogOptions logOptions(Function<Path, StoreFiles> files) {
        return files == null ? SegmentedLogOptions.defaults() : with(SegmentedLogOptions.builder(), files).build();
    }

    static QueueOptions queueOptions(Function<Path, StoreFiles> files) {
        return files == null ? QueueOptions.defaults() : with(QueueOptions.builder(), files).build();
    }

    /** Calls {@code builder.files(files)}, public or not. */
    static <B> B with(B builder, Function<Path, StoreFiles> files) {
        for (Class<?> c = builder.getClass(); c != null; c = c.getSuperclass()) {
            for (Method m : c.getDeclaredMethods()) {
                if (m.getName().equals("files") && m.getParameterCount() == 1
                        && m.getParameterTypes()[0] == Function.class) {
                    try {
                        m.setAccessible(true);
                        m.invoke(builder, files);
                        return builder;
                    } catch (ReflectiveOperationException e) {
                        throw new IllegalStateException(e);
                    }
                }
            }
        }
        throw new IllegalStateException(builder.getClass() + " has no files(Function) setter");
    }
}
