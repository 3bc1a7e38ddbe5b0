package dev.storh.doc;

import dev.storh.fs.StoreFiles;
import dev.storh.id.UuidV7;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.PriorityQueue;

/**
 * The record files of a collection at one moment, as {@link ListingCache} found them: the buckets'
 * packed ids and the few other files. Iterating merges the sorted buckets lazily, making one entry
 * at a time, so a walk over a million records holds 16 bytes per record and no entry list.
 * Immutable; each iterator is for one consumer.
 */
final class ListingSnapshot implements Iterable<RecordListing.Entry> {

    private final StoreFiles files;
    private final String dataName;
    private final List<BucketListing> buckets;
    private final List<RecordListing.Entry> strays;

    /**
     * @param files the collection's byte seam
     * @param dataName the {@code data/} folder's name
     * @param buckets the bucket listings
     * @param loose record files found directly in {@code data/}
     */
    ListingSnapshot(StoreFiles files, String dataName, List<BucketListing> buckets, List<RecordListing.Entry> loose) {
        this.files = files;
        this.dataName = dataName;
        this.buckets = buckets;
        List<RecordListing.Entry> other = new ArrayList<>(loose);
        for (BucketListing b : buckets) {
            other.addAll(b.strays());
        }
        List<RecordListing.Entry> unique = new ArrayList<>();
        for (RecordListing.Entry e : other.isEmpty() ? other : RecordListing.sortUnique(other)) {
            if (!packedHas(e.id())) {
                unique.add(e); // a file where its id belongs wins over a copy elsewhere
            }
        }
        this.strays = unique;
    }

    /** @return an empty snapshot */
    static ListingSnapshot empty(StoreFiles files, String dataName) {
        return new ListingSnapshot(files, dataName, List.of(), List.of());
    }

    /**
     * @return the record files whose names are valid UUIDv7s
     */
    long validCount() {
        long n = 0;
        for (BucketListing b : buckets) {
            n += b.packedCount();
        }
        for (RecordListing.Entry e : strays) {
            if (UuidV7.isValid(e.id())) {
                n++;
            }
        }
        return n;
    }

    /**
     * @return the number of record files, names that are not ids included
     */
    long size() {
        long n = strays.size();
        for (BucketListing b : buckets) {
            n += b.packedCount();
        }
        return n;
    }

    private boolean packedHas(String id) {
        if (!PackedIds.packable(id)) {
            return false;
        }
        String bucket = DocLayout.bucketOf(id);
        long[] half = new long[2];
        PackedIds.pack(id, half, 0);
        for (BucketListing b : buckets) {
            if (b.name().equals(bucket)) {
                return b.ids() != null && PackedIds.contains(b.ids(), half[0], half[1]);
            }
        }
        return false;
    }

    /**
     * @return the entries in id order (bytewise for ASCII names)
     * @throws IllegalStateException when a bucket's ids were not loaded
     */
    @Override
    public Iterator<RecordListing.Entry> iterator() {
        return new Merge();
    }

    /** A bucket's place in the merge. */
    private final class Cursor {
        final BucketListing bucket;
        int index;
        RecordListing.Entry head;

        Cursor(BucketListing bucket) {
            this.bucket = bucket;
            this.head = bucket.entry(files, dataName, 0);
        }

        boolean advance() {
            index++;
            head = index < bucket.packedCount() ? bucket.entry(files, dataName, index) : null;
            return head != null;
        }
    }

    /** Merges the buckets' sorted ids and the sorted strays. */
    private final class Merge implements Iterator<RecordListing.Entry> {
        private final PriorityQueue<Cursor> heads = new PriorityQueue<>((a, b) -> a.head.id().compareTo(b.head.id()));
        private int stray;

        Merge() {
            for (BucketListing b : buckets) {
                if (b.ids() == null) {
                    throw new IllegalStateException("bucket " + b.name() + " was listed for its count only");
                }
                if (b.packedCount() > 0) {
                    heads.add(new Cursor(b));
                }
            }
        }

        @Override
        public boolean hasNext() {
            return !heads.isEmpty() || stray < strays.size();
        }

        @Override
        public RecordListing.Entry next() {
            if (!hasNext()) {
                throw new NoSuchElementException();
            }
            Cursor first = heads.peek();
            if (first == null || stray < strays.size() && strays.get(stray).id().compareTo(first.head.id()) < 0) {
                return strays.get(stray++);
            }
            heads.poll();
            RecordListing.Entry e = first.head;
            if (first.advance()) {
                heads.add(first);
            }
            return e;
        }
    }
}
