package dev.storh.spring.boot.stores;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;

import dev.storh.fs.WriterMarkers;
import dev.storh.progress.Progress;
import dev.storh.progress.ProgressListener;
import dev.storh.store.RepairReport;
import dev.storh.store.Store;
import dev.storh.store.VerifyReport;

/**
 * One store known to a {@link StorhStores} registry: a DocStore collection
 * ({@link CollectionStore}), a segmented log ({@link LogStore}) or a job queue
 * ({@link QueueStore}), with the maintenance operations health, metrics, the endpoint and the
 * scheduled verify share. Each operation is timed and reported to the registry's listeners;
 * {@link #verify()} also keeps its result as the store's {@linkplain #lastVerify() last verify}.
 * <p>
 * Thread-safe: the engines are; the last verify is held atomically.
 */
public abstract sealed class StorhStore permits CollectionStore, LogStore, QueueStore {

    private final String name;

    private final boolean owned;

    private volatile Store<?, ?, ?> contract;

    private final AtomicReference<VerifyResult> lastVerify = new AtomicReference<>();

    private final AtomicReference<Progress> verifyProgress = new AtomicReference<>();

    private volatile long lastVerifyBytes = -1;

    private volatile StorhStores registry;

    /**
     * @param contract the engine as the core store contract, which the maintenance operations
     * go through
     */
    StorhStore(String name, boolean owned, Store<?, ?, ?> contract) {
        this.name = name;
        this.owned = owned;
        this.contract = contract;
    }

    /**
     * @return the kind of store, its engine's {@linkplain Store#kind() kind}
     */
    public StoreType type() {
        return StoreType.of(this.contract.kind());
    }

    /**
     * @return the store's name: the collection, log or queue name
     */
    public String name() {
        return this.name;
    }

    /**
     * @return the store's folder, absolute: the collection folder, the log's (partition) folder
     * or the queue folder; writer markers live in its {@code .storh/writers/}
     */
    public Path path() {
        return this.contract.directory().toAbsolutePath();
    }

    /**
     * @return the engine as the store contract: a {@code DocStore}, {@code SegmentedLog} (for a
     * partitioned log, the partition in use) or {@code Queue}
     */
    public Store<?, ?, ?> engine() {
        return this.contract;
    }

    /**
     * Puts another engine in the place of the current one, for a log that moves to its next
     * partition; callers that already hold the old engine keep using it.
     * @param next the engine from now on
     */
    void replaceEngine(Store<?, ?, ?> next) {
        this.contract = next;
    }

    /**
     * @return whether the registry opened the engine and closes it on {@link StorhStores#close()}
     */
    public boolean owned() {
        return this.owned;
    }

    /**
     * @return the result of the last {@link #verify()}, empty before the first one
     */
    public Optional<VerifyResult> lastVerify() {
        return Optional.ofNullable(this.lastVerify.get());
    }

    /**
     * @return the latest progress of a {@link #verify()} running now (the scheduled one or any
     * other), empty when none runs
     */
    public Optional<Progress> verifyProgress() {
        return Optional.ofNullable(this.verifyProgress.get());
    }

    /**
     * @return the bytes the last finished {@link #verify()} read (a collection's record files, a
     * log's segments, a queue's log), empty before the first
     */
    public OptionalLong lastVerifyBytes() {
        long bytes = this.lastVerifyBytes;
        return (bytes >= 0) ? OptionalLong.of(bytes) : OptionalLong.empty();
    }

    /**
     * @return the markers of crashed writers in {@code <path>/.storh/writers/}, absolute, sorted;
     * empty for a queue (queues keep no writer markers)
     * @throws dev.storh.StorageException when the folder cannot be listed
     */
    public List<Path> staleWriters() {
        List<Path> stale = new ArrayList<>(WriterMarkers.staleMarkers(path()));
        stale.replaceAll((marker) -> marker.toAbsolutePath());
        stale.sort(null);
        return stale;
    }

    /**
     * @return the marker file names of writers whose process is alive (this process's open
     * instances among them), sorted
     * @throws dev.storh.StorageException when the folder cannot be listed
     */
    public List<String> liveWriters() {
        List<Path> stale = WriterMarkers.staleMarkers(path());
        List<String> live = new ArrayList<>();
        Path writers = WriterMarkers.writersDirectory(path());
        if (!Files.isDirectory(writers)) {
            return live;
        }
        try (DirectoryStream<Path> markers = Files.newDirectoryStream(writers)) {
            for (Path marker : markers) {
                if (!stale.contains(marker)) {
                    live.add(marker.getFileName().toString());
                }
            }
        }
        catch (IOException ex) {
            throw new dev.storh.StorageException("Could not list storage writer markers: " + writers, ex);
        }
        live.sort(null);
        return live;
    }

