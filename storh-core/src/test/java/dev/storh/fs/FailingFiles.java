package dev.storh.fs;

import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;

/**
 * A byte seam over the local files that fails on demand at one commit point, for names that match
 * a predicate (in the manner of Tape's {@code BrokenRandomAccessFile}). Nothing is mocked: every
 * operation that is not made to fail goes to the real files under the root (forwarded by
 * {@link ForwardingFiles}). Thread-safe.
 */
public final class FailingFiles extends ForwardingFiles {

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

    private volatile java.util.Set<Point> points = java.util.Set.of();
    private volatile Predicate<String> names = n -> true;
    private final AtomicInteger failures = new AtomicInteger();

    private FailingFiles(Path root) {
        super(LocalFiles.at(root));
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

    /**
     * @return {@code false}: this seam syncs file by file, so that each fsync can be made to fail
     */
    @Override
    public boolean syncFileSystem(String name) {
        return false;
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
    public Output create(String name) throws IOException {
        return wrap(files.create(name), name, Point.TEMP_WRITE, Point.FSYNC);
    }

    @Override
    public Output append(String name) throws IOException {
        return wrap(files.append(name), name, Point.APPEND, Point.APPEND_FSYNC);
    }

    @Override
    public void rename(String from, String to) throws IOException {
        maybeFail(Point.RENAME, to);
        files.rename(from, to);
    }

    @Override
    public void syncDirectory(String dir) throws IOException {
        maybeFail(Point.DIRECTORY_FSYNC, dir);
        files.syncDirectory(dir);
    }

    @Override
    public void delete(String name) throws IOException {
        maybeFail(Point.DELETE, name);
        files.delete(name);
    }

    @Override
    public void createDirectories(String dir) throws IOException {
        maybeFail(Point.MKDIR, dir);
        files.createDirectories(dir);
    }

    /** Writes through this seam's create, rename and folder fsync, so their failure points apply. */
    @Override
    public String writeIfVersion(String name, byte[] bytes, String expectedVersion) throws IOException {
        return StoreFiles.writeIfVersionByRename(this, name, bytes, expectedVersion);
    }

    /** Fails at {@link Point#RENAME} of {@code b}, as the renames it stands for would. */
    @Override
    public boolean exchange(String a, String b) throws IOException {
        maybeFail(Point.RENAME, b);
        return files.exchange(a, b);
    }

    private Output wrap(Output out, String name, Point write, Point sync) {
        return new ForwardingOutput(out) {
            @Override
            public void write(byte[] bytes, int offset, int length) throws IOException {
                maybeFail(write, name);
                super.write(bytes, offset, length);
            }

            @Override
            public void sync() throws IOException {
                maybeFail(sync, name);
                super.sync();
            }

            @Override
            public void syncData() throws IOException {
                maybeFail(sync, name);
                super.syncData();
            }

            @Override
            public void truncate(long size) throws IOException {
                maybeFail(Point.TRUNCATE, name);
                super.truncate(size);
            }
        };
    }
}
