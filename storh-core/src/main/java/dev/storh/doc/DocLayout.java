package dev.storh.doc;

import dev.storh.fs.MetaLayout;
import java.nio.file.Path;

/**
 * Every file and folder name of a document collection, computed in one place:
 *
 * <pre>
 * &lt;collection&gt;/data/&lt;bucket&gt;/&lt;id&gt;.jsonc               a record file (see {@link #recordFile})
 * &lt;collection&gt;/data/&lt;bucket&gt;/.&lt;writer&gt;.&lt;n&gt;.tmp        a record write in progress
 * &lt;collection&gt;/.storh/write.lock                     flock(2) target of the write lock
 * &lt;collection&gt;/.storh/writers/&lt;pid&gt;.&lt;8 hex&gt;          marker of a live writing instance
 * &lt;collection&gt;/.storh/writers/0.index-drift          indexes to rebuild on the next open
 * &lt;folder&gt;/.&lt;file&gt;.undo-&lt;n&gt;.tmp                     a file's earlier bytes being put back
 * &lt;collection&gt;/.storh/corrupt/&lt;file name&gt;             quarantined record files (repair)
 * &lt;collection&gt;/.storh/listing-counts                  saved record counts per bucket (a checked cache)
 * &lt;collection&gt;/.storh/indexes/manifest.jsonc          the index manifest
 * &lt;collection&gt;/.storh/indexes/paths.jsonc             the path index definitions
 * &lt;collection&gt;/.storh/corrupt/indexes-&lt;manifest&gt;       a damaged definition file, set aside (repair)
 * &lt;collection&gt;/.storh/indexes/entries/                index files (equality, compound, range)
 * &lt;collection&gt;/.storh/indexes/entries.tmp-&lt;hex&gt;/       an index tree being built
 * &lt;collection&gt;/.storh/indexes/entries.old-&lt;hex&gt;/       the replaced tree, deleted after a swap
 * &lt;collection&gt;/.storh/indexes/.manifest.jsonc.&lt;hex&gt;.tmp  a manifest write in progress
 * &lt;collection&gt;/.storh/sort/.&lt;pid&gt;.&lt;hex&gt;.&lt;n&gt;.tmp        a sorted run of a verify or rebuild in progress
 * &lt;export folder&gt;/.&lt;file&gt;.&lt;writer&gt;.&lt;n&gt;.tmp             a JSONL export in progress
 * </pre>
 *
 * The names inside an index tree ({@code eq/}, {@code compound/}, {@code range/}) are computed by
 * {@code dev.storh.doc.index.IndexLayout}.
 *
 * <p>The bucket of a record is characters 24–25 of its lowercase UUIDv7 id (the start of the
 * random final group), so 256 buckets named {@code 00}…{@code ff} fill evenly. Nothing else in
 * storh builds a collection path by hand. Instances are immutable and thread-safe; no method
 * touches the disk.
 *
 * @param root the collection folder ({@code <root>/<collection>})
 */
public record DocLayout(Path root) {

    /** The folder of the bucket folders. */
    public static final String DATA = "data";
    /** The storh metadata folder. */
    public static final String META = MetaLayout.META;
    /** The ending of a record file name. */
    public static final String RECORD_EXTENSION = ".jsonc";
    /** The file name of {@link #listingCounts()}. */
    public static final String LISTING_COUNTS = "listing-counts";
    /** The file name of {@link #pathIndexManifest()}. */
    public static final String PATH_INDEX_MANIFEST = "paths.jsonc";
    /** Suffix of every temp file storh writes. */
    public static final String TEMP_SUFFIX = ".tmp";

    /** Glob of the index trees a crashed build or swap may leave in {@code .storh/indexes/}. */
    public static final String INDEX_LEFTOVER_GLOB = "entries.{tmp,old}-*";
    /** Glob of what a killed index write may leave in {@code .storh/indexes/}: trees and temp files. */
    public static final String INDEX_FOLDER_LEFTOVER_GLOB = "{entries.tmp-*,entries.old-*,.*" + TEMP_SUFFIX + "}";

