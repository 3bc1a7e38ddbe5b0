package dev.storh.fs;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;

/**
 * A byte seam over the local files that fails on demand at one commit point, for names that match
 * a predicate (in the manner of Tape's {@code BrokenRandomAccessFile}). Nothing is mocked: every
 * operation that is not made to fail goes to the real files under the root. Thread-safe.
 */
public final class FailingFiles implements StoreFiles {

    /** Where a write can be made to fail. */
    public enum Point {
        /** writing a new (temp) file's bytes: nothing is written */
        TEMP_WRITE,
        /** the fsync of a new (temp) file */
        FSYNC,
        /** the atomic rename of a temp file over its target */
        RENAME,
        /** the fsync of a folder after a rename or delete */
        DIRECTORY_FSYNC,
        /** writing bytes of an append: nothing is written */
        APPEND,
        /** the fsync of an appended file */
        APPEND_FSYNC,
        /** removing a file */
        DELETE,
        /** creating a folder */
        MKDIR,
        /** cutting a file back (a torn tail, or a failed append rolled back) */
        TRUNCATE
    }

    private final LocalFiles local;
    private volatile java.util.Set<Point> points = java.util.Set.of();
    private volatile Predicate<String> names = n -> true;
    private final AtomicInteger failures = new AtomicInteger();

    private FailingFiles(Path root) {
        this.local = LocalFiles.at(root);
    }

    /**
     * @param root the folder the names are relative to
     * @return a seam that fails nothing until {@link #failAt} is called
     */
    public static FailingFiles at(Path root) {
        return new FailingFiles(root);
    }

    /**
     * @param point the commit point to fail at, every time until {@link #heal()}
     * @param nameFilter which names fail (the file's name, or the folder's for a folder fsync)
     * @return this
     */
    public FailingFiles failAt(Point point, Predicate<String> nameFilter) {
        return failAt(java.util.Set.of(point), nameFilter);
    }

    /**
     * @param failing the commit points to fail at, each every time until {@link #heal()} (e.g. an
     *     append's fsync and the truncate that would roll it back)
     * @param nameFilter which names fail (the file's name, or the folder's for a folder fsync)
     * @return this
     */
    public FailingFiles failAt(java.util.Set<Point> failing, Predicate<String> nameFilter) {
        this.names = nameFilter;
        this.points = java.util.Set.copyOf(failing);
        return this;
    }

    /** Stops failing. */
    public void heal() {
        this.points = java.util.Set.of();
    }

    /** @return how many operations were made to fail */
    public int failures() {
        return failures.get();
    }

    private void maybeFail(Point at, String name) throws IOException {
        if (points.contains(at) && names.test(name)) {
            failures.incrementAndGet();
            throw new IOException("injected failure at " + at + " of " + name);
        }
    }

    @Override
    public Path root() {
        return local.root();
    }

    @Override
    public InputStream open(String name) throws IOException {
        return local.open(name);
    }

    @Override
    public Output create(String name) throws IOException {
        return wrap(local.create(name), name, Point.TEMP_WRITE, Point.FSYNC);
    }

    @Override
    public Output append(String name) throws IOException {
        return wrap(local.append(name), name, Point.APPEND, Point.APPEND_FSYNC);
    }

    @Override
    public void rename(String from, String to) throws IOException {
        maybeFail(Point.RENAME, to);
        local.rename(from, to);
    }

    @Override
    public void syncDirectory(String dir) throws IOException {
        maybeFail(Point.DIRECTORY_FSYNC, dir);
        local.syncDirectory(dir);
    }

    @Override
    public List<String> list(String dir) throws IOException {
        return local.list(dir);
    }

    @Override
    public void delete(String name) throws IOException {
        maybeFail(Point.DELETE, name);
        local.delete(name);
    }

    @Override
    public java.util.Optional<Entry> stat(String name) throws IOException {
        return local.stat(name);
    }

    @Override
    public void createDirectories(String dir) throws IOException {
        maybeFail(Point.MKDIR, dir);
        local.createDirectories(dir);
    }

    @Override
    public InputStream open(String name, long offset) throws IOException {
        return local.open(name, offset);
    }

    @Override
    public java.util.Optional<String> version(String name) throws IOException {
        return local.version(name);
    }

    @Override
    public long modifiedMillis(String version) {
        return local.modifiedMillis(version);
    }

    @Override
    public Object identity(String name) throws IOException {
        return local.identity(name);
    }

    @Override
    public Input openInput(String name) throws IOException {
        return local.openInput(name);
    }

    @Override
    public CollectionLock lock(String name) {
        return local.lock(name);
    }

    @Override
    public boolean isReadOnly() {
        return local.isReadOnly();
    }

    /** Fails at {@link Point#RENAME} of {@code b}, as the renames it stands for would. */
    @Override
    public boolean exchange(String a, String b) throws IOException {
        maybeFail(Point.RENAME, b);
        return local.exchange(a, b);
    }

    private Output wrap(Output out, String name, Point write, Point sync) {
        return new Output() {
            @Override
            public void write(byte[] bytes, int offset, int length) throws IOException {
                maybeFail(write, name);
                out.write(bytes, offset, length);
            }

            @Override
            public void sync() throws IOException {
                maybeFail(sync, name);
                out.sync();
            }

            @Override
            public void syncData() throws IOException {
                maybeFail(sync, name);
                out.syncData();
            }

            @Override
            public long size() throws IOException {
                return out.size();
            }

            @Override
            public void truncate(long size) throws IOException {
                maybeFail(Point.TRUNCATE, name);
                out.truncate(size);
            }

            @Override
            public void close() throws IOException {
                out.close();
            }
        };
    }
}
