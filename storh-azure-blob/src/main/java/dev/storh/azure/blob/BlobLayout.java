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
 *   <li>any other folder {@code <folder>} of store {@code <store>} starts with three hex characters
 *       of the SHA-256 of {@code <store>/<folder>}: {@code <hhh>/<store>/<folder>/<file>}
 *       (the root folder hashes {@code <store>/});</li>
 *   <li>a folder exists when its marker blob {@code <prefix of its parent>/<name>/.storh-folder}
 *       exists; listing a folder lists its contents prefix with the {@code /} delimiter.</li>
 * </ul>
 * Two-character and three-character first segments never collide. The layout's name and rules are
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
            + "\"other\":\"<sha256(<store>/<folder>)[0..3]>/<store>/<folder>/<file>\","
            + "\"folder-marker\":\"<parent contents>/<name>/" + FOLDER_MARKER + "\"}\n";

    private static final Pattern BUCKET_DIR = Pattern.compile("data/[0-9a-f]{2}");

    private final String store;

    /**
     * @param store the store's name in the container ({@code pages}, {@code audit/events}); no
     *     leading or trailing {@code /}
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
        return slash < 0 ? contents("") + name : contents(name.substring(0, slash)) + name.substring(slash + 1);
    }

    /**
     * @param dir a folder's seam name, {@code ""} for the root
     * @return the prefix (ending in {@code /}) of the blobs of its files and its child folders' markers
     */
    String contents(String dir) {
        if (BUCKET_DIR.matcher(dir).matches()) {
            return dir.substring(5) + "/" + store + "/data/";
        }
        String key = store + "/" + dir;
        return hash3(key) + "/" + store + "/" + (dir.isEmpty() ? "" : dir + "/");
    }

    /**
     * @param dir a folder's seam name, not the root
     * @return the blob that marks it as existing
     */
    String marker(String dir) {
        int slash = dir.lastIndexOf('/');
        String parent = slash < 0 ? "" : dir.substring(0, slash);
        return contents(parent) + dir.substring(slash + 1) + "/" + FOLDER_MARKER;
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

    private static String hash3(String key) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(key.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest, 0, 2).substring(0, 3);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JVM", e);
        }
    }
}
