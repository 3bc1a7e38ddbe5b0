package dev.storh.fs;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A local seam that counts, per name, every look at a file's metadata ({@code stat}, {@code version},
 * {@code identity}, {@code identified}) and every size asked of an open output: what a write path
 * costs besides its write and its fsync.
 */
public final class LookCountingFiles extends ForwardingFiles {

    private final Map<String, AtomicInteger> looks = new ConcurrentHashMap<>();
    private final AtomicInteger handleSizes = new AtomicInteger();

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

    /** Forgets what was counted. */
    public void reset() {
        looks.clear();
        handleSizes.set(0);
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
    public Output append(String name) throws IOException {
        Output out = files.append(name);
        return new ForwardingOutput(out) {
            @Override
            public long size() throws IOException {
                handleSizes.incrementAndGet();
                return out.size();
            }
        };
    }
}
