package dev.storh.fs;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * The local files under a root, except that appends to the chosen names open {@code /dev/full}
 * (Linux): their writes fail for real with ENOSPC, and cutting them back fails too (a device cannot
 * be truncated). Every other operation, reads and stat of those names included, reaches the real
 * files under the root. Thread-safe.
 */
public final class DevFullFiles implements StoreFiles {

    private static final Path FULL = Path.of("/dev/full");

    private final LocalFiles local;
    private final Predicate<String> full;

    private DevFullFiles(Path root, Predicate<String> full) {
        this.local = LocalFiles.at(root);
        this.full = full;
    }

    /**
     * @param root the folder the names are relative to
     * @param full which names' appends go to {@code /dev/full}
     * @return the seam
     */
    public static DevFullFiles at(Path root, Predicate<String> full) {
        return new DevFullFiles(root, full);
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
        return local.create(name);
    }

    @Override
    public Output append(String name) throws IOException {
        return full.test(name) ? LocalFiles.unrooted().append(FULL.toString()) : local.append(name);
    }

    @Override
    public void rename(String from, String to) throws IOException {
        local.rename(from, to);
    }

    @Override
    public void syncDirectory(String dir) throws IOException {
        local.syncDirectory(dir);
    }

    @Override
    public List<String> list(String dir) throws IOException {
        return local.list(dir);
    }

    @Override
    public void delete(String name) throws IOException {
        local.delete(name);
    }

    @Override
    public CollectionLock lock(String name) {
        return local.lock(name);
    }

    @Override
    public Optional<Entry> stat(String name) throws IOException {
        return local.stat(name);
    }

    @Override
    public void createDirectories(String dir) throws IOException {
        local.createDirectories(dir);
    }

    @Override
    public Input openInput(String name) throws IOException {
        return local.openInput(name);
    }

    @Override
    public Object identity(String name) throws IOException {
        return local.identity(name);
    }
}