    /**
     * Whether the store's folder can be written, without writing: it must exist and be a
     * directory this process may write ({@link Files#isWritable}: permission bits and ACLs, so a
     * process running as root passes even on a read-only mount), and so must its
     * {@code .storh/writers/} folder when there is one. Creates, deletes and writes nothing.
     * @return {@code null} when writable, else a message naming the path and what is wrong
     */
    public String checkWritable() {
        String problem = checkWritable(path(), false);
        if (problem != null) {
            return problem;
        }
        Path writers = WriterMarkers.writersDirectory(path());
        return (Files.isDirectory(writers) && !Files.isWritable(writers))
                ? "Folder " + writers + " is not writable by this process" : null;
    }

    /**
     * Whether a folder can be written, without writing.
     * @param folder the folder
     * @param mayBeCreated whether a folder that does not exist yet is fine when its nearest
     * existing parent is a writable directory (storh creates it on the first write)
     * @return {@code null} when writable, else a message naming the path and what is wrong
     */
    public static String checkWritable(Path folder, boolean mayBeCreated) {
        if (Files.isDirectory(folder)) {
            return Files.isWritable(folder) ? null : "Folder " + folder + " is not writable by this process";
        }
        if (Files.exists(folder, LinkOption.NOFOLLOW_LINKS)) {
            return folder + " exists but is not a directory";
        }
        if (!mayBeCreated) {
            return "Folder " + folder + " does not exist (deleted while the application runs?)";
        }
        Path parent = folder.toAbsolutePath().getParent();
        while (parent != null && !Files.exists(parent)) {
            parent = parent.getParent();
        }
        if (parent == null) {
            return "Folder " + folder + " does not exist and no parent of it exists";
        }
        if (!Files.isDirectory(parent)) {
            return "Folder " + folder + " cannot be created: " + parent + " is not a directory";
        }
        if (!Files.isWritable(parent)) {
            return "Folder " + folder + " does not exist and cannot be created: " + parent
                    + " is not writable by this process";
        }
        return null;
    }

    /**
     * Checks the store's files (the engine's {@code verify()}) and keeps the result as the last
     * verify. Takes as long as reading every record.
     * @return the result
     * @throws dev.storh.StorageException when the engine cannot run the check at all (e.g. a
     * lock timeout); the last verify then records the failure message
     */
    public VerifyResult verify() {
        return runVerify(false);
    }

    /**
     * Runs {@link #verify()}; when it fails (or cannot run) and {@code repairOnFailure} is set,
     * runs {@link #repair()} and verifies again.
     * @param repairOnFailure whether to repair after a failed verify
     * @return the last verify's result, {@linkplain VerifyResult#repaired() marked} when a repair
     * ran
     * @throws dev.storh.StorageException when the verify cannot run and no repair is asked for,
     * or when the repair fails
     */
    public VerifyResult verify(boolean repairOnFailure) {
        VerifyResult first = null;
        try {
            first = runVerify(false);
        }
        catch (RuntimeException ex) {
            if (!repairOnFailure) {
                throw ex;
            }
        }
        if (first != null && (first.ok() || !repairOnFailure)) {
            return first;
        }
        repair();
        return runVerify(true);
    }

    private VerifyResult runVerify(boolean repaired) {
        long start = System.nanoTime();
        VerifyResult result;
        try {
            result = timed("verify", () -> doVerify(this::verifying));
        }
        catch (RuntimeException ex) {
            this.verifyProgress.set(null);
            recordVerify(new VerifyResult(Instant.now(), false, List.of(String.valueOf(ex.getMessage())),
                    Duration.ofNanos(System.nanoTime() - start), repaired));
            throw ex;
        }
        this.verifyProgress.set(null);
        if (repaired) {
            result = result.afterRepair();
        }
        recordVerify(result);
        return result;
    }

    /**
     * Mends the store (the engine's {@code repair}); for stores with writer markers, first removes
     * the markers of crashed writers and their orphan temp files.
     * @return the engine's report in the spec's JSON shape, plus {@code staleWritersRemoved}
     */
    public Map<String, Object> repair() {
        return timed("repair", this::doRepair);
    }

