package dev.storh.doc;

import dev.storh.StorageException;
import dev.storh.StorageRecord;
import dev.storh.fs.AtomicFiles;
import dev.storh.fs.WriterMarkers;
import dev.storh.doc.index.IndexManager;
import dev.storh.doc.index.ReindexReport;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.Spliterator;
import java.util.Spliterators;
import java.util.stream.Stream;
import java.util.stream.StreamSupport;

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
     * @param dataDir the collection's data folder
     * @param scan counters to fill
     * @return the valid records, read once each; counters are final when the stream is consumed
     */
    static Stream<StorageRecord> scan(Path dataDir, Scan scan) {
        Iterator<RecordListing.Entry> entries = RecordListing.list(dataDir).iterator();
        Iterator<StorageRecord> it = new Iterator<>() {
            private StorageRecord next;

            @Override
            public boolean hasNext() {
                while (next == null && entries.hasNext()) {
                    RecordListing.Entry entry = entries.next();
                    byte[] content;
                    try {
                        content = Files.readAllBytes(entry.path());
                    } catch (NoSuchFileException vanished) {
                        continue;
                    } catch (IOException e) {
                        scan.corrupt.add(new Corrupt(entry.path(), "Could not read storage file: " + e.getMessage()));
                        continue;
                    }
                    scan.bytes += content.length;
                    try {
                        next = RecordFiles.decode(entry.path(), content);
                        scan.records++;
                    } catch (StorageException e) {
                        scan.corrupt.add(new Corrupt(entry.path(), e.getMessage()));
                    }
                }
                return next != null;
            }

            @Override
            public StorageRecord next() {
                if (!hasNext()) {
                    throw new NoSuchElementException();
                }
                StorageRecord r = next;
                next = null;
                return r;
            }
        };
        return StreamSupport.stream(Spliterators.spliteratorUnknownSize(it, Spliterator.ORDERED | Spliterator.NONNULL), false);
    }

    /**
     * One verify pass.
     *
     * @param report the report
     * @param indexDrift whether index errors were found (which writers running meanwhile can fake)
     */
    record Verification(VerifyReport report, boolean indexDrift) {
    }

    static Verification verify(Path dataDir, IndexManager indexes) {
        Scan scan = new Scan();
        List<String> indexErrors;
        try (Stream<StorageRecord> records = scan(dataDir, scan)) {
            if (indexes.active()) {
                indexErrors = indexes.verify(records);
            } else {
                records.forEach(r -> { });
                indexErrors = List.of();
            }
        }
        StoreStats stats = new StoreStats(scan.records, scan.bytes, scan.corrupt.size(), indexes.definitions().size());
        if (!scan.corrupt.isEmpty()) {
            List<String> errors = new ArrayList<>();
            errors.add("Corrupt records: " + scan.corrupt.size());
            scan.corrupt.stream().limit(MAX_NAMED).forEach(c -> errors.add("Corrupt record: " + c.path() + " (" + c.reason() + ")"));
            return new Verification(new VerifyReport(false, errors, stats), false);
        }
        return new Verification(new VerifyReport(indexErrors.isEmpty(), indexErrors, stats), !indexErrors.isEmpty());
    }

    static StoreStats stats(Path dataDir, IndexManager indexes) {
        Scan scan = new Scan();
        try (Stream<StorageRecord> records = scan(dataDir, scan)) {
            records.forEach(r -> { });
        }
        return new StoreStats(scan.records, scan.bytes, scan.corrupt.size(), indexes.definitions().size());
    }

    /**
     * Under the write lock: sweeps orphan temp files, moves corrupt record files to
     * {@code .storh/corrupt/} and rebuilds the indexes.
     */
    static RepairReport repair(Path collectionRoot, Path dataDir, IndexManager indexes) {
        int swept = WriterMarkers.sweepTempFiles(collectionRoot);
        Scan scan = new Scan();
        try (Stream<StorageRecord> records = scan(dataDir, scan)) {
            records.forEach(r -> { });
        }
        Path quarantine = collectionRoot.resolve(".storh").resolve("corrupt");
        for (Corrupt c : scan.corrupt) {
            AtomicFiles.ensureDirectory(quarantine);
            String name = c.path().getFileName().toString();
            Path target = quarantine.resolve(name);
            if (Files.exists(target)) {
                byte[] b = new byte[4];
                RANDOM.nextBytes(b);
                String base = name.endsWith(".jsonc") ? name.substring(0, name.length() - 6) : name;
                target = quarantine.resolve(base + "-" + HexFormat.of().formatHex(b) + ".jsonc");
            }
            try {
                AtomicFiles.moveAtomic(c.path(), target);
            } catch (StorageException e) {
                throw new StorageException("Could not quarantine corrupt storage record: " + c.path(), e);
            }
        }
        ReindexReport reindexed = indexes.rebuild();
        return new RepairReport(true, scan.corrupt.size(), swept, reindexed);
    }
}