    private static final String LOCK = "write.lock";
    private static final String CORRUPT = "corrupt";
    private static final String INDEXES = "indexes";
    private static final String ENTRIES = "entries";
    private static final String MANIFEST = "manifest.jsonc";

    /**
     * @param collectionRoot the collection folder ({@code <root>/<collection>})
     * @return its layout
     */
    public static DocLayout of(Path collectionRoot) {
        return new DocLayout(collectionRoot);
    }

    /** @return {@code data/} */
    public Path dataDir() {
        return root.resolve(DATA);
    }

    /** @return {@code .storh/} */
    public Path metaDir() {
        return root.resolve(META);
    }

    /**
     * @return {@code .storh/sort/}: scratch files of the external sorts of verify and rebuilds,
     *     named as owned temp files, so the temp sweep removes them once their process is gone
     */
    public Path sortDir() {
        return metaDir().resolve("sort");
    }

    /** @return {@code .storh/write.lock} */
    public Path lockFile() {
        return metaDir().resolve(LOCK);
    }

    /** @return {@code .storh/batch-journal}: the records of batches not yet durable in their own files (see {@link BatchJournal}) */
    public Path batchJournal() {
        return metaDir().resolve("batch-journal");
    }

    /** @return {@code .storh/writers/} */
    public Path writersDir() {
        return MetaLayout.writersDirectory(root);
    }

    /**
     * @param writerPrefix a writing instance's {@code <pid>.<8 hex>}
     * @return {@code .storh/writers/<pid>.<8 hex>}
     */
    public Path writerMarker(String writerPrefix) {
        return writersDir().resolve(writerPrefix);
    }

    /**
     * @return {@code .storh/writers/0.index-drift}: a marker no live process owns (pid 0), left when a
     *     write could not bring the indexes in line with the records; the next open treats it as a
     *     crashed writer's and rebuilds the indexes
     */
    public Path driftMarker() {
        return writersDir().resolve("0.index-drift");
    }

    /**
     * @param name a file's name relative to the collection folder
     * @param n a number unique within the instance
     * @return {@code <folder>/.<file name>.undo-<n>.tmp}: the temp file that puts a file's earlier
     *     bytes back when a write is undone
     */
    public static String undoTemp(String name, long n) {
        int slash = name.lastIndexOf('/');
        return name.substring(0, slash + 1) + "." + name.substring(slash + 1) + ".undo-" + n + TEMP_SUFFIX;
    }

    /** @return {@code .storh/corrupt/} */
    public Path corruptDir() {
        return metaDir().resolve(CORRUPT);
    }

    /**
     * @return {@code .storh/listing-counts}: the record count of each bucket folder as last listed,
     *     with the folder's time and identity then (a cache, checked before use; storh-for-Java only)
     */
    public Path listingCounts() {
        return metaDir().resolve(LISTING_COUNTS);
    }

    /** @return {@code .storh/indexes/} */
    public Path indexesDir() {
        return metaDir().resolve(INDEXES);
    }

    /** @return {@code .storh/indexes/manifest.jsonc} */
    public Path indexManifest() {
        return indexesDir().resolve(MANIFEST);
    }

    /** @return {@code .storh/indexes/paths.jsonc}: the path index definitions */
    public Path pathIndexManifest() {
        return indexesDir().resolve(PATH_INDEX_MANIFEST);
    }

    /** @return the index definition files: {@link #indexManifest()}, then {@link #pathIndexManifest()} */
    public java.util.List<Path> indexManifests() {
        return java.util.List.of(indexManifest(), pathIndexManifest());
    }

    /**
     * @param manifest one of {@link #indexManifests()}
     * @return {@code indexes-<file name>}: the name a damaged definition file is kept under in
     *     {@link #corruptDir()}
     */
    public static String quarantinedIndexManifest(Path manifest) {
        return INDEXES + "-" + manifest.getFileName();
    }

    /** @return {@code .storh/indexes/entries/} */
    public Path indexEntriesDir() {
        return indexesDir().resolve(ENTRIES);
    }

