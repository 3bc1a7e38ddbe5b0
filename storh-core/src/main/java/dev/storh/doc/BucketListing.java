package dev.storh.doc;

import dev.storh.StorageException;
import dev.storh.fs.StoreFiles;
import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.util.ArrayList;
import java.util.List;

/**
 * What one bucket folder of {@code data/} held when it was listed: the ids of the record files that
 * sit where they belong (a lowercase UUIDv7 named file directly in the bucket its id names), packed
 * and sorted ({@link PackedIds}), and every other record file found in it as a full entry (rare:
 * copies, odd names, nested folders).
 *
 * @param name the bucket folder's name
 * @param modifiedMillis its modification time when listed
 * @param fileKey its identity when listed, as text
 * @param ids the packed ids, sorted; {@code null} when only the count is known (from the saved
 *     counts of an earlier listing)
 * @param packedCount how many packed ids there are
 * @param strays the other record files, sorted by id, duplicates dropped
 * @param reusable whether the listing may stand for the folder while its time and identity are
 *     unchanged: it was read {@link ListingCache#SETTLE_MS} ms or more after the folder last
 *     changed, and the bucket has no sub-folders (whose changes its time does not show)
 */
record BucketListing(String name, long modifiedMillis, String fileKey, long[] ids, int packedCount,
        List<RecordListing.Entry> strays, boolean reusable) {

    /**
     * Lists one bucket folder.
     *
     * @param files the collection's byte seam
     * @param dataName the {@code data/} folder's name
     * @param name the bucket folder's name in it
     * @param modifiedMillis the folder's modification time, read before listing
     * @param fileKey the folder's identity, read before listing; {@code null} when unknown
     * @param settled whether that time is {@link ListingCache#SETTLE_MS} ms or more before the listing
     *     starts, and the folder's identity is known
     * @return what it holds; empty when it vanished
     * @throws StorageException when it cannot be listed
     */
    static BucketListing read(StoreFiles files, String dataName, String name, long modifiedMillis, String fileKey,
            boolean settled) {
        String dir = DocLayout.bucketName(dataName, name);
        List<String> packable = new ArrayList<>();
        List<RecordListing.Entry> strays = new ArrayList<>();
        boolean nested = false;
        try {
            for (String child : files.list(dir)) {
                if (child.endsWith(DocLayout.RECORD_EXTENSION)) {
                    String id = DocLayout.stripRecordExtension(child);
                    if (PackedIds.packable(id) && DocLayout.bucketOf(id).equals(name)) {
                        packable.add(id);
                    } else {
                        strays.add(new RecordListing.Entry(id, files.path(dir + "/" + child)));
                    }
                } else if (!child.endsWith(DocLayout.TEMP_SUFFIX)
                        && RecordListing.kind(files, dir + "/" + child) == StoreFiles.Entry.Kind.DIRECTORY) {
                    nested = true;
                    RecordListing.collect(files, dir + "/" + child, strays, 2);
                }
            }
        } catch (NoSuchFileException | NotDirectoryException e) {
            return new BucketListing(name, modifiedMillis, fileKey, new long[0], 0, List.of(), false);
        } catch (IOException e) {
            throw new StorageException("Could not list storage folder: " + files.path(dir), e);
        }
        packable.sort(null);
        long[] ids = new long[packable.size() * 2];
        for (int i = 0; i < packable.size(); i++) {
            PackedIds.pack(packable.get(i), ids, 2 * i);
        }
        return new BucketListing(name, modifiedMillis, fileKey, ids, packable.size(),
                strays.isEmpty() ? List.of() : List.copyOf(RecordListing.sortUnique(strays)), settled && !nested);
    }

    /**
     * @param name the bucket folder's name
     * @param modifiedMillis its modification time
     * @param fileKey its identity as text
     * @param count how many packed ids it held
     * @return a listing that knows the count only
     */
    static BucketListing countOnly(String name, long modifiedMillis, String fileKey, int count) {
        return new BucketListing(name, modifiedMillis, fileKey, null, count, List.of(), true);
    }

    /**
     * @param modified the folder's modification time now
     * @param key its identity now
     * @return whether this listing stands for the folder as it is
     */
    boolean stillFor(long modified, String key) {
        return reusable && modifiedMillis == modified && fileKey != null && fileKey.equals(key);
    }
}