    /**
     * Compacts the store: a log drops deleted and, with a retention, expired records; a queue
     * rewrites its log to the live jobs; a collection has nothing to compact and reports its
     * count.
     * @return the engine's report in the spec's JSON shape
     */
    public Map<String, Object> compact() {
        return timed("compact", this::doCompact);
    }

    /**
     * Rebuilds a collection's indexes from its record files.
     * @return {@code fields} and {@code entries}
     * @throws UnsupportedOperationException for a log or a queue
     */
    public Map<String, Object> reindex() {
        return timed("reindex", this::doReindex);
    }

    /**
     * @return the engine's {@link Store#verify(ProgressListener)} as a result
     */
    VerifyResult doVerify(ProgressListener progress) {
        long start = System.nanoTime();
        VerifyReport<?> report = this.contract.verify(progress);
        return result(report.ok(), report.errors(), start);
    }

    private void verifying(Progress progress) {
        this.verifyProgress.set(progress);
        if (progress.finished()) {
            this.lastVerifyBytes = progress.bytes();
        }
    }

    /**
     * @return the engine's repair ({@link #repairEngine()}) in its JSON shape; for stores with
     * writer markers, after removing the markers of crashed writers, with
     * {@code staleWritersRemoved}
     */
    Map<String, Object> doRepair() {
        if (!type().writerMarkers()) {
            return repairEngine().toMap();
        }
        int stale = removeStaleWriters();
        Map<String, Object> report = new LinkedHashMap<>(repairEngine().toMap());
        report.put("staleWritersRemoved", stale);
        return report;
    }

    /**
     * @return the engine's {@link Store#repair()}
     */
    RepairReport<?> repairEngine() {
        return this.contract.repair();
    }

    /**
     * @return the engine's {@link Store#compact()} in its JSON shape
     */
    Map<String, Object> doCompact() {
        return this.contract.compact().toMap();
    }

    Map<String, Object> doReindex() {
        throw new UnsupportedOperationException(
                "reindex applies to collections only, not to " + type().tag() + " '" + this.name + "'");
    }

    /**
     * Removes stale writer markers and sweeps orphan temp files, when there are stale markers.
     * @return the number of stale markers removed
     */
    int removeStaleWriters() {
        int stale = WriterMarkers.staleMarkers(path()).size();
        if (stale > 0) {
            WriterMarkers.recoverOnOpen(path());
        }
        return stale;
    }

    void attach(StorhStores registry) {
        this.registry = registry;
    }

    void close() throws Exception {
        engine().close();
    }

    private void recordVerify(VerifyResult result) {
        this.lastVerify.set(result);
        StorhStores registry = this.registry;
        if (registry != null) {
            registry.fireVerified(this, result);
        }
    }

    private <T> T timed(String operation, Supplier<T> action) {
        long start = System.nanoTime();
        Throwable failure = null;
        try {
            return action.get();
        }
        catch (RuntimeException | Error ex) {
            failure = ex;
            throw ex;
        }
        finally {
            StorhStores registry = this.registry;
            if (registry != null) {
                registry.fireOperation(this, operation, Duration.ofNanos(System.nanoTime() - start), failure);
            }
        }
    }

    static VerifyResult result(boolean ok, List<String> errors, long startNanos) {
        return new VerifyResult(Instant.now(), ok, errors, Duration.ofNanos(System.nanoTime() - startNanos), false);
    }

    /**
     * Hands this store to the visitor's method for its kind, so that code needing the engine's own
     * view (its counts, its descriptor) gets the typed store without testing types.
     * @param <R> the visitor's result type
     * @param visitor what to do per kind
     * @return the visitor's result
     */
    public abstract <R> R accept(Visitor<R> visitor);

    /**
     * What to do with each kind of store; see {@link #accept(Visitor)}.
     * @param <R> the result type
     */
    public interface Visitor<R> {

        /**
         * @param store a collection
         * @return the result
         */
        R collection(CollectionStore store);

        /**
         * @param store a log
         * @return the result
         */
        R log(LogStore store);

        /**
         * @param store a queue
         * @return the result
         */
        R queue(QueueStore store);

    }

    @Override
    public String toString() {
        return type().tag() + " '" + this.name + "' (" + path() + ")";
    }

}
