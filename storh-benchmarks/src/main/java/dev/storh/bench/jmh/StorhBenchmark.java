package dev.storh.bench.jmh;

import dev.storh.fs.AtomicFiles;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * The settings every storh JMH benchmark shares (JMH reads them from the superclass): one state
 * per benchmark, average time per operation, one fork. Subclasses set their own time unit,
 * warm-up and measurement. Benchmarks that write files keep them in a temp folder of their own
 * ({@link #createRoot}), with the stores on it {@linkplain #onRoot registered}; the trial's
 * tear-down ({@link #deleteRoot}) closes those and deletes the folder. Not thread-safe: JMH calls
 * set-up and tear-down from one thread.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@Fork(1)
public abstract class StorhBenchmark {

    /** The trial's storage root, once {@link #createRoot} ran. */
    protected Path root;

    private final List<AutoCloseable> opened = new ArrayList<>();

    /**
     * Creates a new, empty temp folder as the trial's storage root.
     *
     * @param prefix the folder name's prefix
     * @return the root
     * @throws IOException when the folder cannot be created
     */
    protected Path createRoot(String prefix) throws IOException {
        root = Files.createTempDirectory(prefix);
        return root;
    }

    /**
     * @param <T> the store's type
     * @param store a store opened on the root, closed by {@link #deleteRoot}
     * @return the store
     */
    protected <T extends AutoCloseable> T onRoot(T store) {
        opened.add(store);
        return store;
    }

    /**
     * Closes the registered stores, last first, then deletes the storage root and everything in
     * it; does nothing for a benchmark without a root.
     *
     * @throws Exception when a store cannot be closed
     */
    @TearDown(Level.Trial)
    public void deleteRoot() throws Exception {
        for (int i = opened.size() - 1; i >= 0; i--) {
            opened.get(i).close();
        }
        opened.clear();
        if (root != null) {
            AtomicFiles.deleteTree(root);
            root = null;
        }
    }
}
