package dev.storh.log;

import dev.storh.StorageException;
import dev.storh.fs.AtomicFiles;
import dev.storh.fs.StoreFiles;
import dev.storh.fs.WriterMarkers;
import dev.storh.store.StoreNames;
import java.nio.file.Path;
import java.util.Locale;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Every file and folder name of a log collection, built in one place. Names below are relative to
 * the collection folder, as the log hands them to its byte seam ({@link dev.storh.fs.StoreFiles}):
 *
 * <pre>
 * &lt;root&gt;/&lt;collection&gt;[/partitions/YYYY-MM[-DD]]/    the collection folder ({@link #collectionDir}, {@link #partitionDir})
 *   collection.lock                               flock(2) target, empty
 *   manifest.jsonc                                segment list (see {@code Manifest}), replaced atomically
 *   .manifest.jsonc.&lt;12 hex&gt;.tmp                   its temp file while it is replaced
 *   segments/seg-000001.ndjson                    data segment, framed lines (see {@code LogLine}); the last is active
 *   segments/seg-000001.idx.jsonc                 sparse index of a sealed segment (see {@code SparseIndex})
 *   segments/compact-&lt;8 hex&gt;-000001.ndjson        compaction output (+ .idx.jsonc)
 *   segments/.&lt;segment or index&gt;.&lt;12 hex&gt;.tmp    temp file of an index write or a repair's rewrite
 *   segments.compact-*, index.rebuild-*, index.backup-*   leftover folders of interrupted runs, deleted at open
 *   .storh/writers/&lt;pid&gt;.&lt;8 hex&gt;                  marker of an open writing instance
 *   .storh/corrupt/&lt;segment&gt;.&lt;offset&gt;-&lt;ms&gt;.bad    damaged bytes a repair or cut moved aside
 * </pre>
 *
 * Numbers are zero-padded to six digits so a listing sorts in order; they may grow past six digits.
 * Temp names are those {@link dev.storh.fs.AtomicFiles#writeAtomic(dev.storh.fs.StoreFiles, String, byte[])}
 * makes; every temp name the log writes matches {@link #isTemp}.
 */
public final class LogFiles {

    /** The lock file's name. */
    public static final String LOCK = "collection.lock";
    /** The manifest's file name. */
    public static final String MANIFEST = "manifest.jsonc";
    /** The segment folder's name. */
    public static final String SEGMENTS = "segments";
    /** The folder of time partitions below a partitioned log. */
    public static final String PARTITIONS = "partitions";
    /** Where repairs keep damaged bytes, relative to the collection folder. */
    static final String QUARANTINE = ".storh/corrupt";
    /** Where writing instances keep their markers, relative to the collection folder. */
    static final String WRITERS = ".storh/writers";
    static final String SEGMENT_SUFFIX = ".ndjson";
    static final String INDEX_SUFFIX = ".idx.jsonc";
    static final String COMPACT_PREFIX = "compact-";

    private static final Pattern SEGMENT = Pattern.compile("^seg-(\\d+)\\.ndjson$");
    private static final Pattern MANIFEST_TEMP = Pattern.compile("^\\.manifest\\.jsonc\\.[0-9a-f]{12}\\.tmp$");
    private static final Pattern SEGMENT_TEMP = Pattern.compile(
            "^\\.(seg-\\d+|compact-[0-9a-f]+-\\d+)\\.(ndjson|idx\\.jsonc)\\.[0-9a-f]{12}\\.tmp$");
    private static final java.security.SecureRandom RANDOM = new java.security.SecureRandom();

    private LogFiles() {
    }

    /**
     * @param file a file name in {@code segments/}
     * @return {@code segments/<file>}
     */
    static String segment(String file) {
        return SEGMENTS + "/" + file;
    }

    /**
     * @param name a file name under the collection folder ({@code segments/seg-000001.ndjson})
     * @return a fresh temp name beside it: {@code .<file name>.<12 hex>.tmp} in the same folder
     */
    static String tempName(String name) {
        byte[] random = new byte[6];
        RANDOM.nextBytes(random);
        int slash = name.lastIndexOf('/');
        return name.substring(0, slash + 1) + "." + name.substring(slash + 1) + "."
                + java.util.HexFormat.of().formatHex(random) + ".tmp";
    }

    /**
     * @param folder {@code ""} for the collection folder or {@link #SEGMENTS}
     * @param name a file name in it
     * @return whether it is a temp file of the log's own atomic writes there (manifest temps in the
     *     collection folder; index and rewrite temps in {@code segments/})
     */
    static boolean isTemp(String folder, String name) {
        return (folder.isEmpty() ? MANIFEST_TEMP : SEGMENT_TEMP).matcher(name).matches();
    }

    /**
     * @param number the segment number, at least 1
     * @return {@code seg-%06d.ndjson}
     */
    static String segmentName(long number) {
        return String.format(Locale.ROOT, "seg-%06d.ndjson", number);
    }

    /**
     * @param name a file name
     * @return its segment number, or -1 when it is not a {@code seg-N.ndjson} name
     */
    static long segmentNumber(String name) {
        Matcher m = SEGMENT.matcher(name);
        if (!m.matches()) {
            return -1;
        }
        try {
            return Long.parseLong(m.group(1));
        } catch (NumberFormatException tooLong) {
            return -1;
        }
    }

    /**
     * @param segment a segment file name ending in {@code .ndjson}
     * @return the sparse index name: the {@code .ndjson} suffix replaced by {@code .idx.jsonc}
     */
    static String indexName(String segment) {
        String base = segment.endsWith(SEGMENT_SUFFIX)
                ? segment.substring(0, segment.length() - SEGMENT_SUFFIX.length()) : segment;
        return base + INDEX_SUFFIX;
    }

    /**
     * @param token 8 lowercase hex digits, one per compaction run
     * @param number the output number, from 1
     * @return {@code compact-<token>-%06d.ndjson}
     */
    static String compactName(String token, long number) {
        return String.format(Locale.ROOT, "compact-%s-%06d.ndjson", token, number);
    }

    /**
     * @param name a file name in {@code segments/}
     * @return whether it is compaction output or its index
     */
    static boolean isCompactFile(String name) {
        return name.startsWith(COMPACT_PREFIX) && (name.endsWith(SEGMENT_SUFFIX) || name.endsWith(INDEX_SUFFIX));
    }

    /**
     * @param name a folder name in the collection folder
     * @return whether it is a leftover of an interrupted compaction or index rebuild
     */
    static boolean isLeftoverDirectory(String name) {
        return name.startsWith("segments.compact-") || name.startsWith("index.rebuild-")
                || name.startsWith("index.backup-");
    }

    /**
     * @param writerPrefix the instance's {@code <pid>.<8 hex>} prefix
     * @return {@code .storh/writers/<prefix>}, the marker of an open writing instance (the folder is
     *     {@link WriterMarkers#writersDirectory}'s, which sweeps check)
     */
    static String writerMarker(String writerPrefix) {
        return WRITERS + "/" + writerPrefix;
    }

    /**
     * @param segment the damaged segment's file name
     * @param offset where the damaged bytes start in it
     * @param epochMillis when they were moved aside
     * @return {@code .storh/corrupt/<segment>.<offset>-<ms>.bad}
     */
    static String quarantineName(String segment, long offset, long epochMillis) {
        return QUARANTINE + "/" + segment + "." + offset + "-" + epochMillis + ".bad";
    }

    /**
     * @param root the folder holding collections
     * @param collection names separated by {@code /}
     * @return {@code <root>/<collection>}, absolute and normalised
     * @throws StorageException naming the collection when it is empty, absolute, or has an empty,
     *     {@code .} or {@code ..} element, a backslash or NUL (so a log never leaves its root: W18)
     */
    static Path collectionDir(Path root, String collection) {
        return StoreNames.folders(root, "log collection", collection);
    }

    /**
     * Creates a log's folder (the partition folder when partitioned) and its missing parents, each
     * through a byte seam on the nearest folder that exists: every new folder's parent is fsynced,
     * then the log's folder itself, so a new log survives a power loss. Nothing happens when the
     * folder is there. Call it before making the log's own seam, which is then the last one made.
     *
     * @param dir the log's folder, absolute
     * @param seams the log's seam factory ({@code options::files})
     * @throws StorageException {@code "Could not create storage directory: <dir>"}, e.g. when a regular
     *     file stands where a folder is needed
     */
    static void ensureCollectionDir(Path dir, Function<Path, StoreFiles> seams) {
        String below = "";
        for (Path top = dir;; top = top.getParent()) {
            StoreFiles files = seams.apply(top);
            if (top.getParent() == null || isDirectory(files)) {
                if (!below.isEmpty()) {
                    AtomicFiles.ensureDirectory(files, below);
                }
                return;
            }
            below = below.isEmpty() ? top.getFileName().toString() : top.getFileName() + "/" + below;
        }
    }

    private static boolean isDirectory(StoreFiles files) {
        try {
            return files.stat("").map(e -> e.kind() == StoreFiles.Entry.Kind.DIRECTORY).orElse(false);
        } catch (java.io.IOException e) {
            return false;
        }
    }

    /**
     * @param logDir the log's folder ({@link #collectionDir})
     * @param partition the partition's folder name, from {@link LogPartition#folderFor(long)}
     * @return {@code <logDir>/partitions/<partition>}
     */
    static Path partitionDir(Path logDir, String partition) {
        return logDir.resolve(PARTITIONS).resolve(partition);
    }
}
