package dev.storh.doc;

import dev.storh.StorageException;
import dev.storh.doc.index.IndexManager;
import dev.storh.doc.index.ReindexReport;
import dev.storh.fs.SafePaths;
import dev.storh.fs.StoreFiles;
import dev.storh.fs.WriterMarkers;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.function.Supplier;

/**
 * What opening a collection does about writers that crashed. A stale writer marker means a writer
 * died, possibly between a record and its index entries: the indexes are rebuilt under the write
 * lock, which registers the opener's own marker first, and the stale markers are removed only
 * after the rebuild, so a kill at any moment of the recovery leaves a stale marker for the next
 * open. Leftovers of a killed index write (a build tree, a manifest temp file) are removed under
 * the lock, never while another process builds. Stateless.
 */
final class DocRecovery {

    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(DocStore.class);

    private DocRecovery() {
    }

    /**
     * Looks at the writers folder once and at the index folder once; the store's other parts are
     * wired only when there is something to recover (a crashed writer, a journal, leftovers). A
     * writers folder shows that the collection folder exists; without one, the collection folder is
     * created first when missing.
     *
     * @param store the store's parts: its seams and layout, the rest wired on first use
     * @return what was found and done
     */
    static RecoveryReport recover(DocParts store) {
        StoreFiles files = store.files;
        DocLayout layout = store.layout;
        Supplier<DocParts.Wired> parts = store::recovering;
        Path collectionRoot = layout.root();
        List<String> stale = WriterMarkers.staleMarkersOrNull(files); // one look at the writers folder
        if (stale == null) {
            store.ensureFolder();
            // First open, or a collection written before markers: sweep everything once.
            RecoveryReport first = new RecoveryReport(false, WriterMarkers.recoverOnOpen(files).removedTempFiles(), null);
            ListingCache.removeDeadSavesTemps(files, layout);
            replayJournal(files, layout, parts);
            return first;
        }
        if (stale.isEmpty() || !parts.get().indexes.active()) {
            WriterMarkers.OpenRecovery swept = stale.isEmpty() ? new WriterMarkers.OpenRecovery(false, 0)
                    : WriterMarkers.recoverOnOpen(files);
            if (!stale.isEmpty()) {
                ListingCache.removeDeadSavesTemps(files, layout);
                replayJournal(files, layout, parts);
            }
            if (IndexManager.hasLeftovers(files, layout.indexesDir())) {
                DocParts.Wired p = parts.get();
                p.gate.ifFreeNow(() -> cleanIndexFolderQuietly(files, layout, p.indexes));
            }
            return new RecoveryReport(swept.crashedWriter(), swept.removedTempFiles(), null);
        }
        DocParts.Wired p = parts.get();
        return p.gate.withWriteLock(() -> {
            int removed = WriterMarkers.sweepTempFiles(files, "", WriterMarkers.ORPHAN_TEMP_AGE)
                    + cleanIndexFolder(files, layout, p.indexes);
            ListingCache.removeDeadSavesTemps(files, layout);
            ReindexReport rebuilt = p.indexes.rebuildSkippingUnreadable();
            if (!rebuilt.skipped().isEmpty()) {
                LOG.warn("{}: a writer crashed; the index rebuild skipped {} unreadable record file(s), run repair()"
                        + " to quarantine them: {}", collectionRoot, rebuilt.skipped().size(), rebuilt.skipped());
            }
            WriterMarkers.removeMarkers(files, stale);
            return new RecoveryReport(true, removed, rebuilt);
        });
    }

    /**
     * A crashed writer may have left a batch journal whose records are not all in their files yet:
     * taking the write lock retires it (the gate does that before any direct write), before the
     * open answers. With indexes and a crashed writer, the rebuild's lock does it first.
     */
    private static void replayJournal(StoreFiles files, DocLayout layout, Supplier<DocParts.Wired> parts) {
        try {
            if (files.stat(files.nameOf(layout.batchJournal())).map(e -> e.size() > 0).orElse(false)) {
                parts.get().gate.withWriteLock(() -> null);
            }
        } catch (java.io.IOException e) {
            throw new StorageException("Could not read batch journal: " + layout.batchJournal(), e);
        }
    }

    private static void cleanIndexFolderQuietly(StoreFiles files, DocLayout layout, IndexManager indexes) {
        try {
            cleanIndexFolder(files, layout, indexes);
        } catch (StorageException linked) {
            // verify() reports a linked storh folder; nothing is deleted through it
        }
    }

    /**
     * Under the write lock every index write is finished: index build trees and temp files of any
     * age in {@code .storh/indexes/} are orphans.
     *
     * @return the temp files removed
     */
    private static int cleanIndexFolder(StoreFiles files, DocLayout layout, IndexManager indexes) {
        String indexesDir = files.nameOf(layout.indexesDir());
        SafePaths.requireNoLinks(files, indexesDir);
        indexes.cleanLeftovers();
        return WriterMarkers.sweepTempFiles(files, indexesDir, Duration.ZERO);
    }

    /** @return whether the name is a folder (not a link to one); false when it cannot be told */
    static boolean isDirectory(StoreFiles files, String name) {
        try {
            return files.stat(name).map(e -> e.kind() == StoreFiles.Entry.Kind.DIRECTORY).orElse(false);
        } catch (java.io.IOException e) {
            return false;
        }
    }
}
