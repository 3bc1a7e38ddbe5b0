package dev.storh.doc;

import dev.storh.CorruptRecordException;
import dev.storh.StorageException;
import dev.storh.StorageRecord;
import dev.storh.fs.AtomicFiles;
import dev.storh.fs.SafePaths;
import dev.storh.fs.StoreFiles;
import dev.storh.fs.WriterMarkers;
import dev.storh.doc.index.IndexManager;
import dev.storh.doc.index.ReindexReport;
import java.io.IOException;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.stream.Stream;
import dev.storh.progress.ProgressListener;
import dev.storh.progress.ProgressTracker;
import dev.storh.query.LookaheadIterator;
import dev.storh.store.RepairReport;
import dev.storh.store.VerifyReport;

/**
 * Stats, verify and repair of one collection. Stats and the index
 * check share one scan of the record files (the original scans twice); files deleted while
 * scanning are skipped, not counted as corrupt.
 */
final class Maintenance {

    /** Most corrupt files named one by one in a verify report. */
    static final int MAX_NAMED = 100;

    private static final SecureRandom RANDOM = new SecureRandom();

    /** A corrupt record file and why. */
    record Corrupt(Path path, String reason) {
    }

    /** Counters filled while a scan's stream is consumed. */
    static final class Scan {
        long records;
        long bytes;
        final List<Corrupt> corrupt = new ArrayList<>();
    }

    private Maintenance() {
    }

    /**
     * @param files the collection's byte seam
     * @param dataDir the collection's data folder
     * @return its record files; none when {@code data/} is a link, which is never followed
     *     ({@link #structureErrors} reports it)
     */
    static List<RecordListing.Entry> listing(StoreFiles files, Path dataDir) {
        try {
            if (RecordListing.kind(files, files.nameOf(dataDir)) == StoreFiles.Entry.Kind.OTHER) {
                return List.of();
            }
        } catch (IOException e) {
            throw new StorageException("Could not list storage folder: " + dataDir, e);
        }
        return RecordListing.list(files, dataDir);
    }

    /**
     * @param files the collection's byte seam
     * @param listing the record files to read, in order
     * @param scan counters to fill
     * @param progress advanced by one item (and the file's bytes) per file read
     * @return the valid records, read once each
     */
    static Stream<StorageRecord> scan(StoreFiles files, List<RecordListing.Entry> listing, Scan scan,
            ProgressTracker progress) {
        return LookaheadIterator.stream(new RecordIterator(listing.iterator(), entry -> {
            byte[] content;
            try {
                content = RecordFiles.readBytesOrNull(files, entry.path());
            } catch (StorageException e) {
                progress.advance(1, 0);
                scan.corrupt.add(new Corrupt(entry.path(), e.getCause() == null || e instanceof CorruptRecordException
                        ? e.getMessage() : e.getMessage() + ": " + e.getCause().getMessage()));
                return null;
            }
            if (content == null) {
                progress.advance(1, 0);
                return null; // deleted meanwhile
            }
            progress.advance(1, content.length);
            scan.bytes += content.length;
            try {
                StorageRecord record = RecordFiles.decode(entry.path(), content);
                scan.records++;
                return record;
            } catch (StorageException e) {
                scan.corrupt.add(new Corrupt(entry.path(), e.getMessage()));
                return null;
            }
        }));
    }

    /** Starts a tracker over a listing: one item per record file. */
    private static ProgressTracker track(String operation, List<RecordListing.Entry> listing, long passes,
            ProgressListener listener) {
        return ProgressTracker.start(operation, passes * listing.size(), ProgressTracker.UNKNOWN_BYTES, listener);
    }

    /**
     * One verify pass.
     *
     * @param report the report
     * @param indexDrift whether index errors were found (which writers running meanwhile can fake)
     */
    record Verification(VerifyReport<StoreStats> report, boolean indexDrift) {
    }

