package dev.storh.log;

import dev.storh.StorageException;
import dev.storh.store.StoreNames;
import java.nio.file.Path;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Every file and folder name of a log collection, built in one place:
 *
 * <pre>
 * &lt;collectionDir&gt;/collection.lock                  flock(2) target, empty
 * &lt;collectionDir&gt;/manifest.jsonc                   segment list (see {@code Manifest})
 * &lt;collectionDir&gt;/segments/seg-000001.ndjson       data segment, framed lines (see {@code LogLine})
 * &lt;collectionDir&gt;/segments/seg-000001.idx.jsonc    sparse index of a sealed segment (see {@code SparseIndex})
 * &lt;collectionDir&gt;/segments/compact-&lt;8hex&gt;-000001.ndjson   compaction output (+ .idx.jsonc)
 * &lt;collectionDir&gt;/.storh/writers/&lt;pid&gt;.&lt;8 hex&gt;       marker of an open writing instance
 * &lt;collectionDir&gt;/.storh/corrupt/&lt;segment&gt;.&lt;offset&gt;-&lt;ms&gt;.bad   damaged bytes a repair moved aside
 * &lt;log&gt;/partitions/&lt;partition&gt;/                     one collection folder per time partition
 * </pre>
 *
 * Numbers are zero-padded to six digits so a listing sorts in order; they may grow past six digits.
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
    static final String SEGMENT_SUFFIX = ".ndjson";
    static final String INDEX_SUFFIX = ".idx.jsonc";
    static final String COMPACT_PREFIX = "compact-";

    private static final Pattern SEGMENT = Pattern.compile("^seg-(\\d+)\\.ndjson$");

    private LogFiles() {
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
     * @param collectionDir the collection folder
     * @param segment the damaged segment's file name
     * @param offset where the damaged bytes start in it
     * @param epochMillis when they were moved aside
     * @return {@code .storh/corrupt/<segment>.<offset>-<ms>.bad}
     */
    static Path quarantineFile(Path collectionDir, String segment, long offset, long epochMillis) {
        return collectionDir.resolve(QUARANTINE).resolve(segment + "." + offset + "-" + epochMillis + ".bad");
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
     * @param logDir the log's folder ({@link #collectionDir})
     * @param partition the partition's folder name, from {@link LogPartition#folderFor(long)}
     * @return {@code <logDir>/partitions/<partition>}
     */
    static Path partitionDir(Path logDir, String partition) {
        return logDir.resolve(PARTITIONS).resolve(partition);
    }
}
