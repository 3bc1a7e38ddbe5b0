package dev.storh.observe;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

import dev.storh.fs.CollectionLock;
import dev.storh.fs.StoreFiles;

/**
 * A byte seam that passes every call to another (default methods included, so a backend's own
 * versions of them still run) and reports how long each file and folder fsync took; a backend's
 * {@code writeIfVersion} is passed through whole, untimed. Thread-safe as the seam under it.
 */
final class ObservedFiles implements StoreFiles {

    private final StoreFiles files;
    private final StoreObserver observer;
    private final String store;

    ObservedFiles(StoreFiles files, StoreObserver observer) {
        this.files = files;
        this.observer = observer;
        Path name = files.root().getFileName();
        this.store = name == null ? files.root().toString() : name.toString();
    }

    @Override
    public Path root() {
        return files.root();
    }

    @Override
    public Path path(String name) {
        return files.path(name);
    }

    @Override
    public String nameOf(Path path) {
        return files.nameOf(path);
    }

    @Override
    public InputStream open(String name) throws IOException {
        return files.open(name);
    }

    @Override
    public InputStream open(String name, long offset) throws IOException {
        return files.open(name, offset);
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
    public void rename(String from, String to) throws IOException {
        files.rename(from, to);
    }

    @Override
    public void syncDirectory(String dir) throws IOException {
        timed(true, () -> files.syncDirectory(dir));
    }

    @Override
    public List<String> list(String dir) throws IOException {
        return files.list(dir);
    }

    @Override
    public void delete(String name) throws IOException {
        files.delete(name);
    }

    @Override
    public CollectionLock lock(String name) {
        return files.lock(name);
    }

    @Override
    public Optional<Entry> stat(String name) throws IOException {
        return files.stat(name);
    }

    @Override
    public boolean exists(String name) throws IOException {
        return files.exists(name);
    }

    @Override
    public void createDirectories(String dir) throws IOException {
        files.createDirectories(dir);
    }

    @Override
    public Optional<String> version(String name) throws IOException {
        return files.version(name);
    }

    @Override
    public String writeIfVersion(String name, byte[] bytes, String expectedVersion) throws IOException {
        return files.writeIfVersion(name, bytes, expectedVersion);
    }

    @Override
    public Object identity(String name) throws IOException {
        return files.identity(name);
    }

    @Override
    public Input openInput(String name) throws IOException {
        return files.openInput(name);
    }

    @Override
    public boolean isReadOnly() {
        return files.isReadOnly();
    }

    @Override
    public boolean exchange(String a, String b) throws IOException {
        return files.exchange(a, b);
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
    private final class TimedOutput implements Output {
        private final Output out;

        TimedOutput(Output out) {
            this.out = out;
        }

        @Override
        public void write(byte[] bytes, int offset, int length) throws IOException {
            out.write(bytes, offset, length);
        }

        @Override
        public void sync() throws IOException {
            timed(false, out::sync);
        }

        @Override
        public void syncData() throws IOException {
            timed(false, out::syncData);
        }

        @Override
        public long size() throws IOException {
            return out.size();
        }

        @Override
        public void truncate(long size) throws IOException {
            out.truncate(size);
        }

        @Override
        public void close() throws IOException {
            out.close();
        }
    }
}
