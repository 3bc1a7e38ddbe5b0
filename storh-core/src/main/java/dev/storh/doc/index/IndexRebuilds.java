package dev.storh.doc.index;

import dev.storh.fs.StoreFiles;
import dev.storh.StorageException;
import dev.storh.StorageRecord;
import dev.storh.doc.DocLayout;
import dev.storh.fs.AtomicFiles;
import dev.storh.fs.FolderTrees;
import dev.storh.progress.ProgressTracker;
import java.io.IOException;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.Iterator;
import java.util.List;
import java.util.stream.Stream;

/**
 * Rebuilds of a collection's indexes, under the collection write lock: a whole new
 * {@code entries/} tree built beside the live one and swapped in, or, after a definition change,
 * only the files of the new or re-flagged fields; and the removal of trees a crashed build left.
 * A failed build leaves the old indexes in place.
 */
final class IndexRebuilds {

    private static final SecureRandom RANDOM = new SecureRandom();

    private final StoreFiles files;
    private final DocLayout layout;
    private final Path indexesDir;
    private final Path entries;
    private final IndexSwap swap;
    private final IndexReads reads;
    private final IndexManager.RecordSource records;

    /**
     * @param files the collection's byte seam
     * @param layout the collection's layout
     * @param swap the swap lock shared with reads and writes
     * @param reads the read side, whose cached range state a swap drops
     * @param records the collection's records
     */
    IndexRebuilds(StoreFiles files, DocLayout layout, IndexSwap swap, IndexReads reads, IndexManager.RecordSource records) {
        this.files = files;
        this.layout = layout;
        this.indexesDir = layout.indexesDir();
        this.entries = layout.indexEntriesDir();
        this.swap = swap;
        this.reads = reads;
        this.records = records;
    }

    /**
     * Builds every index of {@code defs} from the records into a new tree and swaps it in; under
     * the write lock.
     *
     * @param defs the definitions in force
     * @param skipUnreadable skip record files that cannot be read (listed in the report) instead of failing
     * @param progress advanced by one item per record read
     * @return the counts
     * @throws StorageException when a record is corrupt (unless skipped) or the tree cannot be
     *     written; the old indexes then stay in place
     */
    ReindexReport rebuild(List<IndexDefinition> defs, List<PathIndexDefinition> pathDefs, boolean skipUnreadable,
            ProgressTracker progress) {
        cleanLeftovers();
        String suffix = HexFormat.of().formatHex(randomBytes());
        Path building = layout.indexEntriesBuilding(suffix);
        long scanned = 0;
        List<String> skipped = new ArrayList<>();
        try (ExpectedIndexes expected = ExpectedIndexes.forBuild(files, files.nameOf(layout.sortDir()), defs,
                IndexUpdates.compoundPairs(defs), pathDefs)) {
            try (Stream<StorageRecord> all = records.records(skipUnreadable ? (id, e) -> skipped.add(e.getMessage()) : null)) {
                Iterator<StorageRecord> it = all.iterator();
                while (it.hasNext()) {
                    expected.add(it.next());
                    scanned++;
                    progress.advance(1, 0);
                }
            }
            AtomicFiles.ensureDirectory(files, files.nameOf(building));
            writeTree(expected, building);
            FolderTrees.replaceTree(files, files.nameOf(building), files.nameOf(entries),
                    files.nameOf(layout.indexEntriesAside(suffix)), swap::swapping);
        } catch (RuntimeException e) {
            deleteTree(building);
            throw e;
        }
        reads.forgetAll();
        return new ReindexReport(defs.size() + pathDefs.size(), scanned, skipped);
    }

    /**
     * Rebuilds only what a definition change touched: the files of new or re-flagged fields and
     * the compound buckets of new pairs; buckets of pairs that no longer exist are removed. Other
     * indexes are left as they are. Each live folder a built file or folder moves into is fsynced
     * once, after its last move and before this returns (also when a later step fails); the
     * build tree's folders are not (the tree is removed after, or swept after a crash).
     */
    void rebuildChanged(List<IndexDefinition> before, List<IndexDefinition> after, List<PathIndexDefinition> pathDefs) {
        List<IndexDefinition> changed = after.stream().filter(d -> !before.contains(d)).toList();
        java.util.Set<String> beforePairs = new java.util.HashSet<>();
        IndexUpdates.compoundPairs(before).forEach(p -> beforePairs.add(p[0].field() + "\t" + p[1].field()));
        List<IndexDefinition[]> afterPairs = IndexUpdates.compoundPairs(after);
        java.util.Set<String> afterLabels = new java.util.HashSet<>();
        afterPairs.forEach(p -> afterLabels.add(p[0].field() + "\t" + p[1].field()));
        List<IndexDefinition[]> newPairs = afterPairs.stream()
                .filter(p -> !beforePairs.contains(p[0].field() + "\t" + p[1].field())).toList();
        if (!IndexBytes.isDirectory(files, entries) && !before.isEmpty()) {
            rebuild(after, pathDefs, false, ProgressTracker.none());
            return;
        }
        cleanLeftovers();
        Path building = layout.indexEntriesBuilding(HexFormat.of().formatHex(randomBytes()));
        // The moves in note their folder fsyncs: each live folder is fsynced once, after its last move.
        DeferredSyncs moves = new DeferredSyncs(files, false);
        boolean synced = false;
        try (ExpectedIndexes expected = ExpectedIndexes.forBuild(files, files.nameOf(layout.sortDir()), changed, newPairs,
                List.of())) {
            try (Stream<StorageRecord> all = records.records(null)) {
                all.forEach(expected::add);
            }
            AtomicFiles.ensureDirectory(files, files.nameOf(building));
            writeTree(expected, building);
            for (IndexDefinition d : changed) {
                replace(moves, IndexLayout.equalityDir(building, d.field()), IndexLayout.equalityDir(entries, d.field()));
                RangeFiles built = new RangeFiles(files, building, d.field());
                RangeFiles live = new RangeFiles(files, entries, d.field());
                swap.swapping(() -> {
                    replaceFile(moves, built.main(), live.main());
                    replaceFile(moves, built.checkpoints(), live.checkpoints());
                    replaceFile(moves, built.unindexed(), live.unindexed());
                    AtomicFiles.deleteQuietly(files, files.nameOf(live.delta()));
                });
                reads.forget(d.field());
            }
            for (IndexDefinition[] p : newPairs) {
                replace(moves, IndexLayout.compoundDir(building, p[0].field(), p[1].field()),
                        IndexLayout.compoundDir(entries, p[0].field(), p[1].field()));
            }
            for (IndexDefinition[] p : IndexUpdates.compoundPairs(before)) {
                if (!afterLabels.contains(p[0].field() + "\t" + p[1].field())) {
                    deleteTree(IndexLayout.compoundDir(entries, p[0].field(), p[1].field()));
                }
            }
            moves.syncAll();
            synced = true;
        } finally {
            if (!synced) {
                try {
                    moves.syncAll(); // the moves that were made are durable, as each one was before
                } catch (RuntimeException alsoFailed) {
                    // the first failure is the one thrown
                }
            }
            deleteTree(building);
        }
    }

