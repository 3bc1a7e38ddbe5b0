package dev.storh;

import java.nio.file.Path;
import java.util.regex.Pattern;

/**
 * A base directory plus the namespace rules of the original: the base is trimmed,
 * backslashes become slashes and trailing slashes are dropped; a namespace is sanitised to
 * {@code [A-Za-z0-9_.-]} so it can never leave the base.
 *
 * <pre>
 * StorageRoot.at(Path.of("/srv/data")).path("my store!")   // /srv/data/my-store
 * StorageRoot.resolve(Path.of("/srv/data"), "../../etc")    // /srv/data/etc
 * </pre>
 *
 * Immutable and thread-safe; two roots are equal when their normalised bases are.
 *
 * @param root the normalised base directory
 */
public record StorageRoot(Path root) {

    /** The namespace used when a name sanitises to nothing. */
    public static final String DEFAULT_NAMESPACE = "runtime-storage";

    private static final Pattern UNSAFE_RUN = Pattern.compile("[^A-Za-z0-9_.-]+");

    /**
     * Normalises the base as {@link #at(String)} does.
     *
     * @param root the base directory; may be relative (kept relative)
     * @throws StorageException {@code "Storage root cannot be empty."} when the normalised base is
     *     empty, e.g. {@code "/"} or blanks
     */
    public StorageRoot {
        root = Path.of(nonEmpty(root == null ? "" : root.toString()));
    }

    /**
     * @param base the base directory; may be relative (kept relative)
     * @return the storage root
     * @throws StorageException {@code "Storage root cannot be empty."} when the normalised base is
     *     empty, e.g. {@code "/"} or blanks
     */
    public static StorageRoot at(Path base) {
        return new StorageRoot(base);
    }

    /**
     * @param base the base directory as text
     * @return the storage root
     * @throws StorageException {@code "Storage root cannot be empty."} when the normalised base is empty
     */
    public static StorageRoot at(String base) {
        return new StorageRoot(Path.of(nonEmpty(base == null ? "" : base)));
    }

    private static String nonEmpty(String base) {
        String normalised = normaliseBase(base);
        if (normalised.isEmpty()) {
            throw new StorageException("Storage root cannot be empty.");
        }
        return normalised;
    }

    /**
     * @param base the base directory
     * @param namespace the namespace, sanitised
     * @return {@code at(base).path(namespace)}
     */
    public static Path resolve(Path base, String namespace) {
        return at(base).path(namespace);
    }

    /**
     * @return {@code path(DEFAULT_NAMESPACE)}
     */
    public Path path() {
        return path(DEFAULT_NAMESPACE);
    }

    /**
     * @param namespace any text; runs of characters outside {@code [A-Za-z0-9_.-]} become one
     *     {@code -}, leading and trailing {@code -} and {@code .} are stripped, and an empty result
     *     becomes {@value #DEFAULT_NAMESPACE}
     * @return {@code <root>/<sanitised namespace>}, always a direct child of the root
     */
    public Path path(String namespace) {
        return root.resolve(sanitiseNamespace(namespace));
    }

    /**
     * @param namespace any text, {@code null} allowed
     * @return the sanitised namespace, never empty, never {@code .} or {@code ..}
     */
    public static String sanitiseNamespace(String namespace) {
        if (namespace == null) {
            return DEFAULT_NAMESPACE;
        }
        String s = UNSAFE_RUN.matcher(namespace).replaceAll("-");
        int start = 0;
        int end = s.length();
        while (start < end && (s.charAt(start) == '-' || s.charAt(start) == '.')) {
            start++;
        }
        while (end > start && (s.charAt(end - 1) == '-' || s.charAt(end - 1) == '.')) {
            end--;
        }
        s = s.substring(start, end);
        return s.isEmpty() ? DEFAULT_NAMESPACE : s;
    }

    static String normaliseBase(String base) {
        String s = trim(base).replace('\\', '/');
        int end = s.length();
        while (end > 0 && s.charAt(end - 1) == '/') {
            end--;
        }
        return s.substring(0, end);
    }

    /** Trims the original's whitespace set: space, TAB, LF, CR, NUL, VT (not FF, not a BOM). */
    static String trim(String s) {
        int start = 0;
        int end = s.length();
        while (start < end && isTrimmed(s.charAt(start))) {
            start++;
        }
        while (end > start && isTrimmed(s.charAt(end - 1))) {
            end--;
        }
        return s.substring(start, end);
    }

    private static boolean isTrimmed(char c) {
        return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\0' || c == 0x0B;
    }

    @Override
    public String toString() {
        return "StorageRoot[" + root + "]";
    }
}