    /**
     * @param suffix a random hex token
     * @return {@code .storh/indexes/entries.tmp-<suffix>/}, where a new index tree is built
     */
    public Path indexEntriesBuilding(String suffix) {
        return indexesDir().resolve(ENTRIES + ".tmp-" + suffix);
    }

    /**
     * @param suffix a random hex token
     * @return {@code .storh/indexes/entries.old-<suffix>/}, where a replaced tree waits for deletion
     */
    public Path indexEntriesAside(String suffix) {
        return indexesDir().resolve(ENTRIES + ".old-" + suffix);
    }

    /**
     * @return the folders under {@code .storh/} that must be folders when present (verify checks them)
     */
    public java.util.List<Path> metaFolders() {
        return java.util.List.of(metaDir(), indexesDir(), indexEntriesDir(), writersDir(), corruptDir());
    }

    /**
     * @param lowerId a lowercase UUIDv7 (at least 26 characters)
     * @return its bucket name, two lowercase hex digits
     */
    public static String bucketOf(String lowerId) {
        return lowerId.substring(24, 26);
    }

    /**
     * @param bucket a bucket name
     * @return {@code data/<bucket>/}
     */
    public Path bucketDir(String bucket) {
        return dataDir().resolve(bucket);
    }

    /**
     * @param lowerId a lowercase UUIDv7
     * @return {@code data/<bucket>/<id>.jsonc}
     */
    public Path recordFile(String lowerId) {
        return bucketDir(bucketOf(lowerId)).resolve(recordFileName(lowerId));
    }

    /**
     * The seam's name of a bucket folder, for code that reaches files by name through
     * {@code StoreFiles} rather than by {@link Path}.
     *
     * @param dataName the seam's name of {@link #dataDir()}
     * @param bucket a bucket name
     * @return {@code <dataName>/<bucket>}
     */
    public static String bucketName(String dataName, String bucket) {
        return dataName + "/" + bucket;
    }

    /**
     * The seam's name of a record file: {@link #recordFile(String)} as a name.
     *
     * @param dataName the seam's name of {@link #dataDir()}
     * @param lowerId a lowercase UUIDv7
     * @return {@code <dataName>/<bucket>/<id>.jsonc}
     */
    public static String recordName(String dataName, String lowerId) {
        return bucketName(dataName, bucketOf(lowerId)) + "/" + recordFileName(lowerId);
    }

    /**
     * @param lowerId a lowercase UUIDv7
     * @return {@code <id>.jsonc}
     */
    public static String recordFileName(String lowerId) {
        return lowerId + RECORD_EXTENSION;
    }

    /**
     * @param fileName a file name in a bucket
     * @return the name without {@code .jsonc}, or the name unchanged when it has another ending
     */
    public static String stripRecordExtension(String fileName) {
        return fileName.endsWith(RECORD_EXTENSION)
                ? fileName.substring(0, fileName.length() - RECORD_EXTENSION.length()) : fileName;
    }

    /**
     * @param bucketDir the bucket folder the record goes to
     * @param writerPrefix the writing instance's {@code <pid>.<8 hex>}
     * @param n a number unique within the instance
     * @return {@code data/<bucket>/.<writer>.<n>.tmp}
     */
    public static Path recordTemp(Path bucketDir, String writerPrefix, long n) {
        return bucketDir.resolve("." + writerPrefix + "." + n + TEMP_SUFFIX);
    }

    /**
     * @param target an export file (anywhere: it is the caller's)
     * @param writerPrefix the writing instance's {@code <pid>.<8 hex>}
     * @param n a number unique within the instance
     * @return {@code .<file name>.<writer>.<n>.tmp} beside the target
     */
    public static Path exportTemp(Path target, String writerPrefix, long n) {
        return target.resolveSibling("." + target.getFileName() + "." + writerPrefix + "." + n + TEMP_SUFFIX);
    }

    /**
     * @param file a record file name in {@code .storh/corrupt/} that is already taken
     * @param hex a random hex token
     * @return {@code <id>-<hex>.jsonc}, a free name for a second quarantined copy
     */
    public static String quarantineAlternative(String file, String hex) {
        return stripRecordExtension(file) + "-" + hex + RECORD_EXTENSION;
    }
}