    /**
     * Writes a new tree (each file fsynced before its rename), then fsyncs each of its folders
     * once, a few at a time, before anything renames the tree in.
     */
    private void writeTree(ExpectedIndexes expected, Path building) {
        DeferredSyncs tree = new DeferredSyncs(files, false);
        expected.writeTo(tree, building);
        tree.syncAll();
    }

    /**
     * Replaces the folder {@code live} by {@code built}; removes {@code live} when nothing was built.
     *
     * @param moves the seam of the move, which notes its folder fsyncs
     */
    private void replace(DeferredSyncs moves, Path built, Path live) {
        if (!IndexBytes.exists(files, built)) {
            swap.swapping(() -> deleteTree(live));
            return;
        }
        AtomicFiles.ensureDirectory(moves, files.nameOf(live.getParent()));
        // The old tree goes aside under a name cleanLeftovers() knows, should a crash leave it.
        FolderTrees.replaceTree(moves, files.nameOf(built), files.nameOf(live),
                files.nameOf(layout.indexEntriesAside(HexFormat.of().formatHex(randomBytes()))), swap::swapping);
    }

    /**
     * Renames {@code built} over the file {@code live} in one step; removes {@code live} when
     * nothing was built. Only {@code live}'s folder is noted for an fsync: the build tree that
     * {@code built} leaves is removed after, or by {@link #cleanLeftovers()} after a crash.
     *
     * @param moves the seam of the move, which notes its folder fsyncs
     */
    private void replaceFile(DeferredSyncs moves, Path built, Path live) {
        if (!IndexBytes.exists(files, built)) {
            AtomicFiles.deleteQuietly(files, files.nameOf(live));
            return;
        }
        String target = files.nameOf(live);
        AtomicFiles.ensureDirectory(moves, files.nameOf(live.getParent()));
        try {
            moves.rename(files.nameOf(built), target);
        } catch (IOException | RuntimeException e) {
            throw new StorageException("Could not atomically move " + files.path(files.nameOf(built)) + " to "
                    + files.path(target) + dev.storh.fs.ReadOnlyFileSystem.hint(e), e);
        }
        moves.syncDirectory(AtomicFiles.parentName(target));
    }

    /**
     * @param files the collection's byte seam
     * @param indexesDir the collection's {@code .storh/indexes/}
     * @return whether {@code .storh/indexes/} holds a tree a crashed build or swap left behind, or
     *     a temp file (of the manifest); one listing of that folder, not recursive
     */
    static boolean hasLeftovers(StoreFiles files, Path indexesDir) {
        List<String> names;
        try {
            names = files.list(files.nameOf(indexesDir));
        } catch (IOException noIndexes) {
            return false;
        }
        for (String name : names) {
            if (isFolderLeftover(name)) {
                return true;
            }
        }
        return false;
    }

    /**
     * @param name a name in {@code .storh/indexes/}
     * @return whether it matches {@link DocLayout#INDEX_FOLDER_LEFTOVER_GLOB}, told without a glob
     *     matcher (an open asks it of every name in the folder)
     */
    static boolean isFolderLeftover(String name) {
        return name.startsWith("entries.tmp-") || name.startsWith("entries.old-")
                || name.length() > DocLayout.TEMP_SUFFIX.length() && name.charAt(0) == '.' && name.endsWith(DocLayout.TEMP_SUFFIX);
    }

    /**
     * Deletes the trees a crashed build or swap left in {@code .storh/indexes/}; call it only under
     * the collection write lock (a builder holds it while its tree is in use).
     */
    void cleanLeftovers() {
        try {
            for (Path p : IndexBytes.list(files, indexesDir, DocLayout.INDEX_LEFTOVER_GLOB)) {
                deleteTree(p);
            }
        } catch (IOException ignored) {
            // nothing to clean
        }
    }

    private static byte[] randomBytes() {
        byte[] b = new byte[6];
        RANDOM.nextBytes(b);
        return b;
    }

    /** Best-effort removal of a temporary or superseded entries folder. */
    private void deleteTree(Path root) {
        try {
            FolderTrees.deleteTree(files, files.nameOf(root));
        } catch (StorageException ignored) {
            // a leftover folder is cleaned by the next rebuild (cleanLeftovers)
        }
    }
}
