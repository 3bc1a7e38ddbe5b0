package dev.storh.doc;

import dev.storh.StorageRecord;
import dev.storh.fs.SafePaths;
import dev.storh.id.UuidV7;
import dev.storh.query.RecordQuery;
import dev.storh.query.ScanQueryExecutor;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * The record-file reads of one collection (see {@link DocStore#get}, {@link DocStore#stream} and
 * {@link DocStore#count} for shapes and errors): point reads through the record cache, listings
 * through the listing cache, never through a symbolic link. Thread-safe.
 */
final class RecordReads implements ScanQueryExecutor.RecordSource {

    private final DocLayout layout;
    private final RecordCache cache;
    private final ListingCache listing;

    RecordReads(DocLayout layout, RecordCache cache, ListingCache listing) {
        this.layout = layout;
        this.cache = cache;
        this.listing = listing;
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
            return Optional.ofNullable(RecordFiles.readOrNull(checkedPathForId(id)));
        }
        // Cache hits read no bytes (a record read before, safely): only reads are checked for links.
        Path path = pathForId(id);
        return Optional.ofNullable(cache.get(UuidV7.normalize(id), path,
                () -> SafePaths.requireNoLinks(layout.root(), path.getParent())));
    }

    /** @return the record on disk, read past the cache (for index maintenance), or null */
    StorageRecord readFromDisk(String id) {
        return RecordFiles.readOrNull(checkedPathForId(id));
    }

    boolean exists(String id) {
        return Files.exists(checkedPathForId(id), LinkOption.NOFOLLOW_LINKS);
    }

    Stream<StorageRecord> stream(RecordQuery query) {
        Stream<StorageRecord> s = RecordIterator.matching(listing.list().iterator(), query);
        return query.limit() > 0 ? s.limit(query.limit()) : s;
    }

    Stream<String> ids() {
        return listing.validIds().stream();
    }

    @Override
    public long count() {
        return listing.validIds().size();
    }

    Path pathForId(String id) {
        return layout.recordFile(UuidV7.normalize(id));
    }

    /** {@link #pathForId}, refusing it when {@code data/} or the bucket folder is a symbolic link. */
    Path checkedPathForId(String id) {
        Path path = pathForId(id);
        SafePaths.requireNoLinks(layout.root(), path.getParent());
        return path;
    }
}
