package dev.storh.doc;

import dev.storh.doc.index.IndexManager;
import dev.storh.doc.index.ReindexReport;
import dev.storh.fs.StoreFiles;
import dev.storh.progress.ProgressListener;
import dev.storh.progress.ProgressTracker;
import dev.storh.store.CompactReport;
import dev.storh.store.RepairReport;
import dev.storh.store.VerifyReport;

/**
 * The maintenance of one open collection (see {@link DocStore#verify()}, {@link DocStore#reindex()},
 * {@link DocStore#repair()} and {@link DocStore#compact()} for shapes and errors): which passes run
 * under the write lock and which without. The scans themselves are {@link Maintenance}'s.
 * Thread-safe.
 */
final class DocUpkeep {

    private final StoreFiles files;
    private final DocLayout layout;
    private final WriteGate gate;
    private final IndexManager indexes;
    private final RecordReads reads;

    DocUpkeep(StoreFiles files, DocLayout layout, WriteGate gate, IndexManager indexes, RecordReads reads) {
        this.files = files;
        this.layout = layout;
        this.gate = gate;
        this.indexes = indexes;
        this.reads = reads;
    }

    /** An unlocked pass; when it finds index drift, a second pass under the write lock is reported. */
    VerifyReport<StoreStats> verify(ProgressListener listener) {
        Maintenance.Verification unlocked = Maintenance.verify(files, layout.dataDir(), indexes, listener);
        if (!unlocked.indexDrift()) {
            return unlocked.report();
        }
        // Closed, or no lock file can be opened (read-only): nobody here writes.
        return gate.lockedOr(() -> Maintenance.verify(files, layout.dataDir(), indexes, ProgressListener.NONE).report(),
                unlocked::report);
    }

    ReindexReport reindex(ProgressListener listener) {
        return gate.withWriteLock(() -> {
            ProgressTracker progress = ProgressTracker.start("reindex", reads::count, ProgressTracker.UNKNOWN_BYTES,
                    listener);
            try {
                return indexes.rebuild(progress);
            } finally {
                progress.finish();
            }
        });
    }

    StoreStats stats() {
        return Maintenance.stats(files, layout.dataDir(), indexes, "stats", ProgressListener.NONE);
    }

    RepairReport<DocRepair> repair(ProgressListener listener) {
        return gate.withWriteLock(() -> Maintenance.repair(files, layout.root(), layout.dataDir(), indexes, listener));
    }

    CompactReport<DocCompact> compact(ProgressListener listener) {
        StoreStats counted = Maintenance.stats(files, layout.dataDir(), indexes, "compact", listener);
        return new CompactReport<>(true, counted.bytes(), counted.bytes(), new DocCompact(counted.records()));
    }
}
