package dev.storh.doc;

import dev.storh.fs.StoreFiles;
import dev.storh.id.UuidV7;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;

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

    /**
     * Merges the buckets' sorted packed ids (a binary heap of bucket cursors ordered by their head
     * id's two halves, unsigned, which is the ids' string order) and the sorted strays; an entry is
     * made only for the id handed out.
     */
    private final class Merge implements Iterator<RecordListing.Entry> {
        private final BucketListing[] cursors;
        private final int[] next;
        private final long[] headHi;
        private final long[] headLo;
        private final int[] heap;
        private int size;
        private int stray;

        Merge() {
            int n = buckets.size();
            cursors = new BucketListing[n];
            next = new int[n];
            headHi = new long[n];
            headLo = new long[n];
            heap = new int[n];
            for (BucketListing b : buckets) {
                if (b.ids() == null) {
                    throw new IllegalStateException("bucket " + b.name() + " was listed for its count only");
                }
                if (b.packedCount() > 0) {
                    int c = size;
                    cursors[c] = b;
                    headHi[c] = b.ids()[0];
                    headLo[c] = b.ids()[1];
                    heap[size++] = c;
                    up(size - 1);
                }
            }
        }

        private boolean less(int a, int b) {
            int c = Long.compareUnsigned(headHi[a], headHi[b]);
            return c < 0 || c == 0 && Long.compareUnsigned(headLo[a], headLo[b]) < 0;
        }

        private void up(int at) {
            int c = heap[at];
            while (at > 0) {
                int parent = (at - 1) >>> 1;
                if (!less(c, heap[parent])) {
                    break;
                }
                heap[at] = heap[parent];
                at = parent;
            }
            heap[at] = c;
        }

        private void down(int at) {
            int c = heap[at];
            while (true) {
                int child = 2 * at + 1;
                if (child >= size) {
                    break;
                }
                if (child + 1 < size && less(heap[child + 1], heap[child])) {
                    child++;
                }
                if (!less(heap[child], c)) {
                    break;
                }
                heap[at] = heap[child];
                at = child;
            }
            heap[at] = c;
        }

        @Override
        public boolean hasNext() {
            return size > 0 || stray < strays.size();
        }

        @Override
        public RecordListing.Entry next() {
            if (!hasNext()) {
                throw new NoSuchElementException();
            }
            if (size == 0) {
                return strays.get(stray++);
            }
            int c = heap[0];
            String id = PackedIds.unpack(headHi[c], headLo[c]);
            if (stray < strays.size() && strays.get(stray).id().compareTo(id) < 0) {
                return strays.get(stray++);
            }
            BucketListing b = cursors[c];
            int index = next[c]++;
            RecordListing.Entry e = RecordListing.Entry.home(files, dataName, id);
            if (index + 1 < b.packedCount()) {
                headHi[c] = b.ids()[2 * index + 2];
                headLo[c] = b.ids()[2 * index + 3];
            } else {
                heap[0] = heap[--size];
            }
            if (size > 0) {
                down(0);
            }
            return e;
        }
    }
}
