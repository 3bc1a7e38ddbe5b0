package dev.storh.doc;

import dev.storh.StorageException;
import dev.storh.fs.StoreFiles;
import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Keeps the sorted record listing of a collection between calls, so {@code count()}, {@code ids()}
 * and streams of a large collection do not re-read 256 folders of names each time. Each bucket's
 * names are reused while the bucket folder's modification time and identity (as the byte seam
 * reports them) are unchanged and older than {@value #SETTLE_MS} ms (a folder changed within that window may change again within
 * the same timestamp tick, so it is read again); writes through the store drop their bucket at
 * once. The top level of {@code data/} is read on every call (256 names). Thread-safe.
 */
final class ListingCache {

    /** Folders modified more recently than this are always re-read. */
    static final long SETTLE_MS = 2_000;

    private record Bucket(long modifiedMillis, Object fileKey, List<RecordListing.Entry> entries) {
    }

    private final StoreFiles files;
    private final Path dataDir;
    private final String dataName;
    private final Map<String, Bucket> buckets = new HashMap<>();
    private List<RecordListing.Entry> merged = List.of();
    private List<String> validIds = List.of();
    private List<String> mergedFrom = List.of();

    ListingCache(StoreFiles files, Path dataDir) {
        this.files = files;
        this.dataDir = dataDir;
        this.dataName = files.nameOf(dataDir);
    }

    /** Forgets one bucket's names (after a write or delete in it). */
    synchronized void invalidate(String bucket) {
        buckets.remove(bucket);
        mergedFrom = List.of();
    }

    /**
     * @return all record files sorted by id, as {@link RecordListing#list} would return them
     * @throws StorageException naming {@code data/} when it is a symbolic link (never followed)
     */
    synchronized List<RecordListing.Entry> list() {
        dev.storh.fs.SafePaths.requireNoLinks(files, dataName);
        List<RecordListing.Entry> loose = new ArrayList<>();
        List<String> names = new ArrayList<>();
        boolean changed = false;
        long settledBefore = System.currentTimeMillis() - SETTLE_MS;
        Map<String, Bucket> seen = new HashMap<>();
        try {
            for (String name : files.list(dataName)) {
                String child = dataName + "/" + name;
                StoreFiles.Entry a = files.stat(child).orElse(null);
                if (a == null) {
                    continue; // vanished
                }
                if (a.kind() != StoreFiles.Entry.Kind.DIRECTORY) {
                    if (name.endsWith(DocLayout.RECORD_EXTENSION) && a.kind() == StoreFiles.Entry.Kind.FILE) {
                        loose.add(new RecordListing.Entry(DocLayout.stripRecordExtension(name), files.path(child)));
                        changed = true; // stray files are rare: never cache around them
                    }
                    continue;
                }
                if (name.endsWith(DocLayout.TEMP_SUFFIX)) {
                    continue;
                }
                long modified = a.lastModifiedMillis();
                Bucket cached = buckets.get(name);
                // The folder's identity is asked only when its names could be reused.
                if (cached == null || cached.modifiedMillis() != modified || modified >= settledBefore
                        || !Objects.equals(cached.fileKey(), identity(child))) {
                    List<RecordListing.Entry> entries = new ArrayList<>();
                    RecordListing.collect(files, child, entries, 1);
                    cached = new Bucket(modified, identity(child), entries);
                    changed = true;
                }
                seen.put(name, cached);
                names.add(name);
            }
        } catch (NoSuchFileException | NotDirectoryException e) {
            buckets.clear();
            merged = List.of();
            validIds = List.of();
            mergedFrom = List.of();
            return List.of();
        } catch (IOException e) {
            throw new StorageException("Could not list storage folder: " + dataDir, e);
        }
        names.sort(null);
        if (!changed && names.equals(mergedFrom)) {
            return merged;
        }
        buckets.clear();
        buckets.putAll(seen);
        List<RecordListing.Entry> all = new ArrayList<>(loose);
        for (String name : names) {
            all.addAll(seen.get(name).entries());
        }
        merged = java.util.Collections.unmodifiableList(RecordListing.sortUnique(all));
        List<String> valid = new ArrayList<>(merged.size());
        for (RecordListing.Entry e : merged) {
            if (dev.storh.id.UuidV7.isValid(e.id())) {
                valid.add(e.id());
            }
        }
        validIds = java.util.Collections.unmodifiableList(valid);
        mergedFrom = loose.isEmpty() ? names : List.of();
        return merged;
    }

    private Object identity(String name) {
        try {
            return files.identity(name);
        } catch (IOException e) {
            return null; // gone: the next list sees it
        }
    }

    /**
     * @return the ids of {@link #list()} that are valid UUIDv7s, in the same order
     */
    synchronized List<String> validIds() {
        list();
        return validIds;
    }
}