    static Verification verify(StoreFiles files, Path dataDir, IndexManager indexes, ProgressListener listener) {
        List<String> structure = structureErrors(files, dataDir.getParent());
        Scan scan = new Scan();
        List<String> indexErrors;
        List<RecordListing.Entry> listing = listing(files, dataDir);
        ProgressTracker progress = track("verify", listing, 1, listener);
        try (Stream<StorageRecord> records = scan(files, listing, scan, progress)) {
            if (indexes.active()) {
                indexErrors = indexes.verify(records);
            } else {
                records.forEach(r -> { });
                indexErrors = List.of();
            }
        } finally {
            progress.finish();
        }
        StoreStats stats = new StoreStats(scan.records, scan.bytes, scan.corrupt.size(), indexes.definitions().size());
        if (!scan.corrupt.isEmpty()) {
            List<String> errors = new ArrayList<>(structure);
            errors.add("Corrupt records: " + scan.corrupt.size());
            scan.corrupt.stream().limit(MAX_NAMED).forEach(c -> errors.add("Corrupt record: " + c.path() + " (" + c.reason() + ")"));
            return new Verification(new VerifyReport<>(false, errors, stats), false);
        }
        List<String> errors = new ArrayList<>(structure);
        errors.addAll(IndexManifestChecks.errors(files, DocLayout.of(dataDir.getParent())));
        errors.addAll(indexErrors);
        return new Verification(new VerifyReport<>(errors.isEmpty(), errors, stats), !indexErrors.isEmpty());
    }

    /**
     * Folders of the collection's layout that are not what they must be: {@code data/}, a bucket
     * folder or a {@code .storh} folder that is a symbolic link (never followed, since it may
     * lead outside the collection) or a file where a folder belongs. A bucket is a name of two
     * lowercase hex digits directly in {@code data/}.
     *
     * A collection folder that is missing altogether (deleted while the store is open) is one error.
     *
     * @param files the collection's byte seam
     * @param collectionRoot the collection folder
     * @return one error per such path, naming it
     */
    static List<String> structureErrors(StoreFiles files, Path collectionRoot) {
        List<String> errors = new ArrayList<>();
        if (!DocRecovery.isDirectory(files, "")) {
            errors.add("Missing store folder: " + collectionRoot + " (the collection's folder is gone)");
            return errors;
        }
        DocLayout layout = DocLayout.of(collectionRoot);
        for (Path folder : layout.metaFolders()) {
            checkFolder(files, folder, "a storh folder", errors);
        }
        Path dataDir = layout.dataDir();
        if (!checkFolder(files, dataDir, "the records folder", errors)) {
            return errors;
        }
        String dataName = files.nameOf(dataDir);
        try {
            for (String name : files.list(dataName)) {
                String child = dataName + "/" + name;
                if (RecordListing.kind(files, child) == StoreFiles.Entry.Kind.OTHER) {
                    errors.add(linkError(files.path(child)));
                } else if (BUCKET.matcher(name).matches()) {
                    checkFolder(files, files.path(child), "a bucket", errors);
                }
            }
        } catch (IOException e) {
            errors.add("Could not list storage folder: " + dataDir + " (" + e.getMessage() + ")");
        }
        return errors;
    }

    private static final java.util.regex.Pattern BUCKET = java.util.regex.Pattern.compile("[0-9a-f]{2}");

    /** @return whether {@code folder} is a real folder; adds an error when it is a link or not a folder */
    private static boolean checkFolder(StoreFiles files, Path folder, String what, List<String> errors) {
        StoreFiles.Entry.Kind kind;
        try {
            kind = RecordListing.kind(files, files.nameOf(folder));
        } catch (IOException e) {
            errors.add("Could not check storage path: " + folder + " (" + e.getMessage() + ")");
            return false;
        }
        if (kind == null) {
            return false;
        }
        if (kind == StoreFiles.Entry.Kind.OTHER) {
            errors.add(linkError(folder));
            return false;
        }
        if (kind != StoreFiles.Entry.Kind.DIRECTORY) {
            errors.add("Not a folder: " + folder + " (" + what + " must be a folder, not a file)");
            return false;
        }
        return true;
    }

    private static boolean exists(StoreFiles files, Path path) {
        try {
            return files.exists(files.nameOf(path));
        } catch (IOException e) {
            throw new StorageException("Could not check storage path: " + path, e);
        }
    }

    private static String linkError(Path link) {
        return "Unsafe symbolic link: " + SafePaths.describeLink(link) + " (never followed: it may lead outside the collection)";
    }

