package dev.storh.observe;

import java.io.IOException;
import java.nio.file.Path;

import dev.storh.fs.ForwardingFiles;
import dev.storh.fs.StoreFiles;

/**
 * A byte seam that passes every call to another ({@link ForwardingFiles}: default methods included,
 * so a backend's own versions of them still run) and reports how long each file and folder fsync
 * took; a backend's {@code writeIfVersion} is passed through whole, untimed. Thread-safe as the
 * seam under it.
 */
final class ObservedFiles extends ForwardingFiles {

    private final StoreObserver observer;
    private final String store;

    ObservedFiles(StoreFiles files, StoreObserver observer) {
        super(files);
        this.observer = observer;
        Path name = files.root().getFileName();
        this.store = name == null ? files.root().toString() : name.toString();
    }

    @Override
    public Output create(String name) throws IOException {
        return new TimedOutput(files.create(name));
    }

    @Override
    public Output append(String name) throws IOException {
        return new TimedOutput(files.append(name));
    }

    @Override
    public void syncDirectory(String dir) throws IOException {
        timed(true, () -> files.syncDirectory(dir));
    }

    /** An fsync, as a method reference. */
    private interface Sync {
        void run() throws IOException;
    }

    private void timed(boolean directory, Sync sync) throws IOException {
        long start = System.nanoTime();
        sync.run();
        observer.fsync(store, directory, System.nanoTime() - start);
    }

    @Override
    public String toString() {
        return "Observed" + files;
    }

    /** An output whose {@code sync} and {@code syncData} are timed. */
    private final class TimedOutput extends dev.storh.fs.ForwardingOutput {

        TimedOutput(Output out) {
            super(out);
        }

        @Override
        public void sync() throws IOException {
            timed(false, out::sync);
        }

        @Override
        public void syncData() throws IOException {
            timed(false, out::syncData);
        }
    }
}
