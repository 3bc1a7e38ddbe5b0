package dev.storh.doc;

import dev.storh.StorageException;
import dev.storh.fs.StoreFiles;
import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.util.AbstractList;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import java.util.Objects;

/**
 * Lists the record files of a collection in id order: every
 * {@code *.jsonc} file at any depth under {@code data/} (the 256 buckets, or anywhere a copy put
 * them), hidden names included, temp files excluded, sorted by base name as one list so that
 * buckets merge back into id order.
 *
 * <p>Only names are read: files in bucket folders are not stat-ed, so listing 171k records costs
 * one directory read per bucket.
 */
final class RecordListing {

    /**
     * A record file found on disk: its base name (the id it claims) and its path. An entry of a
     * bucket listing ({@link #home}) stands for {@code data/<bucket>/<id>.jsonc} with a lowercase
     * UUIDv7 id in the bucket its id names, and makes its path only when asked. Immutable.
     */
    static final class Entry {
        private final String id;
        private final StoreFiles files;
        private final String dataName;
        private Path path;

        /**
         * @param id the base name, the id the file claims
         * @param path the file
         */
        Entry(String id, Path path) {
            this.id = id;
            this.path = Objects.requireNonNull(path, "path");
            this.files = null;
            this.dataName = null;
        }

        private Entry(String id, StoreFiles files, String dataName) {
            this.id = id;
            this.files = files;
            this.dataName = dataName;
        }

        /**
         * @param files the collection's byte seam
         * @param dataName the {@code data/} folder's seam name
         * @param id a lowercase UUIDv7 whose file sits in the bucket its id names
         * @return its entry, the path made on first use
         */
        static Entry home(StoreFiles files, String dataName, String id) {
            return new Entry(id, files, dataName);
        }

        /** @return the id the file's base name claims */
        String id() {
            return id;
        }

        /** @return the file (racy but idempotent: every thread makes the same path) */
        Path path() {
            Path p = path;
            if (p == null) {
                p = files.path(DocLayout.recordName(dataName, id));
                path = p;
            }
            return p;
        }

        /**
         * @param dataName a {@code data/} folder's seam name
         * @return whether the entry came from a listing of that folder as a lowercase UUIDv7 in its
         *     own bucket (a {@link #home} entry); other entries may still be such files
         */
        boolean homeIn(String dataName) {
            return files != null && this.dataName.equals(dataName);
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Entry e && id.equals(e.id) && path().equals(e.path());
        }

        @Override
        public int hashCode() {
            return id.hashCode() * 31 + path().hashCode();
        }

        @Override
        public String toString() {
            return "Entry[id=" + id + ", path=" + path() + "]";
        }
    }

    private RecordListing() {
    }

    /**
     * @param files the collection's byte seam
     * @param dataDir the collection's {@code data/} folder; missing means empty
     * @return entries sorted by id (bytewise for ASCII names); when two folders hold the same name,
     *     the one in the expected bucket wins. The list is a view that makes its entries while it is
     *     iterated (16 bytes a record are held, see {@link ListingSnapshot}); iterate it rather than
     *     call {@code get}
     * @throws StorageException when a folder cannot be listed
     */
    static List<Entry> list(StoreFiles files, Path dataDir) {
        ListingSnapshot snapshot = new ListingCache(files, DocLayout.of(dataDir.getParent()), false).list();
        int size = (int) snapshot.size();
        return new AbstractList<>() {
            @Override
            public int size() {
                return size;
            }

            @Override
            public Iterator<Entry> iterator() {
                return snapshot.iterator();
            }

            /** Walks the listing to {@code index}: iterate instead. */
            @Override
            public Entry get(int index) {
                Objects.checkIndex(index, size);
                Iterator<Entry> it = snapshot.iterator();
                for (int i = 0; i < index; i++) {
                    it.next();
                }
                return it.next();
            }
        };
    }

    /**
     * @param entries entries in any order
     * @return sorted by id, duplicates dropped (the file in its own bucket wins)
     */
    static List<Entry> sortUnique(List<Entry> entries) {
        entries.sort(Comparator.comparing(Entry::id));
        // Drop duplicate names, preferring the file in its own bucket.
        List<Entry> unique = new ArrayList<>(entries.size());
        for (Entry e : entries) {
            int last = unique.size() - 1;
            if (last >= 0 && unique.get(last).id().equals(e.id())) {
                if (inOwnBucket(e)) {
                    unique.set(last, e);
                }
                continue;
            }
            unique.add(e);
        }
        return unique;
    }

    private static boolean inOwnBucket(Entry e) {
        Path parent = e.path().getParent();
        return e.id().length() >= 26 && parent != null
                && parent.getFileName().toString().equals(DocLayout.bucketOf(e.id()));
    }

    /**
     * @param files the collection's byte seam
     * @param dir a folder's name
     * @param out receives the record files at any depth below it
     * @param depth 0 for {@code data/} itself (its files are checked to be regular files)
     */
    static void collect(StoreFiles files, String dir, List<Entry> out, int depth) {
        try {
            for (String name : files.list(dir)) {
                String child = dir + "/" + name;
                if (name.endsWith(DocLayout.RECORD_EXTENSION)) {
                    if (depth > 0 || kind(files, child) == StoreFiles.Entry.Kind.FILE) {
                        out.add(new Entry(DocLayout.stripRecordExtension(name), files.path(child)));
                    }
                } else if (!name.endsWith(DocLayout.TEMP_SUFFIX) && kind(files, child) == StoreFiles.Entry.Kind.DIRECTORY) {
                    collect(files, child, out, depth + 1);
                }
            }
        } catch (NoSuchFileException | NotDirectoryException e) {
            // A missing data folder (or bucket removed while listing) holds no records.
        } catch (IOException e) {
            throw new StorageException("Could not list storage folder: " + files.path(dir), e);
        }
    }

    /** @return what the name is (a link is not followed), {@code null} when nothing has it */
    static StoreFiles.Entry.Kind kind(StoreFiles files, String name) throws IOException {
        return files.stat(name).map(StoreFiles.Entry::kind).orElse(null);
    }
}
