package dev.storh.azure.blob;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.regex.Pattern;

/**
 * Where the files of one store folder live in a container: the one place that maps a seam name
 * ({@code data/2d/<id>.jsonc}, {@code .storh/indexes/email.json}) onto a blob name, so that the
 * first characters of every blob name are random and the service's range partitions share the load.
 *
 * <ul>
 *   <li>a record's bucket folder {@code data/<bb>} (two hex characters) is put first:
 *       {@code data/2d/<id>.jsonc} of store {@code pages} is the blob {@code 2d/pages/data/<id>.jsonc};</li>
 *   <li>a log's {@code segments} folder, whose file names follow each other in time
 *       ({@code seg-000001.ndjson}, ...), starts each file with one hex character of the SHA-256
 *       of {@code <store>/segments/<file>}: {@code <h>/<store>/segments/<file>}, so consecutive
 *       segments land in 16 ranges rather than one; listing it merges those 16 prefixes;</li>
 *   <li>any other folder {@code <folder>} of store {@code <store>} starts with three hex characters
 *       of the SHA-256 of {@code <store>/<folder>}: {@code <hhh>/<store>/<folder>/<file>}
 *       (the root folder hashes {@code <store>/});</li>
 *   <li>a folder exists when its marker blob {@code <prefix of its parent>/<name>/.storh-folder}
 *       exists; listing a folder lists its contents prefix with the {@code /} delimiter.</li>
 * </ul>
 * One-, two- and three-character first segments never collide. The layout's name and rules are
 * recorded in the container's {@value #LAYOUT_BLOB} blob, checked on connect. Immutable, thread-safe.
 */
public final class BlobLayout {

    /** The blob at the container's root recording the layout. */
    public static final String LAYOUT_BLOB = "storh-layout.json";

    /** The layout's name and version, as recorded in {@value #LAYOUT_BLOB}. */
    public static final String NAME = "storh-blob-layout/1";

    /** The name of a folder's marker blob, inside the folder's entry in its parent. */
    public static final String FOLDER_MARKER = ".storh-folder";

    /** The content of {@value #LAYOUT_BLOB}. */
    static final String DESCRIPTION = "{\"layout\":\"" + NAME + "\","
            + "\"record\":\"<bucket>/<store>/data/<file>\","
            + "\"segments\":\"<sha256(<store>/segments/<file>)[0]>/<store>/segments/<file>\","
            + "\"other\":\"<sha256(<store>/<folder>)[0..3]>/<store>/<folder>/<file>\","
            + "\"folder-marker\":\"<parent contents>/<name>/" + FOLDER_MARKER + "\"}\n";

    private static final Pattern BUCKET_DIR = Pattern.compile("data/[0-9a-f]{2}");

    /** A record file: {@code data/<bb>/<id>.jsonc} (temp files start with a dot). */
    private static final Pattern RECORD = Pattern.compile("data/[0-9a-f]{2}/[^./][^/]*\\.jsonc");

    /** The folder whose files are spread one by one (a log's segments). */
    static final String SPREAD_DIR = "segments";

    private static final String HEX = "0123456789abcdef";

    private final String store;

    /**
     * @param store the store's name in the container ({@code pages}, {@code audit/events}); no
     *     leading or trailing {@code /}; {@code ""} for the folder that holds the stores
     */
    BlobLayout(String store) {
        this.store = store;
    }

    /** @return the store's name in the container */
    String store() {
        return store;
    }

    /**
     * @param name a file's seam name
     * @return its blob name
     */
    String blob(String name) {
        int slash = name.lastIndexOf('/');
        return slash < 0 ? contents("", name) + name : contents(name.substring(0, slash), name.substring(slash + 1))
                + name.substring(slash + 1);
    }

    /**
     * @param dir a folder's seam name, {@code ""} for the root
     * @return the prefixes (each ending in {@code /}) under which its files and its child folders'
     *     markers are: one, or 16 for the spread folder
     */
    java.util.List<String> prefixes(String dir) {
        if (!dir.equals(SPREAD_DIR)) {
            return java.util.List.of(contents(dir));
        }
        java.util.List<String> all = new java.util.ArrayList<>(16);
        for (int i = 0; i < 16; i++) {
            all.add(HEX.charAt(i) + "/" + (store.isEmpty() ? "" : store + "/") + dir + "/");
        }
        return all;
    }

    /**
     * @param dir a folder's seam name
     * @param child the name of a file or folder in it
     * @return the prefix its blob (or marker) goes under
     */
    private String contents(String dir, String child) {
        if (!dir.equals(SPREAD_DIR)) {
            return contents(dir);
        }
        return hash(store + "/" + dir + "/" + child).charAt(0) + "/" + (store.isEmpty() ? "" : store + "/") + dir + "/";
    }

    /**
     * @param dir a folder's seam name, {@code ""} for the root, not the spread folder
     * @return the prefix (ending in {@code /}) of the blobs of its files and its child folders' markers
     */
    private String contents(String dir) {
        String storePart = store.isEmpty() ? "" : store + "/";
        if (BUCKET_DIR.matcher(dir).matches()) {
            return dir.substring(5) + "/" + storePart + "data/";
        }
        return hash(store + "/" + dir).substring(0, 3) + "/" + storePart + (dir.isEmpty() ? "" : dir + "/");
    }

    /**
     * @param dir a folder's seam name, not the root
     * @return the blob that marks it as existing
     */
    String marker(String dir) {
        int slash = dir.lastIndexOf('/');
        String parent = slash < 0 ? "" : dir.substring(0, slash);
        return contents(parent, dir.substring(slash + 1)) + dir.substring(slash + 1) + "/" + FOLDER_MARKER;
    }

    /**
     * @param name a normalized seam name
     * @return whether it names a DocStore record file ({@code data/<bb>/<id>.jsonc})
     */
    static boolean isRecord(String name) {
        return RECORD.matcher(name).matches();
    }

    /**
     * @param name a relative, {@code /}-separated name
     * @return it without a leading {@code ./} or trailing {@code /}
     * @throws IllegalArgumentException for an absolute name, {@code ..}, {@code \} or an empty segment
     */
    static String normalize(String name) {
        String n = name.startsWith("./") ? name.substring(2) : name;
        if (n.endsWith("/")) {
            n = n.substring(0, n.length() - 1);
        }
        if (n.equals(".")) {
            return "";
        }
        if (n.startsWith("/") || n.contains("\\") || n.contains("//") || ("/" + n + "/").contains("/../")
                || ("/" + n + "/").contains("/./")) {
            throw new IllegalArgumentException("Not a relative name under the store: " + name);
        }
        return n;
    }

    private static String hash(String key) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(key.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest, 0, 2);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JVM", e);
        }
    }
}
