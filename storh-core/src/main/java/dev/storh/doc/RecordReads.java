package dev.storh.doc;

import dev.storh.StorageRecord;
import dev.storh.fs.SafePaths;
import dev.storh.fs.StoreFiles;
import dev.storh.id.UuidV7;
import dev.storh.query.LookaheadIterator;
import dev.storh.query.RecordQuery;
import dev.storh.query.ScanQueryExecutor;
import java.nio.file.Path;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * The record-file reads of one collection (see {@link DocStore#get}, {@link DocStore#stream} and
 * {@link DocStore#count} for shapes and errors): point reads through the record cache, listings
 * through the listing cache, never through a symbolic link. Thread-safe.
 */
final class RecordReads implements ScanQueryExecutor.RecordSource {

    private final StoreFiles files;
    private final DocLayout layout;
    private final RecordCache cache;
    private final ListingCache listing;
    private final Path dataPath;
    private final String dataName;

    RecordReads(StoreFiles files, DocLayout layout, RecordCache cache, ListingCache listing) {
        this.files = files;
        this.layout = layout;
        this.cache = cache;
        this.listing = listing;
        this.dataName = files.nameOf(layout.dataDir());
        this.dataPath = files.path(dataName);
    }

    @Override
    public Stream<StorageRecord> scan(String afterId) {
        return stream(afterId == null ? RecordQuery.all() : RecordQuery.all().after(afterId));
    }

    @Override
    public Optional<StorageRecord> byId(String id) {
        return get(id);
    }

    Optional<StorageRecord> get(String id) {
        if (!cache.enabled()) {
            return Optional.ofNullable(RecordFiles.readOrNull(files, checkedPathForId(id)));
        }
        // Cache hits read no bytes (a record read before, safely): only reads are checked for links.
        String lower = UuidV7.normalize(id);
        return Optional.ofNullable(cache.get(lower,
                () -> SafePaths.requireNoLinks(files, DocLayout.bucketName(dataName, DocLayout.bucketOf(lower)))));
    }

    /** @return the record on disk, read past the cache (for index maintenance), or null */
    StorageRecord readFromDisk(String id) {
        return RecordFiles.readOrNull(files, checkedPathForId(id));
    }

    /** Drops this collection's entries from the record cache (the store is closing). */
    void forget() {
        cache.forget();
    }

    @Override
    public boolean exists(String id) {
        Boolean known = cache.knownPresence(UuidV7.normalize(id));
        if (known != null) {
            return known;
        }
        String name = files.nameOf(checkedPathForId(id));
        try {
            return files.exists(name);
        } catch (java.io.IOException e) {
            throw new dev.storh.StorageException("Could not read storage file: " + files.path(name), e);
        }
    }

    Stream<StorageRecord> stream(RecordQuery query) {
        Stream<StorageRecord> s = cache.enabled()
                ? RecordIterator.matching(listing.list().iterator(), query, this::listed)
                : RecordIterator.matching(files, listing.list().iterator(), query);
        return query.limit() > 0 ? s.limit(query.limit()) : s;
    }

    /**
     * Reads a listed file through the record cache when it is the file its id names (the listing
     * never walks through links); copies elsewhere are read directly.
     */
    private StorageRecord listed(RecordListing.Entry entry) {
        String id = entry.id();
        if (entry.homeIn(dataName)) { // a bucket listing's entry: the checks below hold by construction
            return cache.get(id, () -> { });
        }
        Path bucket = entry.path().getParent();
        if (PackedIds.packable(id) && bucket != null && dataPath.equals(bucket.getParent())
                && bucket.getFileName().toString().equals(DocLayout.bucketOf(id))) {
            return cache.get(id, () -> { });
        }
        return RecordFiles.readOrNull(files, entry.path());
    }

    Stream<String> ids() {
        return LookaheadIterator.stream(listing.list().iterator()).map(RecordListing.Entry::id).filter(UuidV7::isValid);
    }

    @Override
    public long count() {
        return listing.validCount();
    }

    Path pathForId(String id) {
        return layout.recordFile(UuidV7.normalize(id));
    }

    /**
     * {@link #checkedPathForId} for a caller holding the write lock: {@link WriteGate} has checked
     * {@code data/} on taking it, so only the bucket folder is looked at (one {@code lstat}).
     *
     * @param lowerId a record id, lower case
     * @return the record's file
     * @throws dev.storh.StorageException when the bucket folder is a symbolic link
     */
    Path checkedPathUnderLock(String lowerId) {
        Path path = layout.recordFile(lowerId);
        SafePaths.requireNoLinkAt(files, files.nameOf(path.getParent()));
        return path;
    }

    /** {@link #pathForId}, refusing it when {@code data/} or the bucket folder is a symbolic link. */
    Path checkedPathForId(String id) {
        Path path = pathForId(id);
        SafePaths.requireNoLinks(files, files.nameOf(path.getParent()));
        return path;
    }
}
