package dev.storh.fs;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * A byte seam that hands every call to another one: the base of decorators that change a few
 * operations (record them, time them, make them fail) and must pass all the others on, including
 * the defaults an implementation overrides. Thread-safe when the seam below is.
 */
public abstract class ForwardingFiles implements StoreFiles {

    /** The seam below. */
    protected final StoreFiles files;

    /**
     * @param files the seam every call goes to
     */
    protected ForwardingFiles(StoreFiles files) {
        this.files = files;
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
    public byte[] readAll(String name) throws IOException {
        return files.readAll(name);
    }

    @Override
    public byte[] readAll(String name, long sizeSeen) throws IOException {
        return files.readAll(name, sizeSeen);
    }

    @Override
    public Output create(String name) throws IOException {
        return files.create(name);
    }

    @Override
    public Output append(String name) throws IOException {
        return files.append(name);
    }

    @Override
    public void rename(String from, String to) throws IOException {
        files.rename(from, to);
    }

    @Override
    public void syncDirectory(String dir) throws IOException {
        files.syncDirectory(dir);
    }

    @Override
    public boolean syncFileSystem(String name) throws IOException {
        return files.syncFileSystem(name);
    }

    @Override
    public boolean durableOnReturn() {
        return files.durableOnReturn();
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
    public Object identity(String name) throws IOException {
        return files.identity(name);
    }

    @Override
    public Identified identified(String name) throws IOException {
        return files.identified(name);
    }

    @Override
    public Optional<Stated> statWithIdentity(String name) throws IOException {
        return files.statWithIdentity(name);
    }

    @Override
    public boolean isReadOnly() {
        return files.isReadOnly();
    }

    @Override
    public Input openInput(String name) throws IOException {
        return files.openInput(name);
    }

    @Override
    public Optional<String> version(String name) throws IOException {
        return files.version(name);
    }

    @Override
    public Optional<String> likelyFileVersion(String name) throws IOException {
        return files.likelyFileVersion(name);
    }

    @Override
    public Optional<String> versionInSeenFolder(String name) throws IOException {
        return files.versionInSeenFolder(name);
    }

    @Override
    public boolean versionsNameFileStates() {
        return files.versionsNameFileStates();
    }

    @Override
    public long modifiedMillis(String version) {
        return files.modifiedMillis(version);
    }

    @Override
    public FolderTime folderTime(String folder) {
        return files.folderTime(folder);
    }

    @Override
    public long sizeOf(String version) {
        return files.sizeOf(version);
    }

    @Override
    public String writeIfVersion(String name, byte[] bytes, String expectedVersion) throws IOException {
        return files.writeIfVersion(name, bytes, expectedVersion);
    }

    @Override
    public boolean exchange(String a, String b) throws IOException {
        return files.exchange(a, b);
    }

    @Override
    public String toString() {
        return getClass().getSimpleName() + "[" + files + "]";
    }
}
