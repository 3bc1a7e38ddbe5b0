package dev.storh.fs;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

/**
 * The local seam, counting each look at a name (stat, version, exists) and each read of one (the
 * opens and {@code readAll}), by a kind its caller gives the name. Thread-safe.
 */
public final class LookCounting extends ForwardingFiles {

    private final Function<String, String> kindOf;
    private final Map<String, AtomicInteger> byKind = new ConcurrentHashMap<>();

    /**
     * @param folder the seam's root
     * @param kindOf the kind a name counts under
     */
    public LookCounting(Path folder, Function<String, String> kindOf) {
        super(LocalFiles.at(folder));
        this.kindOf = kindOf;
    }

    /** @return the looks and reads of names of that kind since the last {@link #reset} */
    public int of(String kind) {
        AtomicInteger n = byKind.get(kind);
        return n == null ? 0 : n.get();
    }

    /** Starts counting again from zero. */
    public void reset() {
        byKind.clear();
    }

    private void count(String name) {
        byKind.computeIfAbsent(kindOf.apply(name), k -> new AtomicInteger()).incrementAndGet();
    }

    @Override
    public Optional<Entry> stat(String name) throws IOException {
        count(name);
        return files.stat(name);
    }

    @Override
    public Optional<String> version(String name) throws IOException {
        count(name);
        return files.version(name);
    }

    @Override
    public boolean exists(String name) throws IOException {
        count(name);
        return files.exists(name);
    }

    @Override
    public InputStream open(String name) throws IOException {
        count(name);
        return files.open(name);
    }

    @Override
    public InputStream open(String name, long offset) throws IOException {
        count(name);
        return files.open(name, offset);
    }

    @Override
    public Input openInput(String name) throws IOException {
        count(name);
        return files.openInput(name);
    }

    @Override
    public byte[] readAll(String name) throws IOException {
        count(name);
        return files.readAll(name);
    }
}
