package dev.storh.bench.jmh;

import dev.storh.fs.AtomicFiles;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;

/**
 * The settings every storh JMH benchmark shares (JMH reads them from the superclass): one state
 * per benchmark, average time per operation, one fork. Subclasses set their own time unit,
 * warm-up and measurement. Benchmarks that write files keep them in a temp folder of their own
 * ({@link #createRoot}, {@link #deleteRoot}). Not thread-safe: JMH calls set-up and tear-down
 * from one thread.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@Fork(1)
public abstract class StorhBenchmark {

    /** The trial's storage root, once {@link #createRoot} ran. */
    protected Path root;

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
     * Deletes the storage root and everything in it; the stores on it must be closed.
     */
    protected void deleteRoot() {
        AtomicFiles.deleteTree(root);
    }
}
