package dev.storh.doc;

import dev.storh.StorageException;
import dev.storh.fs.AtomicFiles;
import dev.storh.fs.SafePaths;
import dev.storh.fs.StoreFiles;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Keeps what the bucket folders of a collection held between calls, so {@code count()},
 * {@code ids()} and streams of a large collection do not re-read 256 folders of names each time,
 * in 16 bytes per record ({@link BucketListing}). A bucket's listing is reused while the folder's
 * modification time and identity (as the byte seam reports them) are those it had when listed, and
 * only if it was listed {@value #SETTLE_MS} ms or more after that time: a folder changed within
 * that window may change again within the same timestamp tick, so it is read again; writes through
 * the store drop their bucket at once. The top level of {@code data/} is read on every call (256
 * names and a stat each).
 *
 * <p>On a seam that cannot tell folders apart ({@link StoreFiles#identity} is {@code null}, as on
 * blob storage, whose folder times do not follow their files) every call lists every bucket.
 *
 * <p>The counts of reusable buckets are saved in {@code .storh/listing-counts} (at close, and after
 * a call that listed many buckets), so the first {@code count()} after a start stats the buckets
 * instead of listing them; a saved count is used only while its folder's time and identity are
 * unchanged, the same rule as in memory, so a crash, another process or the original writing
 * meanwhile only costs a re-listing of the buckets they touched. Thread-safe.
 */
final class ListingCache {

    /** Folders modified more recently than this before a listing are read again next time. */
    static final long SETTLE_MS = 2_000;

    /** A call that lists at least this many buckets saves the counts at once. */
    private static final int SAVE_AFTER = 32;

    private static final String COUNTS_VERSION = "storh-listing-counts 2";

    /** The last line of a whole counts file: {@code end <bytes before it> <CRC-32 of those bytes, hex>}. */
    private static final String COUNTS_END = "end ";

    /**
     * {@code .listing-counts.<pid>.<hex>.tmp}: the temp file through which earlier versions saved, named
     * by the process writing it; saves now write the counts file in place.
     */
    private static final java.util.regex.Pattern COUNTS_TEMP =
            java.util.regex.Pattern.compile("^\\." + DocLayout.LISTING_COUNTS + "\\.(\\d+)\\.[0-9a-f]+\\" + DocLayout.TEMP_SUFFIX + "$");

    private final StoreFiles files;
    private final Path dataDir;
    private final String dataName;
    private final String countsName;
    private final String metaName;
    private final Map<String, BucketListing> buckets = new HashMap<>();
    private final boolean saving;
    private Map<String, BucketListing> saved;
    private boolean unsaved;

    /**
     * @param files the collection's byte seam
     * @param layout the collection's names
     * @param saving whether counts are saved to {@code .storh/listing-counts} (a store's listing) or
     *     only read from it (a one-off listing)
     */
    ListingCache(StoreFiles files, DocLayout layout, boolean saving) {
        this.saving = saving;
        this.files = files;
        this.dataDir = layout.dataDir();
        this.dataName = files.nameOf(dataDir);
        this.countsName = files.nameOf(layout.listingCounts());
        this.metaName = files.nameOf(layout.metaDir());
    }

    /**
     * Removes the temp files that saves of earlier versions left when their process was killed
     * during a save (they were written without the writer marker a crash recovery finds); the
     * opens that sweep a collection (its first open, or after a crashed writer) call it. Failures
     * are ignored.
     *
     * @param files the collection's byte seam
     * @param layout the collection's names
     */
    static void removeDeadSavesTemps(StoreFiles files, DocLayout layout) {
        String metaName = files.nameOf(layout.metaDir());
        try {
            Boolean readOnly = null;
            for (String name : files.list(metaName)) {
                java.util.regex.Matcher temp = COUNTS_TEMP.matcher(name);
                if (!temp.matches()) {
                    continue;
                }
                if (readOnly == null) {
                    // looked at only when there is something to remove
                    readOnly = files.isReadOnly();
                }
                String file = metaName + "/" + name;
                if (!readOnly && !dev.storh.fs.WriterMarkers.isAlive(temp.group(1), files, file)) {
                    AtomicFiles.deleteQuietly(files, file);
                }
            }
        } catch (IOException | RuntimeException e) {
            // no .storh yet, or unreadable: nothing to remove now
        }
    }

    /** Forgets one bucket's names (after a write or delete in it). */
    synchronized void invalidate(String bucket) {
        buckets.remove(bucket);
    }

    /**
     * @return all record files, iterable in id order as {@link RecordListing#list} would return them
     * @throws StorageException naming {@code data/} when it is a symbolic link (never followed)
     */
    ListingSnapshot list() {
        return snapshot(true);
    }

    /**
     * @return the number of record files whose names are valid UUIDv7s
     */
    long validCount() {
        return snapshot(false).validCount();
    }

    /**
     * @param needIds whether every bucket's ids must be loaded (for iteration), or counts will do
     * @return the listing as it is now
     */
    synchronized ListingSnapshot snapshot(boolean needIds) {
        SafePaths.requireNoLinks(files, dataName);
        List<RecordListing.Entry> loose = new ArrayList<>();
        List<BucketListing> now = new ArrayList<>();
        long settledBefore = System.currentTimeMillis() - SETTLE_MS;
        int listed = 0;
        try {
            for (String name : files.list(dataName)) {
                String child = dataName + "/" + name;
                StoreFiles.Stated looked = files.statWithIdentity(child).orElse(null); // one lstat on a local disk
                if (looked == null) {
                    continue; // vanished
                }
                StoreFiles.Entry a = looked.entry();
                if (a.kind() != StoreFiles.Entry.Kind.DIRECTORY) {
                    if (name.endsWith(DocLayout.RECORD_EXTENSION) && a.kind() == StoreFiles.Entry.Kind.FILE) {
                        loose.add(new RecordListing.Entry(DocLayout.stripRecordExtension(name), files.path(child)));
                    }
                    continue;
                }
                if (name.endsWith(DocLayout.TEMP_SUFFIX)) {
                    continue;
                }
                long modified = a.lastModifiedMillis();
                String key = looked.key() == null ? null : looked.key().toString();
                BucketListing b = buckets.get(name);
                if (b == null || !b.stillFor(modified, key) || needIds && b.ids() == null) {
                    BucketListing stored = needIds ? null : saved().get(name);
                    if (stored != null && stored.stillFor(modified, key)) {
                        b = stored;
                    } else {
                        b = BucketListing.read(files, dataName, name, modified, key, key != null && modified < settledBefore);
                        listed++;
                        unsaved |= b.reusable();
                    }
                    buckets.put(name, b);
                }
                now.add(b);
            }
        } catch (NoSuchFileException | NotDirectoryException e) {
            buckets.clear();
            return ListingSnapshot.empty(files, dataName);
        } catch (IOException e) {
            throw new StorageException("Could not list storage folder: " + dataDir, e);
        }
        if (buckets.size() > now.size()) {
            buckets.keySet().retainAll(now.stream().map(BucketListing::name).toList());
        }
        if (!needIds && (!loose.isEmpty() || now.stream().anyMatch(b -> !b.strays().isEmpty()))) {
            return snapshot(true); // copies elsewhere are checked against the ids of their own bucket
        }
        if (listed >= SAVE_AFTER) {
            save();
        }
        return new ListingSnapshot(files, dataName, now, loose);
    }

    /**
     * Saves the counts of the reusable buckets when they changed since the last save. The file is
     * written in place, without a temp file and without fsync, and ends with a line holding its
     * length and CRC-32: a save torn by a crash, two saves interleaved, or a read during a save
     * fail that check and only cost a listing. Failures are ignored: the counts are a cache,
     * checked before use.
     */
    synchronized void save() {
        if (!saving || !unsaved || files.isReadOnly()) {
            return;
        }
        StringBuilder text = new StringBuilder(COUNTS_VERSION).append('\n');
        Map<String, BucketListing> kept = new HashMap<>();
        for (BucketListing b : buckets.values()) {
            if (b.reusable() && b.strays().isEmpty()) {
                text.append(b.name()).append('\t').append(b.modifiedMillis()).append('\t').append(b.packedCount())
                        .append('\t').append(b.fileKey()).append('\n');
                kept.put(b.name(), BucketListing.countOnly(b.name(), b.modifiedMillis(), b.fileKey(), b.packedCount()));
            }
        }
        byte[] body = text.toString().getBytes(StandardCharsets.UTF_8);
        byte[] end = (COUNTS_END + body.length + " " + Long.toHexString(crc32(body, body.length)) + "\n")
                .getBytes(StandardCharsets.UTF_8);
        byte[] whole = java.util.Arrays.copyOf(body, body.length + end.length);
        System.arraycopy(end, 0, whole, body.length, end.length);
        try {
            if (RecordListing.kind(files, metaName) != StoreFiles.Entry.Kind.DIRECTORY) {
                return; // the collection is gone: write nothing
            }
            try (StoreFiles.Output out = files.create(countsName)) {
                out.write(whole);
            }
            saved = kept;
            unsaved = false;
        } catch (IOException | RuntimeException e) {
            // a cache: a file left torn fails its check, and the buckets are listed again
        }
    }

    private static long crc32(byte[] bytes, int length) {
        java.util.zip.CRC32 crc = new java.util.zip.CRC32();
        crc.update(bytes, 0, length);
        return crc.getValue();
    }

    /**
     * @param bytes a counts file
     * @return its lines before the end line, or {@code null} when it is not whole (no end line, or
     *     a length or CRC-32 that does not match)
     */
    static String[] wholeLines(byte[] bytes) {
        int last = bytes.length - 1;
        if (last < 0 || bytes[last] != '\n') {
            return null;
        }
        int start = last;
        while (start > 0 && bytes[start - 1] != '\n') {
            start--;
        }
        String end = new String(bytes, start, last - start, StandardCharsets.UTF_8);
        if (!end.equals(COUNTS_END + start + " " + Long.toHexString(crc32(bytes, start)))) {
            return null;
        }
        return new String(bytes, 0, start, StandardCharsets.UTF_8).split("\n");
    }

    /** @return the counts saved by an earlier listing, read once; empty when missing, torn or unreadable */
    private Map<String, BucketListing> saved() {
        if (saved != null) {
            return saved;
        }
        Map<String, BucketListing> read = new HashMap<>();
        try (InputStream in = files.open(countsName)) {
            String[] lines = wholeLines(in.readAllBytes());
            if (lines != null && lines.length > 0 && lines[0].equals(COUNTS_VERSION)) {
                for (int i = 1; i < lines.length; i++) {
                    String[] f = lines[i].split("\t", 4);
                    if (f.length == 4) {
                        read.put(f[0], BucketListing.countOnly(f[0], Long.parseLong(f[1]), f[3], Integer.parseInt(f[2])));
                    }
                }
            }
        } catch (IOException | RuntimeException e) {
            read.clear(); // missing, unreadable or damaged: list the buckets
        }
        saved = read;
        return saved;
    }
}
