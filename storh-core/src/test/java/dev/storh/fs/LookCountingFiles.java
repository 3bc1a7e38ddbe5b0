package dev.storh.fs;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A local seam that counts, per name, every look at a file's metadata ({@code stat}, {@code version}, {@code likelyFileVersion},
 * {@code versionInSeenFolder},
 * {@code identity}, {@code identified}, {@code statWithIdentity}, each read of a {@code folderTime}), every size asked of an
 * open output and every write call
 * per name: what a write path costs besides its writes and its fsyncs.
 */
public final class LookCountingFiles extends ForwardingFiles {

    private final Map<String, AtomicInteger> looks = new ConcurrentHashMap<>();
    private final AtomicInteger handleSizes = new AtomicInteger();
    private final Map<String, AtomicInteger> writes = new ConcurrentHashMap<>();

    /**
     * @param folder the seam's root
     */
    public LookCountingFiles(Path folder) {
        super(LocalFiles.at(folder));
    }

    private void looked(String name) {
        looks.computeIfAbsent(name, n -> new AtomicInteger()).incrementAndGet();
    }

    /** @return looks per name since the last {@link #reset} */
    public Map<String, Integer> looks() {
        Map<String, Integer> copy = new java.util.TreeMap<>();
        looks.forEach((name, count) -> copy.put(name, count.get()));
        return copy;
    }

    /** @return sizes asked of open outputs since the last {@link #reset} */
    public int handleSizes() {
        return handleSizes.get();
    }

    /** @return write calls per name of outputs opened since the last {@link #reset} */
    public Map<String, Integer> writes() {
        Map<String, Integer> copy = new java.util.TreeMap<>();
        writes.forEach((name, count) -> copy.put(name, count.get()));
        return copy;
    }

    /** Forgets what was counted. */
    public void reset() {
        looks.clear();
        handleSizes.set(0);
        writes.clear();
    }

    @Override
    public Optional<Entry> stat(String name) throws IOException {
        looked(name);
        return files.stat(name);
    }

    @Override
    public Optional<String> version(String name) throws IOException {
        looked(name);
        return files.version(name);
    }

    @Override
    public Optional<String> likelyFileVersion(String name) throws IOException {
        looked(name);
        return files.likelyFileVersion(name);
    }

    @Override
    public Optional<String> versionInSeenFolder(String name) throws IOException {
        looked(name);
        return files.versionInSeenFolder(name);
    }

    @Override
    public Object identity(String name) throws IOException {
        looked(name);
        return files.identity(name);
    }

    @Override
    public Identified identified(String name) throws IOException {
        looked(name);
        return files.identified(name);
    }

    @Override
    public Optional<Stated> statWithIdentity(String name) throws IOException {
        looked(name);
        return files.statWithIdentity(name);
    }

    @Override
    public FolderTime folderTime(String folder) {
        FolderTime below = files.folderTime(folder);
        return () -> {
            looked(folder);
            return below.millis();
        };
    }

    @Override
    public Output append(String name) throws IOException {
        return counted(name, files.append(name));
    }

    @Override
    public Output create(String name) throws IOException {
        return counted(name, files.create(name));
    }

    private Output counted(String name, Output out) {
        return new ForwardingOutput(out) {
            @Override
            public void write(byte[] bytes, int offset, int length) throws IOException {
                writes.computeIfAbsent(name, n -> new AtomicInteger()).incrementAndGet();
                out.write(bytes, offset, length);
            }

            @Override
            public long size() throws IOException {
                handleSizes.incrementAndGet();
                return out.size();
            }
        };
    }
}