    static StoreStats stats(StoreFiles files, Path dataDir, IndexManager indexes, String operation,
            ProgressListener listener) {
        Scan scan = new Scan();
        List<RecordListing.Entry> listing = listing(files, dataDir);
        ProgressTracker progress = track(operation, listing, 1, listener);
        try (Stream<StorageRecord> records = scan(files, listing, scan, progress)) {
            records.forEach(r -> { });
        } finally {
            progress.finish();
        }
        return new StoreStats(scan.records, scan.bytes, scan.corrupt.size(), indexes.definitions().size());
    }

    /**
     * Under the write lock: sweeps orphan temp files, moves corrupt record files to
     * {@code .storh/corrupt/} and rebuilds the indexes. Progress counts each record twice: once
     * in the scan, once in the rebuild.
     */
    static RepairReport<DocRepair> repair(StoreFiles files, Path collectionRoot, Path dataDir, IndexManager indexes,
            ProgressListener listener) {
        int swept = WriterMarkers.sweepTempFiles(files, "", WriterMarkers.ORPHAN_TEMP_AGE);
        Scan scan = new Scan();
        List<RecordListing.Entry> listing = listing(files, dataDir);
        ProgressTracker progress = track("repair", listing, 2, listener);
        try {
            try (Stream<StorageRecord> records = scan(files, listing, scan, progress)) {
                records.forEach(r -> { });
            }
            // The rebuild reads only the valid records: the rest of the second pass is skipped.
            progress.expand(-(listing.size() - scan.records), 0);
            return quarantineAndRebuild(files, collectionRoot, indexes, scan, swept, progress);
        } finally {
            progress.finish();
        }
    }

    /**
     * Moves the corrupt files to {@code .storh/corrupt/}, then rebuilds the indexes; when a move or
     * the rebuild fails, the files already moved go back, so a failed repair leaves the store as
     * it was (and the rebuild's own failure leaves the old indexes).
     */
    private static RepairReport<DocRepair> quarantineAndRebuild(StoreFiles files, Path collectionRoot,
            IndexManager indexes, Scan scan, int swept, ProgressTracker progress) {
        Path quarantine = DocLayout.of(collectionRoot).corruptDir();
        SafePaths.requireNoLinks(files, files.nameOf(quarantine));
        List<String[]> moved = new ArrayList<>();
        List<String> removed = new ArrayList<>();
        try {
            for (Corrupt c : scan.corrupt) {
                quarantine(files, quarantine, c.path(), c.path().getFileName().toString(), moved);
            }
            for (Path manifest : DocLayout.of(collectionRoot).indexManifests()) {
                String manifestError = IndexManifestChecks.error(files, manifest);
                if (manifestError != null) {
                    String to = quarantine(files, quarantine, manifest, DocLayout.quarantinedIndexManifest(manifest), moved);
                    removed.add(manifestError + ": kept in " + files.path(to) + "; no index is in force until they are declared again");
                }
            }
            ReindexReport reindexed = indexes.rebuild(progress);
            return new RepairReport<>(true, removed, new DocRepair(scan.corrupt.size(), swept, reindexed));
        } catch (RuntimeException e) {
            for (int k = moved.size() - 1; k >= 0; k--) {
                try {
                    AtomicFiles.moveAtomic(files, moved.get(k)[1], moved.get(k)[0]);
                } catch (StorageException restore) {
                    e.addSuppressed(restore);
                }
            }
            throw e;
        }
    }

    /** Moves one damaged file into the quarantine folder (a free name there), recording the move. @return its new name */
    private static String quarantine(StoreFiles files, Path quarantine, Path file, String name, List<String[]> moved) {
        AtomicFiles.ensureDirectory(files, files.nameOf(quarantine));
        Path target = quarantine.resolve(name);
        if (exists(files, target)) {
            byte[] b = new byte[4];
            RANDOM.nextBytes(b);
            target = quarantine.resolve(DocLayout.quarantineAlternative(name, HexFormat.of().formatHex(b)));
        }
        String from = files.nameOf(file);
        String to = files.nameOf(target);
        try {
            files.rename(from, to);
        } catch (IOException | RuntimeException e) {
            throw new StorageException("Could not quarantine corrupt storage record: " + file, e);
        }
        moved.add(new String[] {from, to});
        AtomicFiles.syncDirectory(files, AtomicFiles.parentName(to));
        AtomicFiles.syncDirectory(files, AtomicFiles.parentName(from));
        return to;
    }
}
